import { loadTasks } from "@yardstick/config";
import {
  type ConfigDialectV1,
  ConfigError,
  DataLoadError,
  NoSuchPluginError,
  type PluginKind,
  type PluginRef,
  type Registry,
  type TaskSpec,
  YardstickError,
} from "@yardstick/core";
import { builtinDialects } from "./builtins.js";
import { metricPackageHint } from "./metric-packages.js";

export interface LoadedTaskSpecs {
  tasks: TaskSpec[];
  /** Folder relative data paths are resolved against. */
  baseDir: string;
  /** Plugin packages the configs ask for (`TaskSpec.plugins`). */
  plugins: string[];
}

export interface LoadTaskSpecsOptions {
  tasks?: string[];
  languages?: string[];
  /** A named suite of the config's dialect (SEA-HELM's task_config.yaml). */
  suite?: string;
  /** Few-shot examples per prompt in place of each config's count (`--num-fewshot`). */
  numFewshot?: number;
  /** The run's seed (`--seed`): dialects that draw at random (UltraEval's few-shot examples) use it. */
  seed?: number;
  /** The model reasons before answering (`--reasoning`): dialects raise generation limits. */
  reasoning?: boolean;
  /** A base model (`--base-model`, `--bos-token`, `--endpoint`): the dialects' base-model prompts. */
  baseModel?: boolean;
  bosToken?: string;
  baseModelEndpoint?: "chat" | "completion";
  baseDir?: string;
  /** Refuse tasks whose local data file is missing (default true). */
  requireData?: boolean;
  /** The config dialects a path may be in; default the built-in ones. Pass `dialectsOf(registry)` so plugin dialects count. */
  dialects?: readonly ConfigDialectV1[];
}

/** Loads config files or folders of any known dialect into TaskSpecs and checks up front that their local data exists. */
export async function loadTaskSpecs(paths: string[], options: LoadTaskSpecsOptions = {}): Promise<LoadedTaskSpecs> {
  const dialects = options.dialects ?? Object.values(builtinDialects);
  // Options that shape every task, also when reloading all of them for the "no task matches" message.
  const common = {
    ...(options.suite !== undefined ? { suite: options.suite } : {}),
    ...(options.numFewshot !== undefined ? { numFewshot: options.numFewshot } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.reasoning ? { reasoning: true } : {}),
    ...(options.baseModel ? { baseModel: true } : {}),
    ...(options.bosToken !== undefined ? { bosToken: options.bosToken } : {}),
    ...(options.baseModelEndpoint !== undefined ? { baseModelEndpoint: options.baseModelEndpoint } : {}),
  };
  const tasks = await loadTasks(paths, {
    dialects,
    ...common,
    ...(options.tasks ? { tasks: options.tasks } : {}),
    ...(options.languages ? { languages: options.languages } : {}),
  });
  if (tasks.length === 0) {
    const all = await loadTasks(paths, { dialects, ...common });
    const names = [...new Set(all.map((t) => t.name))].sort().join(", ");
    const langs = [...new Set(all.map((t) => t.language))].sort().join(", ");
    throw new ConfigError(
      `no task matches${options.tasks ? ` --tasks ${options.tasks.join(",")}` : ""}${options.languages ? ` --langs ${options.languages.join(",")}` : ""}; tasks: ${names || "(none)"}; languages: ${langs || "(none)"}`,
      { file: paths.join(", ") },
    );
  }
  for (const t of options.requireData === false ? [] : tasks) {
    const missing = t.unsupported?.find((u) => u.code === "data-missing");
    if (missing) throw new DataLoadError(`data file of task ${t.key} not found: it ${missing.message}`, { file: t.source?.file });
  }
  const plugins = [...new Set(tasks.flatMap((t) => t.plugins ?? []))];
  return { tasks, baseDir: options.baseDir ?? process.cwd(), plugins };
}

/**
 * Checks, before any request, that yardstick can run each task: nothing in `unsupported`, every
 * plugin it names registered, and each plugin's options accepted by its `checkOptions`. The message
 * names the task and its file.
 */
export function checkTasksRunnable(tasks: readonly TaskSpec[], registry: Registry): void {
  for (const problem of findUnrunnable(tasks, registry)) throw problem.error;
}

export interface UnrunnableTask {
  task: TaskSpec;
  error: ConfigError;
  /** Groups reasons: a `TaskSpec.unsupported` code, "missing-plugin" or "bad-options". */
  code: string;
  /** The reason alone, phrased to follow "task <key> " (for listings such as `yardstick ls`). */
  reason: string;
}

export function findUnrunnable(tasks: readonly TaskSpec[], registry: Registry): UnrunnableTask[] {
  return tasks.flatMap((task) => problemsOf(task, registry).map((p) => ({ task, ...p })));
}

interface PluginUse {
  kind: PluginKind;
  label: string;
  /** Where in the TaskSpec the reference is, for messages. */
  at: string;
  ref: PluginRef;
}

