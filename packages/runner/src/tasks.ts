import { existsSync } from "node:fs";
import { loadSeaHelmConfigs, toTaskSpecs } from "@yardstick/config";
import { ConfigError, DataLoadError, type TaskSpec } from "@yardstick/core";

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
  options: { tasks?: string[]; languages?: string[]; baseDir?: string } = {},
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
  for (const t of tasks) {
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
