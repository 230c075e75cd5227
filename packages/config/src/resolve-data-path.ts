/**
 * Decides where a SEA-HELM `filepath` / `example_filepath` points: a local file (SEA-HELM writes these
 * relative to its repo root, so we try the config's folder and then each ancestor folder) or a
 * Hugging Face dataset id (`owner/name`).
 */
import { statSync } from "node:fs";
import * as path from "node:path";
import type { PluginRef } from "@yardstick/core";
import { nearestTasksRoot } from "./find-configs.js";

const HF_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
const DATA_EXTENSIONS = /\.(jsonl|json)$/i;

/** Memo of `stat` results for one translation run (many tasks share paths); never kept across runs. */
export type FileCheckCache = Map<string, boolean>;

function isFile(p: string, cache?: FileCheckCache): boolean {
  const known = cache?.get(p);
  if (known !== undefined) return known;
  let result: boolean;
  try {
    result = statSync(p).isFile();
  } catch {
    result = false;
  }
  cache?.set(p, result);
  return result;
}

/** The absolute path of an existing local file, trying the config folder and then its ancestors. */
export function findLocalFile(filepath: string, configFile: string, cache?: FileCheckCache): string | undefined {
  if (path.isAbsolute(filepath)) return isFile(filepath, cache) ? filepath : undefined;
  let dir = path.dirname(path.resolve(configFile));
  for (;;) {
    const candidate = path.join(dir, filepath);
    if (isFile(candidate, cache)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export interface DataRefResult {
  ref: PluginRef;
  /** Set when the file was not found locally and the path is a guess (the run will report it missing). */
  missing?: boolean;
}

export function dataRefFor(
  filepath: string,
  configFile: string,
  language: string,
  split: "eval" | "examples",
  localOptions: Record<string, unknown> = {},
  cache?: FileCheckCache,
): DataRefResult {
  const local = findLocalFile(filepath, configFile, cache);
  if (local) return { ref: { id: "seahelm-local", options: { path: local, ...localOptions } } };
  if (HF_ID.test(filepath) && !DATA_EXTENSIONS.test(filepath)) {
    return { ref: { id: "huggingface", options: { repo: filepath, name: language, split } } };
  }
  // Not present here: point where SEA-HELM would look (its repo root = the parent of `seahelm_tasks`).
  const tasksRoot = nearestTasksRoot(configFile);
  const base = tasksRoot ? path.dirname(tasksRoot) : path.dirname(path.resolve(configFile));
  const guess = path.isAbsolute(filepath) ? filepath : path.join(base, filepath);
  return { ref: { id: "seahelm-local", options: { path: guess, ...localOptions } }, missing: true };
}
