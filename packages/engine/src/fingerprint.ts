import { createHash } from "node:crypto";
import { createReadStream, existsSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { TaskSpec } from "@yardstick/core";
import { hashCanonical } from "./canonical-json.js";

/** sha256 of a file's bytes, streamed. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Content hashes of the local data files the tasks read (by the `path` option of their loaders). */
export async function hashTaskData(tasks: readonly TaskSpec[], baseDir?: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const task of tasks) {
    for (const ref of [task.data, task.examples]) {
      const path = ref?.options?.path;
      if (typeof path !== "string") continue;
      const full = isAbsolute(path) || !baseDir ? path : resolve(baseDir, path);
      if (out[full] !== undefined || !existsSync(full) || !statSync(full).isFile()) continue;
      out[full] = await hashFile(full);
    }
  }
  return out;
}

/**
 * The run fingerprint: what makes two runs "the same run" for resuming. It covers the resolved
 * tasks, the data bytes, the model identity and the options that change what is sent or kept.
 */
export function runFingerprint(parts: {
  tasks: readonly TaskSpec[];
  dataHashes: Record<string, string>;
  modelIdentity: string;
  options: Record<string, unknown>;
}): string {
  return hashCanonical({
    tasks: parts.tasks,
    data: Object.values(parts.dataHashes).sort(),
    model: parts.modelIdentity,
    options: parts.options,
  });
}
