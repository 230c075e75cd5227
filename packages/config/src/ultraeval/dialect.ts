/**
 * UltraEval JSON as a `ConfigDialectV1`: a task config (`datasets/<ds>/config/*.json`), the merged
 * array of `configs/make_config.py`, or a folder holding dataset config folders (a dataset, the
 * `datasets` folder or the UltraEval root). Detection reads JSON only, so SEA-HELM YAML is never claimed.
 */
import { stat } from "node:fs/promises";
import * as path from "node:path";
import { type ConfigDialectV1, ConfigError, type DialectLoadOptions, type TaskSpec } from "@yardstick/core";
import type { ListsConfigProblems } from "../seahelm-dialect.js";
import {
  fileLooksLikeUltraEval,
  findDatasetConfigs,
  findUltraEvalRoot,
  isDatasetConfigPath,
  readUltraEvalFile,
  type UltraEvalEntry,
} from "./files.js";
import { datasetOf, renamedTaskName, translateEntry, ULTRAEVAL_DEFAULT_FEWSHOT_SEED, ULTRAEVAL_DIALECT_ID } from "./task-specs.js";

export type UltraEvalDialect = ConfigDialectV1 & ListsConfigProblems;

export function createUltraEvalDialect(): UltraEvalDialect {
  return {
    specVersion: "v1",
    id: ULTRAEVAL_DIALECT_ID,
    description: "an UltraEval task config (datasets/<ds>/config/*.json), the merged JSON array of make_config, or a folder of UltraEval datasets",
    detect: detectUltraEval,
    async load(configPath, options = {}) {
      return selectTasks(await loadUltraEval(configPath), options);
    },
    async listProblems(configPath) {
      const errors: ConfigError[] = [];
      const files = await configFilesOf(configPath);
      for (const file of files) {
        try {
          await loadFiles([file]);
        } catch (e) {
          if (!ConfigError.isInstance(e)) throw e;
          errors.push(e);
        }
      }
      return errors;
    },
  };
}

export const ultraevalDialect: UltraEvalDialect = createUltraEvalDialect();

/** True for a JSON file of UltraEval's shape (a broken one inside a `config` folder too) or a folder holding one; never throws. */
export async function detectUltraEval(configPath: string): Promise<boolean> {
  try {
    const info = await stat(configPath);
    if (info.isDirectory()) {
      for (const file of await findDatasetConfigs(configPath)) if (await fileLooksLikeUltraEval(file)) return true;
      return false;
    }
    if (!info.isFile() || !/\.json$/i.test(configPath)) return false;
    if (await fileLooksLikeUltraEval(configPath)) return true;
    // A config file that no longer parses is still claimed, so its load error says what is wrong.
    return isDatasetConfigPath(path.resolve(configPath)) && /_(gen|ppl)\.json$/i.test(configPath);
  } catch {
    return false;
  }
}

async function configFilesOf(configPath: string): Promise<string[]> {
  const abs = path.resolve(configPath);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(abs);
  } catch {
    throw new ConfigError(`config path not found: ${abs}`, { file: abs, expected: "an UltraEval config file or folder" });
  }
  if (info.isFile()) return [abs];
  const files = await findDatasetConfigs(abs);
  if (files.length === 0) throw new ConfigError("no UltraEval task configs (<dataset>/config/*.json) in this folder", { file: abs });
  return files;
}

export async function loadUltraEval(configPath: string): Promise<TaskSpec[]> {
  return loadFiles(await configFilesOf(configPath));
}

async function loadFiles(files: readonly string[]): Promise<TaskSpec[]> {
  const entries: UltraEvalEntry[] = [];
  for (const file of files) entries.push(...(await readUltraEvalFile(file)));
  const roots = new Map<string, string | undefined>();
  const keys = new Map<string, number>();
  const specs: TaskSpec[] = [];
  for (const entry of entries) {
    if (!roots.has(entry.file)) roots.set(entry.file, await findUltraEvalRoot(entry.file));
    const name = entry.merged ? entry.task.task_name : renamedTaskName(datasetOf(entry), entry.task.task_name, entry.task.generate.method);
    // Upstream keys tasks by name, so a repeated name silently replaced the earlier task; here both stay.
    const seen = keys.get(name) ?? 0;
    keys.set(name, seen + 1);
    const key = seen === 0 ? name : `${name}~${seen + 1}`;
    const spec = await translateEntry(entry, key, { root: roots.get(entry.file), fallbackBase: path.dirname(entry.file) });
    if (seen > 0) {
      spec.diagnostics = [
        ...(spec.diagnostics ?? []),
        { level: "warning", message: `task name ${name} occurs ${seen + 1} times; this one is keyed ${key}` },
      ];
    }
    specs.push(spec);
  }
  return specs;
}

/**
 * Filters select and never fail on names this config lacks (`loadTasks` reports names no path has);
 * `numFewshot` replaces every task's few-shot count, as upstream's `--num_fewshot` does; `seed`
 * seeds the few-shot draw (upstream leaves it unseeded; the default is 1234).
 */
function selectTasks(specs: TaskSpec[], options: DialectLoadOptions): TaskSpec[] {
  let out = specs;
  if (options.languages) {
    const langs = new Set(options.languages);
    out = out.filter((s) => langs.has(s.language));
  }
  if (options.tasks) {
    const wanted = new Set(options.tasks);
    out = out.filter((s) => wanted.has(s.name) || (s.aggregationGroup !== undefined && wanted.has(s.aggregationGroup)));
  }
  if (options.numFewshot !== undefined) {
    // --num-fewshot: examples still come from the task's own file, drawn with its seeded generator.
    const k = options.numFewshot;
    out = out.map((s) => ({ ...s, fewshot: k }));
  }
  if (options.seed !== undefined && options.seed !== ULTRAEVAL_DEFAULT_FEWSHOT_SEED) {
    // The few-shot draw's random.Random seed (the default keeps upstream's goldens and fingerprints).
    const seed = options.seed;
    out = out.map((s) => ({ ...s, data: { ...s.data, options: { ...s.data.options, fewshotSeed: seed } } }));
  }
  return out;
}
