/** Expands config paths: a file is taken as is, a folder is searched recursively for `config.yaml`. */
import { readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { ConfigError } from "@yardstick/core";

export const CONFIG_FILE_NAME = "config.yaml";
export const TASKS_FOLDER_NAME = "seahelm_tasks";

export async function findConfigFiles(input: string): Promise<string[]> {
  const abs = path.resolve(input);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(abs);
  } catch {
    throw new ConfigError(`config path not found: ${abs}`, { file: abs, expected: `a ${CONFIG_FILE_NAME} file or a folder` });
  }
  if (info.isFile()) return [abs];
  const entries = await readdir(abs, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name === CONFIG_FILE_NAME)
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** The nearest ancestor folder named `seahelm_tasks` (SEA-HELM's task root), if any. */
export function nearestTasksRoot(file: string): string | undefined {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (path.basename(dir) === TASKS_FOLDER_NAME) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
