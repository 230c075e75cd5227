import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";
import {
  builtinPromptBuilders,
  createPythonTransformBridge,
  createUltraEvalPromptBuilder,
  createUltraEvalTransforms,
  seahelmDialect,
  ultraevalDialect,
} from "@yardstick/config";
import { type ConfigDialectV1, ConfigError, type PluginModule, type Registry, type RegistryInit, createRegistry } from "@yardstick/core";
import {
  builtinDataloaders,
  createHuggingFaceDataloader,
  createSeahelmAaLcrDataloader,
  createSeahelmHealthbenchDataloader,
  createSeahelmLiveCodeBenchDataloader,
  createUltraEvalDataloader,
  type SnapshotSettings,
} from "@yardstick/dataloaders";
import { builtinJudgeMetrics, builtinJudges } from "@yardstick/judges";
import { builtinMetrics } from "@yardstick/metrics";
import { builtinModelFactories } from "@yardstick/models";
import { builtinPostprocessors, ULTRAEVAL_TEXT_POSTS } from "@yardstick/postprocessors";
import { spatialMetrics } from "@yardstick/spatial";
import { type ScoringSettings, scoringMetrics, scoringSettingsFromEnv } from "./scoring-settings.js";

export interface BuiltinSettings {
  /** Hugging Face token (from HF_TOKEN): sent only as a bearer header, never stored in run files. */
  hfToken?: string;
  /** Where Hub parquet files and dataset-viewer pages are cached, so re-runs and resumes read the Hub once. */
  hfCacheDir?: string;
  /** Dataset viewer endpoint (a local stand-in in tests). */
  hfEndpoint?: string;
  /** Hub endpoint (HF_ENDPOINT, as huggingface_hub reads it: a mirror or a local stand-in). */
  hfHubEndpoint?: string;
  /** The Hugging Face hub cache (HF_HUB_CACHE, else HF_HOME/hub): the HealthBench and AA-LCR loaders keep dataset snapshots there. */
  hfHubCacheDir?: string;
  /** HF_HUB_OFFLINE: the HealthBench and AA-LCR loaders download nothing, reading only the hub cache. */
  hfOffline?: boolean;
  /** Scoring endpoints for neural metrics (MetricX): `--metricx-url`, YARDSTICK_METRICX_URL. */
  scoring?: ScoringSettings;
}

/**
 * UltraEval's ported transforms, with gold answers normalised by the `ultraeval:*` postprocess functions
 * (an upstream None is ""); the others run as Python files in one python3 worker, started on first use.
 */
const ultraevalTransforms = createUltraEvalTransforms({
  postprocess: (name, text) => ULTRAEVAL_TEXT_POSTS[name](text) ?? "",
  bridge: createPythonTransformBridge(),
});

/** The composition root: every built-in plugin, by id. */
export function createBuiltinRegistry(settings: BuiltinSettings = {}): Registry {
  return createRegistry({
    models: { ...builtinModelFactories },
    dataloaders: {
      ...builtinDataloaders,
      // Configured here rather than in task options, so the token never enters run.json or the fingerprint.
      huggingface: createHuggingFaceDataloader({
        ...(settings.hfToken ? { token: settings.hfToken } : {}),
        ...(settings.hfCacheDir ? { cacheDir: settings.hfCacheDir } : {}),
        ...(settings.hfEndpoint ? { endpoint: settings.hfEndpoint } : {}),
        ...(settings.hfHubEndpoint ? { hubEndpoint: settings.hfHubEndpoint } : {}),
      }),
      "seahelm-healthbench": createSeahelmHealthbenchDataloader(snapshotSettings(settings)),
      "seahelm-aa-lcr": createSeahelmAaLcrDataloader(snapshotSettings(settings)),
      "seahelm-livecodebench": createSeahelmLiveCodeBenchDataloader(snapshotSettings(settings)),
      // The label of an UltraEval row is its transform's processed output.
      ultraeval: createUltraEvalDataloader({ transforms: ultraevalTransforms }),
    },
    promptBuilders: { ...builtinPromptBuilders, ultraeval: createUltraEvalPromptBuilder({ transforms: ultraevalTransforms }) },
    postprocessors: { ...builtinPostprocessors },
    metrics: { ...builtinMetrics, ...spatialMetrics, ...builtinJudgeMetrics, ...scoringMetrics(settings.scoring ?? {}) },
    judges: { ...builtinJudges },
    dialects: { ...builtinDialects },
  });
}

