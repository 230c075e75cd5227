import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { builtinPromptBuilders } from "@yardstick/config";
import { ConfigError, type PluginModule, type Registry, type RegistryInit, createRegistry } from "@yardstick/core";
import { builtinDataloaders } from "@yardstick/dataloaders";
import { builtinMetrics } from "@yardstick/metrics";
import { builtinModelFactories } from "@yardstick/models";
import { builtinPostprocessors } from "@yardstick/postprocessors";
import { spatialMetrics } from "@yardstick/spatial";

/** The composition root: every built-in plugin, by id. */
export function createBuiltinRegistry(): Registry {
  return createRegistry({
    models: { ...builtinModelFactories },
    dataloaders: { ...builtinDataloaders },
    promptBuilders: { ...builtinPromptBuilders },
    postprocessors: { ...builtinPostprocessors },
    metrics: { ...builtinMetrics, ...spatialMetrics },
  });
}

const KINDS = ["models", "dataloaders", "promptBuilders", "postprocessors", "metrics", "judges"] as const;

/**
 * Loads plugin packages by npm name (resolved from `fromDir`, then from yardstick's own install) and
 * merges what they export: a default export or a `plugins` export shaped like `createRegistry`'s argument.
 */
export async function loadPluginPackages(names: readonly string[], fromDir: string): Promise<RegistryInit> {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const name of names) {
    const mod = (await importPlugin(name, fromDir)) as { default?: PluginModule; plugins?: PluginModule };
    const plugin = mod.plugins ?? mod.default;
    if (!plugin || typeof plugin !== "object" || !KINDS.some((k) => k in plugin)) {
      throw new ConfigError(`plugin package "${name}" exports no plugins`, {
        expected: "a default export or `plugins` export like { metrics: { id: metric } }",
      });
    }
    for (const kind of KINDS) {
      const entries = plugin[kind];
      if (entries) merged[kind] = { ...merged[kind], ...entries };
    }
  }
  return merged as RegistryInit;
}

async function importPlugin(name: string, fromDir: string): Promise<unknown> {
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
