/**
 * The local folder holding the files of a Hub dataset repository, for loaders that read a repo's
 * files rather than its rows (SEA-HELM's HealthBench and AA-LCR loaders call `snapshot_download`).
 *
 * Either the folder given as `dir` (relative to `ctx.baseDir`), or the snapshot the Hugging Face hub
 * cache holds for the repo — where `snapshot_download` / `huggingface-cli download` put it:
 * `<hub cache>/datasets--<owner>--<name>/snapshots/<commit>/`, the commit read from `refs/<revision>`
 * (or given as a 40-character sha). Nothing is downloaded here.
 */
import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import { ConfigError, DataLoadError } from "@yardstick/core";
import type { z } from "zod";

export interface SnapshotSettings {
  /** The Hugging Face hub cache folder (HF_HUB_CACHE); default `~/.cache/huggingface/hub`, as huggingface_hub. */
  hubCacheDir?: string;
}

export interface SnapshotLocation {
  repo: string;
  dir?: string | undefined;
  revision?: string | undefined;
}

const SHA = /^[0-9a-f]{40}$/;

export const defaultHubCacheDir = (): string => path.join(homedir(), ".cache", "huggingface", "hub");

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** The folder the loader reads the repo's files from; a `DataLoadError` saying how to get it when there is none. */
export async function snapshotFolder(where: SnapshotLocation, baseDir: string | undefined, settings: SnapshotSettings): Promise<string> {
  if (where.dir !== undefined) {
    const dir = path.resolve(baseDir ?? process.cwd(), where.dir);
    if (!(await isDirectory(dir))) throw new DataLoadError("the dataset folder (data.options.dir) does not exist", { file: dir });
    return dir;
  }
  const cache = settings.hubCacheDir ?? defaultHubCacheDir();
  const repoDir = path.join(cache, `datasets--${where.repo.replaceAll("/", "--")}`);
  const revision = where.revision ?? "main";
  let commit = revision;
  if (!SHA.test(revision)) {
    try {
      commit = (await readFile(path.join(repoDir, "refs", revision), "utf8")).trim();
    } catch {
      commit = "";
    }
  }
  const dir = path.join(repoDir, "snapshots", commit);
  if (commit === "" || !(await isDirectory(dir))) {
    throw new DataLoadError(
      `no local copy of the Hub dataset ${where.repo} (revision ${revision}) in the Hugging Face cache ${cache}: ` +
        `download it with \`huggingface-cli download ${where.repo} --repo-type dataset\` (what SEA-HELM's snapshot_download does; ` +
        "HF_HUB_CACHE or HF_HOME choose the cache folder), or point data.options.dir at a folder holding its files",
      { file: `hf://datasets/${where.repo}` },
    );
  }
  return dir;
}

/** `schema.parse(options)`, or a `ConfigError` naming the loader and the key (`data.options.<key>`). */
export function parseLoaderOptions<S extends z.ZodType>(loaderId: string, schema: S, options: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${loaderId} options: ${issue.message}`, { keyPath: ["data", "options", ...issue.path.map(String)] });
  }
  return parsed.data;
}