/** Where the HealthBench and AA-LCR loaders find and download their repository files: the hub cache, HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE. */
function snapshotSettings(settings: BuiltinSettings): SnapshotSettings {
  return {
    ...(settings.hfHubCacheDir ? { hubCacheDir: settings.hfHubCacheDir } : {}),
    ...(settings.hfHubEndpoint ? { endpoint: settings.hfHubEndpoint } : {}),
    ...(settings.hfToken ? { token: settings.hfToken } : {}),
    ...(settings.hfOffline ? { offline: true } : {}),
  };
}

/** The config dialects yardstick reads out of the box, by id. */
export const builtinDialects: Record<string, ConfigDialectV1> = { [seahelmDialect.id]: seahelmDialect, [ultraevalDialect.id]: ultraevalDialect };

/** Every config dialect of a registry (built-ins and plugin packages), for `loadTasks`. */
export function dialectsOf(registry: Registry): ConfigDialectV1[] {
  return registry.ids("dialects").map((id) => registry.get("dialects", id));
}

const KINDS = ["models", "dataloaders", "promptBuilders", "postprocessors", "metrics", "judges", "dialects"] as const;

/**
 * Loads plugin packages by npm name (resolved from `fromDir`, then from yardstick's own install) and
 * merges what they export: a default export or a `plugins` export shaped like `createRegistry`'s argument.
 */
export async function loadPluginPackages(names: readonly string[], fromDir: string): Promise<RegistryInit> {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const name of names) {
    const plugin = pluginInitOf(await importPlugin(name, fromDir), name);
    for (const kind of KINDS) {
      const entries = plugin[kind];
      if (entries) merged[kind] = { ...merged[kind], ...entries };
    }
  }
  return merged as RegistryInit;
}

/** What a plugin package's module registers: its `plugins` export, else its default export. */
export function pluginInitOf(mod: unknown, name: string): PluginModule {
  const { plugins, default: fallback } = mod as { default?: PluginModule; plugins?: PluginModule };
  const plugin = plugins ?? fallback;
  if (!plugin || typeof plugin !== "object" || !KINDS.some((k) => k in plugin)) {
    throw new ConfigError(`plugin package "${name}" exports no plugins`, {
      expected: "a default export or `plugins` export like { metrics: { id: metric } }",
    });
  }
  return plugin;
}

async function importPlugin(name: string, fromDir: string): Promise<unknown> {
  // A module file given without "./" (`--plugin examples/x.mjs`) is a path, not a package name.
  if (/\.[cm]?js$/.test(name)) {
    const file = resolvePath(fromDir, name);
    if (!existsSync(file)) throw new ConfigError(`cannot load plugin "${name}": no such file (${file})`);
    return import(pathToFileURL(file).href);
  }
  const candidates = [join(fromDir, "package.json"), import.meta.url];
  for (const base of candidates) {
    let resolved: string;
    try {
      resolved = createRequire(base).resolve(name);
    } catch {
      continue;
    }
    return import(pathToFileURL(resolved).href);
  }
  try {
    return await import(name);
  } catch (err) {
    throw new ConfigError(`cannot load plugin package "${name}": it is not installed (npm install ${name})`, { cause: err });
  }
}

/** Built-in settings from the environment (only the runner reads it). */
export function builtinSettingsFromEnv(env: NodeJS.ProcessEnv, cacheRoot: string): BuiltinSettings {
  return {
    ...(env.HF_TOKEN ? { hfToken: env.HF_TOKEN } : {}),
    hfCacheDir: join(cacheRoot, "hf"),
    ...(env.YARDSTICK_HF_ENDPOINT ? { hfEndpoint: env.YARDSTICK_HF_ENDPOINT } : {}),
    ...(env.HF_ENDPOINT ? { hfHubEndpoint: env.HF_ENDPOINT } : {}),
    ...(env.HF_HUB_CACHE ? { hfHubCacheDir: env.HF_HUB_CACHE } : env.HF_HOME ? { hfHubCacheDir: join(env.HF_HOME, "hub") } : {}),
    // As huggingface_hub reads it: 1, true, yes, on (any case).
    ...(/^(1|true|yes|on)$/i.test(env.HF_HUB_OFFLINE ?? "") ? { hfOffline: true } : {}),
    scoring: scoringSettingsFromEnv(env),
  };
}
