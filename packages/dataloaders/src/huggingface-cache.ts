/**
 * On-disk cache of dataset viewer responses, so re-runs and resumes need no network:
 * `<cacheDir>/<repo>/<revision>/<config>/<split>/rows-<offset>.json` (each part URI-encoded, so a
 * repo's `/` stays in one directory name) and `<cacheDir>/<repo>/<revision>/splits.json`. Files
 * are written to a temporary name and renamed, so a crash never leaves a torn page; an unreadable
 * cache file is treated as missing and fetched again. The endpoint and the token are not part of
 * the key.
 */
import { randomBytes } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { makeDirectory } from "@yardstick/core";

export const CACHE_FORMAT = 1;

export interface PageKey {
  repo: string;
  config: string;
  split: string;
  revision: string;
  offset: number;
}

/** A key part as one safe directory name. */
export const cachePart = (s: string): string => {
  const e = encodeURIComponent(s);
  // "." and ".." are valid names to encodeURIComponent but not safe as directory names.
  return e === "." || e === ".." ? e.replace(/\./g, "%2E") : e;
};

export function pageFile(cacheDir: string, key: PageKey): string {
  return path.join(cacheDir, cachePart(key.repo), cachePart(key.revision), cachePart(key.config), cachePart(key.split), `rows-${key.offset}.json`);
}

export function splitsFile(cacheDir: string, repo: string, revision: string): string {
  return path.join(cacheDir, cachePart(repo), cachePart(revision), "splits.json");
}

/** The commit a revision resolved to on the Hub (the fingerprint), cached beside that revision's pages. */
export function revisionFile(cacheDir: string, repo: string, revision: string): string {
  return path.join(cacheDir, cachePart(repo), cachePart(revision), "hub-revision.json");
}

/** The cached JSON value, or undefined when there is none (or it is unreadable). */
export async function readCached(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as { format?: unknown };
    return value?.format === CACHE_FORMAT ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `value` (which must carry `format: CACHE_FORMAT`) atomically. */
export async function writeCached(file: string, value: unknown): Promise<void> {
  await makeDirectory(path.dirname(file));
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(tmp, JSON.stringify(value));
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