function pluginUses(t: TaskSpec): PluginUse[] {
  return [
    { kind: "dataloaders", label: "dataloader", at: "data", ref: t.data },
    ...(t.examples ? [{ kind: "dataloaders" as const, label: "dataloader", at: "examples", ref: t.examples }] : []),
    { kind: "promptBuilders", label: "prompt builder", at: "prompt", ref: t.prompt },
    ...t.postprocessors.map((ref, i) => ({ kind: "postprocessors" as const, label: "postprocessor", at: `postprocessors[${i}]`, ref })),
    ...t.metrics.map((ref, i) => ({ kind: "metrics" as const, label: "metric", at: `metrics[${i}]`, ref })),
    ...(t.judge ? [{ kind: "judges" as const, label: "judge", at: "judge", ref: t.judge }] : []),
  ];
}

type Problem = Omit<UnrunnableTask, "task">;

function problemsOf(t: TaskSpec, registry: Registry): Problem[] {
  const where = { file: t.source?.file, keyPath: [t.name] };
  const problems: Problem[] = (t.unsupported ?? []).map((u) => ({
    code: u.code,
    reason: u.message,
    error: new ConfigError(`task ${t.key} ${u.message}; leave it out with --tasks or --skip-unsupported`, where),
  }));
  const missing = new Set<string>();
  for (const use of pluginUses(t)) {
    const { kind, label, ref } = use;
    if (!registry.has(kind, ref.id)) {
      if (missing.has(`${kind}:${ref.id}`)) continue;
      missing.add(`${kind}:${ref.id}`);
      const { reason, neural } = missingPluginReason(kind, label, ref.id);
      problems.push({
        code: neural ? "needs-neural-model" : "missing-plugin",
        reason,
        error: new ConfigError(`task ${t.key} ${reason}; available: ${registry.ids(kind).join(", ")}`, {
          ...where,
          cause: new NoSuchPluginError(label, ref.id, registry.ids(kind)),
        }),
      });
      continue;
    }
    try {
      checkPluginOptions(registry, kind, ref);
    } catch (err) {
      const reason = `gives the ${label} "${ref.id}" options it refuses (${use.at}.options): ${err instanceof Error ? err.message : String(err)}`;
      problems.push({ code: "bad-options", reason, error: new ConfigError(`task ${t.key} ${reason}`, { ...where, cause: err }) });
    }
  }
  return problems;
}

/** Why a plugin a task names is missing, phrased to follow "task <key> ". */
function missingPluginReason(kind: PluginKind, label: string, id: string): { reason: string; neural: boolean } {
  const neural = kind === "metrics" ? NEURAL_METRICS[id] : undefined;
  if (neural) {
    return {
      reason: `${neural.needs}; yardstick ships no neural scoring model, so it cannot score this task without a scoring endpoint (${neural.endpoint}; or ${metricPackageHint(id)})`,
      neural: true,
    };
  }
  return { reason: `needs the ${label} "${id}", which is not installed${kind === "metrics" ? missingMetricHint(id) : ""}`, neural: false };
}

/** Makes the plugin with its options and lets it check them (a factory that refuses them throws too). */
function checkPluginOptions(registry: Registry, kind: PluginKind, ref: PluginRef): void {
  const options = ref.options ?? {};
  const plugin = registry.get(kind, ref.id, options) as { checkOptions?: (o: Record<string, unknown>) => void };
  plugin.checkOptions?.(options);
}

/**
 * Checks the metrics named on the command line (`--metric`, `--add-metric`) and the options given
 * them, so a misspelt one is reported against its flag, not against each task's config file.
 */
export function checkFlagMetrics(flag: string, refs: readonly PluginRef[] | undefined, registry: Registry): void {
  for (const ref of refs ?? []) {
    if (!registry.has("metrics", ref.id)) {
      const { reason } = missingPluginReason("metrics", "metric", ref.id);
      throw new YardstickError(`--${flag} ${ref.id}: this run ${reason}; available: ${registry.ids("metrics").join(", ")}`);
    }
    try {
      checkPluginOptions(registry, "metrics", ref);
    } catch (err) {
      throw new YardstickError(`--${flag} ${ref.id}: the metric refuses the options of --metric-options: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/**
 * SEA-HELM metrics that score with a neural model yardstick cannot ship, with what they need; they
 * are registered only when their scoring endpoint is given. (MetricX always runs: without
 * `--metricx-url` translation tasks report chrF++ instead.)
 */
const NEURAL_METRICS: Record<string, { needs: string; endpoint: string }> = {
  "seahelm:RefClipScoreMetric": {
    needs:
      "scores captions with RefCLIPScore, which needs a multilingual CLIP model (SEA-HELM uses laion/CLIP-ViT-H-14-frozen-xlm-roberta-large-laion5B-s13B-b90k) to embed each image, its candidate caption and the reference captions",
    endpoint: "--refclipscore-url or YARDSTICK_REFCLIPSCORE_URL",
  },
};

/** A missing metric: what SEA-HELM class it stands for, and the package names yardstick would find it under. */
function missingMetricHint(id: string): string {
  const install = metricPackageHint(id);
  if (id.startsWith("seahelm:")) return ` (SEA-HELM's ${id.slice(8)} has no yardstick port yet; ${install})`;
  return install ? ` (${install})` : "";
}
