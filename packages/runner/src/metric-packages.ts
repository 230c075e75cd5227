import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ConfigError, type Registry, type RegistryInit, type TaskSpec } from "@yardstick/core";
import { pluginInitOf } from "./builtins.js";

/**
 * Metric packages found by name: a task that names a metric yardstick does not have (`ifeval`,
 * `seahelm:FooMetric`) runs when a package named after it is installed, without `--plugin`.
 *
 * The metric id `X` is looked up as `@yardstick/metric-<x>`, then `yardstick-metric-<x>`, where <x>
 * is the id in lower case with `:` and any other character npm does not allow in a name turned into
 * `-` (`seahelm:FooMetric` → `@yardstick/metric-seahelm-foometric`). A namespaced id `<pkg>:<name>`
 * is then also looked up as the package of `<pkg>` alone, so one package can bring variants of its
 * metric (`ifeval:en` → `@yardstick/metric-ifeval-en`, then `@yardstick/metric-ifeval`). Each name is resolved like a
 * `require` from the folder of each config naming the metric, then from the working folder, then from
 * yardstick's own install. The package exports what a `--plugin` package exports (a `plugins` or
 * default export shaped like `createRegistry`'s argument), and must register the metric under that id.
 */

/** The package names the metric `id` is looked up as, in order. */
export function metricPackageNames(id: string): string[] {
  const namespace = id.includes(":") ? id.slice(0, id.indexOf(":")) : undefined;
  return [...new Set([id, namespace].flatMap((name) => (name === undefined ? [] : namesOf(name))))];
}

function namesOf(id: string): string[] {
  const part = id
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return part === "" ? [] : [`@yardstick/metric-${part}`, `yardstick-metric-${part}`];
}

/** How a missing metric's message ends: the packages that would be found by its name. */
export function metricPackageHint(id: string): string {
  const [scoped, plain] = metricPackageNames(id);
  return scoped ? `install ${scoped} or ${plain}: a package of either name is found without --plugin` : "";
}

export interface NamedMetricPackage {
  /** The metric id it was looked up for. */
  metric: string;
  /** The package name it was found as. */
  name: string;
  init: RegistryInit;
}

/** yardstick's own install: packages installed beside it are found too (a global install, the monorepo). */
const OWN_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * Extends `registry` with the metric packages found by name for every metric the tasks name that it
 * does not have. A metric with no such package stays missing (the runnable check says what to
 * install); a package that is found but cannot load, or does not register the metric, is a
 * `ConfigError` naming it.
 */
export async function loadNamedMetricPackages(
  tasks: readonly TaskSpec[],
  registry: Registry,
  dirs: readonly string[],
  /** Given, a package that fails is reported here (by metric id) and skipped instead of thrown. */
  onFailure?: (metric: string, error: ConfigError) => void,
): Promise<{ registry: Registry; packages: NamedMetricPackage[] }> {
  const packages: NamedMetricPackage[] = [];
  const searchDirsOf = new Map<string, string[]>();
  for (const t of tasks) {
    for (const ref of t.metrics) {
      if (registry.has("metrics", ref.id)) continue;
      const list = searchDirsOf.get(ref.id) ?? [];
      searchDirsOf.set(ref.id, list);
      if (t.source?.file) list.push(dirname(t.source.file));
    }
  }
  for (const [metric, configDirs] of searchDirsOf) {
    if (registry.has("metrics", metric)) continue; // an earlier package brought it
    try {
      const found = findMetricPackage(metric, [...new Set([...configDirs, ...dirs, OWN_DIR])]);
      if (!found) continue;
      const init = await importMetricPackage(metric, found.name, found.file);
      packages.push({ metric, name: found.name, init });
      registry = registry.extend(init);
    } catch (err) {
      if (!onFailure || !ConfigError.isInstance(err)) throw err;
      onFailure(metric, err);
    }
  }
  return { registry, packages };
}

/** The first package of the metric's names that resolves from one of the folders. */
function findMetricPackage(metric: string, dirs: readonly string[]): { name: string; file: string } | undefined {
  for (const name of metricPackageNames(metric)) {
    for (const dir of dirs) {
      const file = resolveFrom(name, dir);
      if (file) return { name, file };
    }
  }
  return undefined;
}

function resolveFrom(name: string, dir: string): string | undefined {
  try {
    return createRequire(join(dir, "package.json")).resolve(name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") return undefined;
    // Installed, but its package.json does not let it be resolved (no "." export, a bad "main").
    throw new ConfigError(`the metric package ${name} (found in ${dir}) cannot be resolved: ${(err as Error).message}`, { cause: err });
  }
}

async function importMetricPackage(metric: string, name: string, file: string): Promise<RegistryInit> {
  let mod: unknown;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (err) {
    throw new ConfigError(`the metric package ${name}, installed for the metric "${metric}", cannot be loaded: ${(err as Error).message}`, {
      file,
      cause: err,
    });
  }
  const init = pluginInitOf(mod, name);
  if (!init.metrics || !Object.hasOwn(init.metrics, metric)) {
    const has = Object.keys(init.metrics ?? {});
    throw new ConfigError(`the metric package ${name} was found for the metric "${metric}" but registers no metric of that id`, {
      file,
      expected: `metrics: { "${metric}": ... } in its plugins export (it registers: ${has.join(", ") || "no metric"})`,
    });
  }
  return init;
}

/**
 * The metric packages installed under the naming convention in the `node_modules` folders seen from
 * `dirs` and from yardstick's own install (for `yardstick ls metrics`), loaded; one that cannot load
 * is reported to `onFailure` and left out.
 */
export async function loadInstalledMetricPackages(
  dirs: readonly string[],
  onFailure: (name: string, message: string) => void,
): Promise<Array<{ name: string; init: RegistryInit }>> {
  const out: Array<{ name: string; init: RegistryInit }> = [];
  const searchDirs = [...new Set([...dirs, OWN_DIR])];
  for (const name of installedMetricPackageNames(searchDirs)) {
    try {
      const file = searchDirs.map((d) => resolveFrom(name, d)).find((f) => f !== undefined);
      if (!file) continue;
      out.push({ name, init: pluginInitOf(await import(pathToFileURL(file).href), name) });
    } catch (err) {
      onFailure(name, err instanceof Error ? err.message : String(err));
    }
  }
  return out;
}

function installedMetricPackageNames(dirs: readonly string[]): string[] {
  const names = new Set<string>();
  for (const start of dirs) {
    for (let dir = start; ; dir = dirname(dir)) {
      const modules = join(dir, "node_modules");
      if (existsSync(modules)) {
        for (const entry of safeList(join(modules, "@yardstick"))) if (entry.startsWith("metric-")) names.add(`@yardstick/${entry}`);
        for (const entry of safeList(modules)) if (entry.startsWith("yardstick-metric-")) names.add(entry);
      }
      if (dirname(dir) === dir) break;
    }
  }
  return [...names].sort();
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
