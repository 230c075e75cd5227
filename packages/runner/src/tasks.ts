import { existsSync } from "node:fs";
import { loadSeaHelmConfigs, toTaskSpecs } from "@yardstick/config";
import { ConfigError, DataLoadError, NoSuchPluginError, type Registry, type TaskSpec } from "@yardstick/core";

export interface LoadedTaskSpecs {
  tasks: TaskSpec[];
  /** Folder relative data paths are resolved against. */
  baseDir: string;
  /** Plugin packages the configs ask for (`yardstick.plugins`). */
  plugins: string[];
}

/** Loads config files or folders into TaskSpecs and checks up front that their local data exists. */
export async function loadTaskSpecs(
  paths: string[],
  options: { tasks?: string[]; languages?: string[]; baseDir?: string; requireData?: boolean } = {},
): Promise<LoadedTaskSpecs> {
  const loaded = await loadSeaHelmConfigs(paths);
  const all = toTaskSpecs(loaded, {});
  const tasks = toTaskSpecs(loaded, { tasks: options.tasks, languages: options.languages });
  if (tasks.length === 0) {
    const names = [...new Set(all.map((t) => t.name))].sort().join(", ");
    const langs = [...new Set(all.map((t) => t.language))].sort().join(", ");
    throw new ConfigError(
      `no task matches${options.tasks ? ` --tasks ${options.tasks.join(",")}` : ""}${options.languages ? ` --langs ${options.languages.join(",")}` : ""}; tasks: ${names || "(none)"}; languages: ${langs || "(none)"}`,
      { file: paths.join(", ") },
    );
  }
  for (const t of options.requireData === false ? [] : tasks) {
    const path = t.data.options?.path;
    if (t.extra?.dataMissing === true || (typeof path === "string" && !existsSync(path))) {
      throw new DataLoadError(`data file of task ${t.key} not found (config says ${JSON.stringify(t.extra?.filepath ?? path)})`, {
        file: typeof path === "string" ? path : t.source?.file,
      });
    }
  }
  const plugins = [...new Set(tasks.flatMap((t) => (Array.isArray(t.extra?.plugins) ? (t.extra.plugins as string[]) : [])))];
  return { tasks, baseDir: options.baseDir ?? process.cwd(), plugins };
}

/**
 * Checks, before any request, that yardstick can run each task: every plugin it names is
 * registered, and it does not need a path yardstick lacks. The message names the task and its file.
 */
export function checkTasksRunnable(tasks: readonly TaskSpec[], registry: Registry): void {
  for (const problem of findUnrunnable(tasks, registry)) throw problem.error;
}

export interface UnrunnableTask {
  task: TaskSpec;
  error: ConfigError;
}

export function findUnrunnable(tasks: readonly TaskSpec[], registry: Registry): UnrunnableTask[] {
  return tasks.flatMap((task) => problemsOf(task, registry).map((error) => ({ task, error })));
}

function problemsOf(t: TaskSpec, registry: Registry): ConfigError[] {
  const where = { file: t.source?.file, keyPath: [t.name, "languages", t.language] };
  if (t.extra?.useLogprobs === true) {
    return [
      new ConfigError(
        `task ${t.key} scores the log-probability of the gold label (SEA-HELM's vLLM-only logprobs path), which yardstick does not support yet; leave it out with --tasks or --skip-unsupported`,
        where,
      ),
    ];
  }
  if (t.extra?.dataMissing === true) {
    return [new ConfigError(`task ${t.key}: local data file not found (${String(t.extra.filepath ?? "")})`, where)];
  }
  type Kind = Parameters<Registry["get"]>[0];
  const refs: [Kind, string, string][] = [
    ["dataloaders", t.data.id, "dataloader"],
    ["promptBuilders", t.prompt.id, "prompt builder"],
    ...t.postprocessors.map((p): [Kind, string, string] => ["postprocessors", p.id, "postprocessor"]),
    ...t.metrics.map((m): [Kind, string, string] => ["metrics", m.id, "metric"]),
  ];
  const problems: ConfigError[] = [];
  for (const [kind, id, label] of refs) {
    if (registry.has(kind, id)) continue;
    const hint =
      id === "ifeval"
        ? " (it is the separate package @yardstick/metric-ifeval: install it and add --plugin @yardstick/metric-ifeval)"
        : id.startsWith("seahelm:")
          ? ` (SEA-HELM's ${id.slice(8)} has no yardstick port yet)`
          : "";
    problems.push(
      new ConfigError(`task ${t.key} needs the ${label} "${id}", which is not installed${hint}; available: ${registry.ids(kind).join(", ")}`, {
        ...where,
        cause: new NoSuchPluginError(label, id, registry.ids(kind)),
      }),
    );
  }
  return problems;
}
