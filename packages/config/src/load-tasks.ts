/**
 * Loads tasks from config paths of any dialect: each path is claimed by exactly one of the given
 * dialects, which translates it into TaskSpecs. The dialects are injected, so a plugin's dialect
 * works the same as the built-in ones.
 */
import { stat } from "node:fs/promises";
import * as path from "node:path";
import { type ConfigDialectV1, ConfigError, type DialectLoadOptions, type TaskSpec } from "@yardstick/core";
import { configSyntaxError } from "./syntax-check.js";

export interface LoadTasksOptions extends DialectLoadOptions {
  /** The dialects a path may be in (the registry's `dialects`). */
  dialects: readonly ConfigDialectV1[];
}

/** The one dialect that claims `configPath`; a `ConfigError` when none or several do. */
export async function detectDialect(configPath: string, dialects: readonly ConfigDialectV1[]): Promise<ConfigDialectV1> {
  const abs = path.resolve(configPath);
  if (!(await stat(abs).then(() => true, () => false))) {
    throw new ConfigError(`config path not found: ${abs}`, { file: abs, expected: "a config file or a folder" });
  }
  const claims: ConfigDialectV1[] = [];
  for (const dialect of dialects) {
    let claimed = false;
    try {
      claimed = await dialect.detect(abs);
    } catch {
      // detect must not throw; a dialect that does is treated as not claiming the path
    }
    if (claimed) claims.push(dialect);
  }
  const [only, ...more] = claims;
  if (only && more.length === 0) return only;
  if (only) {
    throw new ConfigError(`several config dialects claim it: ${claims.map((d) => d.id).join(", ")}`, {
      file: abs,
      expected: "a path that exactly one dialect reads; give the files one by one",
    });
  }
  // A JSON or YAML file that does not parse: its syntax error says more than "no dialect reads it".
  const syntax = await configSyntaxError(abs);
  if (syntax) throw syntax;
  const known = dialects.map((d) => `${d.id} — ${d.description ?? "no description"}`).join("; ");
  throw new ConfigError("no known config dialect reads it", {
    file: abs,
    expected: dialects.length === 0 ? "a registered config dialect (none is)" : `one of: ${known}`,
  });
}

/**
 * Detects each path's dialect, loads it with the filters, and concatenates the tasks. A task key
 * may occur once; the same task reached through two overlapping paths (a folder and a file in it)
 * is kept once. A `tasks` name that no path has is an error naming the ones that exist.
 */
export async function loadTasks(paths: readonly string[], options: LoadTasksOptions): Promise<TaskSpec[]> {
  const { dialects, ...filters } = options;
  const loadOptions: DialectLoadOptions = {
    ...(filters.tasks ? { tasks: filters.tasks } : {}),
    ...(filters.languages ? { languages: filters.languages } : {}),
    ...(filters.suite !== undefined ? { suite: filters.suite } : {}),
    ...(filters.numFewshot !== undefined ? { numFewshot: filters.numFewshot } : {}),
    ...(filters.seed !== undefined ? { seed: filters.seed } : {}),
    ...(filters.reasoning ? { reasoning: true } : {}),
    ...(filters.baseModel ? { baseModel: true } : {}),
    ...(filters.bosToken !== undefined ? { bosToken: filters.bosToken } : {}),
    ...(filters.baseModelEndpoint !== undefined ? { baseModelEndpoint: filters.baseModelEndpoint } : {}),
  };
  const byKey = new Map<string, { task: TaskSpec; from: string }>();
  const out: TaskSpec[] = [];
  const perPath: { path: string; dialect: ConfigDialectV1 }[] = [];
  for (const p of paths) {
    const dialect = await detectDialect(p, dialects);
    perPath.push({ path: p, dialect });
    for (const task of await dialect.load(path.resolve(p), loadOptions)) {
      const from = task.source?.file ?? path.resolve(p);
      const previous = byKey.get(task.key);
      if (previous) {
        if (previous.from === from && previous.task.source?.dialect === task.source?.dialect) continue;
        throw new ConfigError(`duplicate task key "${task.key}": defined in ${previous.from} and in ${from}`, {
          file: from,
          expected: "each task key in one config only",
        });
      }
      byKey.set(task.key, { task, from });
      out.push(task);
    }
  }
  if (filters.tasks) await checkTaskNames(filters.tasks, out, perPath, filters);
  return out;
}

/** Every `tasks` name must select something in at least one path (a task name or an aggregation group). */
async function checkTaskNames(
  wanted: readonly string[],
  found: readonly TaskSpec[],
  perPath: readonly { path: string; dialect: ConfigDialectV1 }[],
  filters: DialectLoadOptions,
): Promise<void> {
  const matches = (t: TaskSpec, name: string) => t.name === name || t.aggregationGroup === name;
  let missing = wanted.filter((name) => !found.some((t) => matches(t, name)));
  if (missing.length === 0) return;
  // A name may exist in another language than the ones asked for: only names no path has are unknown.
  const unfiltered: TaskSpec[] = [];
  for (const { path: p, dialect } of perPath) {
    unfiltered.push(...(await dialect.load(path.resolve(p), filters.suite !== undefined ? { suite: filters.suite } : {})));
  }
  missing = missing.filter((name) => !unfiltered.some((t) => matches(t, name)));
  const first = missing[0];
  if (first === undefined) return;
  const names = [...new Set(unfiltered.flatMap((t) => (t.aggregationGroup ? [t.name, t.aggregationGroup] : [t.name])))].sort();
  throw new ConfigError(`unknown task or aggregation group "${first}"`, {
    file: perPath.map((p) => path.resolve(p.path)).join(", "),
    expected: `one of ${names.slice(0, 20).join(", ")}${names.length > 20 ? ", ..." : ""}`,
  });
}
