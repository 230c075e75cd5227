import { existsSync, lstatSync, readdirSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ConfigError, YardstickError, makeDirectorySync } from "@yardstick/core";
import { type Dataset, type DatasetItem, loadDatasetFile, loadTaskFile } from "./load.js";
import { RelativeFileName, type TaskDef } from "./schemas.js";

/** Task ids are file names without `.json`; anything else in `tasks/` is ignored (Quest lists stray files). */
export const TASK_ID = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

export interface LoadedTask {
  id: string;
  def: TaskDef;
  dataset: Dataset;
  /** Absolute path of the results JSONL, checked to stay in `results/`. */
  resultsFile: string;
  /** The dataset name as the task gives it, with `.jsonl` made explicit (Quest makes it optional). */
  datasetName: string;
  /** Dataset lines in file order, and each line's item (lookups on every request stay O(1)). */
  lines: number[];
  itemByLine: Map<number, DatasetItem>;
}

export interface DataFolder {
  root: string;
  tasks: Map<string, LoadedTask>;
  /** Task files that did not load, each as one message; the server serves the others. */
  problems: string[];
}

function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Resolves `name` inside `root/sub`, refusing `..`, absolute paths and symlinks that lead out:
 * an existing file is checked by its real path, a new one by its folder's real path and by not
 * being a symlink itself.
 */
export function confinedPath(root: string, sub: string, name: string): string {
  const checked = RelativeFileName.safeParse(name);
  if (!checked.success) throw new ConfigError(checked.error.issues[0]?.message ?? "bad path", { expected: "a file inside the data folder" });
  const base = realpathSync(join(root, sub));
  const target = resolve(base, name);
  if (!within(base, target)) throw new ConfigError(`"${name}" leaves ${sub}/`);
  if (existsSync(target) || isDanglingLink(target)) {
    const real = safeRealpath(target);
    if (real === undefined || !within(base, real)) throw new ConfigError(`"${name}" is a link out of ${sub}/`);
    return real;
  }
  const parent = safeRealpath(dirname(target));
  if (parent === undefined || !within(base, parent)) throw new ConfigError(`"${name}" is not inside ${sub}/`);
  return join(parent, target.slice(dirname(target).length + 1));
}

function isDanglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const withJsonl = (name: string) => (name.endsWith(".jsonl") ? name : `${name}.jsonl`);

/** Reads `tasks/*.json` and each task's dataset; creates `tasks/`, `datasets/`, `results/` if missing. */
export function loadDataFolder(dataDir: string): DataFolder {
  const root = resolve(dataDir);
  for (const sub of ["tasks", "datasets", "results"]) makeDirectorySync(join(root, sub));
  const tasks = new Map<string, LoadedTask>();
  const problems: string[] = [];
  const datasets = new Map<string, Dataset>();
  const files = readdirSync(join(root, "tasks"), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".json") && TASK_ID.test(e.name.slice(0, -5)))
    .map((e) => e.name)
    .sort();
  for (const file of files) {
    const id = file.slice(0, -5);
    try {
      const def = loadTaskFile(join(root, "tasks", file), (name) => confinedPath(root, "tasks", name));
      const datasetName = withJsonl(def.dataset.name);
      const datasetPath = confinedPath(root, "datasets", datasetName);
      let dataset = datasets.get(datasetPath);
      if (!dataset) {
        dataset = loadDatasetFile(datasetPath);
        datasets.set(datasetPath, dataset);
      }
      if (def.presentation.type === "single" && dataset.meta.samples_per_line !== 1) {
        throw new ConfigError(`a "single" task needs samples_per_line 1; ${datasetName} has ${dataset.meta.samples_per_line}`, {
          file: join("tasks", file),
          keyPath: ["presentation", "type"],
        });
      }
      const resultsFile = confinedPath(root, "results", withJsonl(def.results));
      const lines = dataset.items.map((i) => i.line);
      const itemByLine = new Map(dataset.items.map((i) => [i.line, i]));
      tasks.set(id, { id, def, dataset, resultsFile, datasetName, lines, itemByLine });
    } catch (err) {
      if (!YardstickError.isInstance(err)) throw err;
      // Errors that name their file (task or dataset) say where; the others belong to the task file.
      const named = (err as { file?: string }).file !== undefined;
      const message = err.message.startsWith(root) ? err.message.slice(root.length + 1) : err.message;
      problems.push(named ? message : `tasks/${file}: ${message}`);
    }
  }
  return { root, tasks, problems };
}
