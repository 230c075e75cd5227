/**
 * Finding and reading UltraEval config files: a task config (`datasets/<ds>/config/*.json`), the merged
 * array `configs/make_config.py` writes, or a folder holding dataset config folders. Paths inside a
 * config are relative to the UltraEval root: the nearest folder above the file that holds `datasets/`.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import { ConfigError } from "@yardstick/core";
import type { z } from "zod";
import { isPlainObject } from "../python-str.js";
import { parseJsonText } from "../syntax-check.js";
import { nodeAtPath, nodePosition, parseYamlSource } from "../yaml-source.js";
import { describeExpected } from "../zod-issues.js";
import {
  normaliseTask,
  type UltraEvalTask,
  ultraEvalLegacyTaskSchema,
  ultraEvalParamsSchema,
  type UltraEvalParams,
  ultraEvalTaskSchema,
} from "./schema.js";

/** The eight keys of a task config; a JSON object with most of them is taken to be one. */
const TASK_KEYS = ["task_name", "path", "description", "transform", "fewshot", "generate", "postprocess", "metric"];
const LEGACY_KEYS = ["dataset_name", "transforms", "metrics"];

/** How many of the task keys an object must have to count as an UltraEval task (broken ones included). */
const MIN_KEYS_FOR_DETECTION = 4;

export interface UltraEvalEntry {
  /** The config file it came from. */
  file: string;
  /** Its index in a merged array; undefined for a single config. */
  index: number | undefined;
  task: UltraEvalTask;
  /** Whether the file is a merged array (names already renamed by make_config). */
  merged: boolean;
}

/** True when a parsed JSON value has the shape of an UltraEval task config or a merged array of them. */
export function looksLikeUltraEval(value: unknown): boolean {
  const one = (v: unknown) =>
    isPlainObject(v) && [...TASK_KEYS, ...LEGACY_KEYS].filter((k) => Object.hasOwn(v, k)).length >= MIN_KEYS_FOR_DETECTION;
  if (Array.isArray(value)) return value.length > 0 && value.every(one);
  return one(value);
}

/** A `.json` file inside a folder named `config`: where UltraEval keeps its task configs. */
export function isDatasetConfigPath(file: string): boolean {
  return /\.json$/i.test(file) && path.basename(path.dirname(file)) === "config";
}

/** Every task config file under `dir` (`<dataset>/config/*.json`), sorted. */
export async function findDatasetConfigs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && isDatasetConfigPath(path.join(e.parentPath, e.name)))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

async function isDirectory(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** The nearest folder at or above the file's folder that holds a `datasets` folder; undefined when none does. */
export async function findUltraEvalRoot(file: string): Promise<string | undefined> {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (await isDirectory(path.join(dir, "datasets"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Reads and parses one JSON file; syntax errors become a ConfigError with the line and column. */
async function readJson(file: string): Promise<{ value: unknown; text: string }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    throw new ConfigError(`cannot read the file: ${(cause as Error).message}`, { file, cause });
  }
  return { value: parseJsonText(file, text, "a JSON task config"), text };
}

/** Line and column of a key path in JSON text (JSON is YAML), for messages; empty when it cannot be found. */
function locate(file: string, text: string, keyPath: readonly (string | number)[]): { line?: number; column?: number } {
  try {
    const source = parseYamlSource(file, text);
    const { line, column } = nodePosition(source, nodeAtPath(source, keyPath).node);
    return { line, column };
  } catch {
    return {};
  }
}

function zodError(file: string, text: string, prefix: (string | number)[], issue: z.core.$ZodIssue): ConfigError {
  const keyPath = [...prefix, ...issue.path.map((k) => (typeof k === "symbol" ? String(k) : k))];
  const expected = describeExpected(issue);
  const message = issue.code === "invalid_type" && issue.message.includes("received undefined") ? "required key is missing" : issue.message;
  return new ConfigError(message, { file, ...locate(file, text, keyPath), keyPath, ...(expected === undefined ? {} : { expected }) });
}

function parseTask(file: string, text: string, value: unknown, prefix: (string | number)[]): UltraEvalTask {
  if (!isPlainObject(value)) {
    throw new ConfigError("expected a task config object", { file, ...locate(file, text, prefix), keyPath: prefix, expected: `an object with ${TASK_KEYS.join(", ")}` });
  }
  const legacy = Object.hasOwn(value, "dataset_name") && !Object.hasOwn(value, "task_name");
  const parsed = (legacy ? ultraEvalLegacyTaskSchema : ultraEvalTaskSchema).safeParse(value);
  if (!parsed.success) throw zodError(file, text, prefix, parsed.error.issues[0]!);
  return normaliseTask(parsed.data);
}

/** Reads one config file: a single task config or a merged array. */
export async function readUltraEvalFile(file: string): Promise<UltraEvalEntry[]> {
  const { value, text } = await readJson(file);
  if (Array.isArray(value)) {
    if (value.length === 0) throw new ConfigError("the merged config is an empty list", { file, expected: "at least one task config" });
    return value.map((v, i) => ({ file, index: i, task: parseTask(file, text, v, [i]), merged: true }));
  }
  return [{ file, index: undefined, task: parseTask(file, text, value, []), merged: false }];
}

/** Reads and checks a model-parameter file; undefined when it does not exist. */
export async function readParamsFile(file: string, configFile: string, keyPath: (string | number)[]): Promise<UltraEvalParams | undefined> {
  if (!(await stat(file).then((s) => s.isFile(), () => false))) return undefined;
  const { value, text } = await readJson(file);
  const parsed = ultraEvalParamsSchema.safeParse(value);
  if (!parsed.success) {
    const err = zodError(file, text, [], parsed.error.issues[0]!);
    throw new ConfigError(`model-parameter file named at ${configFile} ${keyPath.join(".")}: ${err.message}`, { file });
  }
  return parsed.data;
}

/** Whether a file parses as JSON of UltraEval's shape; false (never a throw) otherwise. */
export async function fileLooksLikeUltraEval(file: string): Promise<boolean> {
  try {
    return looksLikeUltraEval(JSON.parse(await readFile(file, "utf8")));
  } catch {
    return false;
  }
}
