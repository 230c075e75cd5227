/**
 * The files of a Hub dataset repository, for loaders that read a repo's files rather than its rows
 * (SEA-HELM's HealthBench and AA-LCR loaders call `snapshot_download`).
 *
 * Either the folder given as `dir` (relative to `ctx.baseDir`), or the repo's snapshot in the
 * Hugging Face hub cache, laid out as huggingface_hub lays it out so both tools share it:
 * `<hub cache>/datasets--<owner>--<name>/` with `refs/<revision>` (the commit a branch was),
 * `blobs/<etag>` (the bytes: an LFS file's sha256, a plain git file's blob id) and
 * `snapshots/<commit>/<path>` (relative symlinks to the blobs).
 *
 * A snapshot already holding every file the task needs is used as it is, with no request (an offline
 * machine keeps working, and a re-run reads the commit it read before). Otherwise the revision is
 * resolved to a commit on the Hub, the folders holding the needed files are listed at that commit
 * (sizes and digests), and only the missing files are downloaded, resumably and checked
 * (`hub-download.ts`), into the blobs, then linked into the snapshot and the ref written.
 */
import { randomBytes } from "node:crypto";
import { copyFile, readFile, rename, stat, symlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import * as path from "node:path";
import { ConfigError, type DataloaderContext, type DataloaderV1, DataLoadError, makeDirectory } from "@yardstick/core";
import { z } from "zod";
import { createHubClient, type HubClientSettings, HubRequestFailed } from "./huggingface-client.js";
import { withFileLock } from "./file-lock.js";
import { downloadHubFile, encodeRepoPath, sizeOf } from "./hub-download.js";
import { askRevisionCommit, COMMIT_SHA, type HubQuestion, listRepoFolder, type RepoTreeEntry } from "./hub-revision.js";

export interface SnapshotSettings extends HubClientSettings {
  /** The Hugging Face hub cache folder (HF_HUB_CACHE); default `~/.cache/huggingface/hub`, as huggingface_hub. */
  hubCacheDir?: string;
  /** The Hub (HF_ENDPOINT: a mirror or a stand-in); default https://huggingface.co. */
  endpoint?: string;
  /** Hugging Face token (HF_TOKEN), sent as `Authorization: Bearer`, never logged. */
  token?: string;
  /** HF_HUB_OFFLINE: never ask the Hub, read only what the cache holds. */
  offline?: boolean;
}

export interface SnapshotLocation {
  repo: string;
  dir?: string | undefined;
  revision?: string | undefined;
}

export interface SnapshotFiles {
  /** The local file of each path asked for. */
  files: string[];
  /** The commit the files are from (for the fingerprint); undefined for a `dir` folder. */
  commit: string | undefined;
}

export const DEFAULT_HUB_ENDPOINT = "https://huggingface.co";

export const defaultHubCacheDir = (): string => path.join(homedir(), ".cache", "huggingface", "hub");

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await makeDirectory(path.dirname(file));
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/**
 * `snapshots/<commit>/<p>` → the blob, as a relative symlink (a copy where symlinks are not allowed,
 * as huggingface_hub does). Made under a temporary name and renamed over, so a reader never finds
 * the path missing while another load links it.
 */
async function linkIntoSnapshot(link: string, blob: string): Promise<void> {
  await makeDirectory(path.dirname(link));
  const tmp = `${link}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await symlink(path.relative(path.dirname(link), blob), tmp);
  } catch {
    await copyFile(blob, tmp);
  }
  await rename(tmp, link);
}

/**
 * Downloads of this process by blob: a load and a fingerprint (or two tasks) wanting the same file
 * at once share one download rather than writing the same partial file twice.
 */
const inFlight = new Map<string, Promise<void>>();
function once(blob: string, download: () => Promise<void>): Promise<void> {
  let p = inFlight.get(blob);
  if (p === undefined) {
    p = download().finally(() => inFlight.delete(blob));
    inFlight.set(blob, p);
  }
  return p;
}

/** The repo's folder in the hub cache. */
export function repoCacheDir(settings: SnapshotSettings, repo: string): string {
  return path.join(settings.hubCacheDir ?? defaultHubCacheDir(), `datasets--${repo.replaceAll("/", "--")}`);
}

/** The commit the cache says `revision` is (a sha is itself), or undefined. */
async function cachedCommit(repoDir: string, revision: string): Promise<string | undefined> {
  if (COMMIT_SHA.test(revision)) return revision;
  try {
    const sha = (await readFile(path.join(repoDir, "refs", revision), "utf8")).trim();
    return sha === "" || sha.includes("/") || sha.startsWith(".") ? undefined : sha;
  } catch {
    return undefined;
  }
}

/**
 * Where a load would get the files, told without any request (for `yardstick ls` / `validate`):
 * `local` (a `dir` folder), `cached` (a complete snapshot), `download` (from the Hub on first run),
 * `unavailable` (not cached and HF_HUB_OFFLINE set). Whether the Hub would answer is not asked.
 */
export interface HubDataStatus {
  repo: string;
  revision: string;
  state: "local" | "cached" | "download" | "unavailable";
}

/** A dataloader reading Hub repository files, which can say where they would come from (see `HubDataStatus`). */
export interface HubFilesDataloader extends DataloaderV1 {
  hubDataStatus(options: Record<string, unknown>, ctx?: DataloaderContext): Promise<HubDataStatus>;
}

export async function snapshotStatus(where: SnapshotLocation, paths: readonly string[], settings: SnapshotSettings): Promise<HubDataStatus> {
  const revision = where.revision ?? "main";
  const base = { repo: where.repo, revision };
  if (where.dir !== undefined) return { ...base, state: "local" };
  const repoDir = repoCacheDir(settings, where.repo);
  const commit = await cachedCommit(repoDir, revision);
  let cached = commit !== undefined;
  for (const p of paths) if (cached && !(await isFile(path.join(repoDir, "snapshots", commit!, p)))) cached = false;
  return { ...base, state: cached ? "cached" : settings.offline ? "unavailable" : "download" };
}

/**
 * The local files of `paths` in the repo (see the module comment): from `dir`, from the cache, or
 * downloaded into the cache. A `DataLoadError` saying what to do when they cannot be had.
 */
export async function snapshotFiles(where: SnapshotLocation, paths: readonly string[], ctx: DataloaderContext, settings: SnapshotSettings): Promise<SnapshotFiles> {
  if (where.dir !== undefined) {
    const dir = path.resolve(ctx.baseDir ?? process.cwd(), where.dir);
    if (!(await isDirectory(dir))) throw new DataLoadError("the dataset folder (data.options.dir) does not exist", { file: dir });
    return { files: paths.map((p) => path.join(dir, p)), commit: undefined };
  }
  const { repo } = where;
  const revision = where.revision ?? "main";
  // Paths come from task options: keep them inside the snapshot (and the repo).
  const outside = paths.find((p) => p === "" || path.posix.isAbsolute(p) || p.split(/[\\/]/).includes(".."));
  if (outside !== undefined) throw new DataLoadError(`"${outside}" is not a path inside the dataset repository ${repo}`, { file: `hf://datasets/${repo}` });
  if (revision.split("/").some((part) => part === "" || part === "." || part === "..")) {
    throw new DataLoadError(`"${revision}" is not a revision name`, { file: `hf://datasets/${repo}` });
  }
  const cache = settings.hubCacheDir ?? defaultHubCacheDir();
  const repoDir = repoCacheDir(settings, repo);
  const inSnapshot = (commit: string, p: string): string => path.join(repoDir, "snapshots", commit, p);
  const known = await cachedCommit(repoDir, revision);
  if (known !== undefined) {
    const missing: string[] = [];
    for (const p of paths) if (!(await isFile(inSnapshot(known, p)))) missing.push(p);
    if (missing.length === 0) return { files: paths.map((p) => inSnapshot(known, p)), commit: known };
  }
  const file = `hf://datasets/${repo}`;
  const fail = (message: string, cause?: unknown): DataLoadError => new DataLoadError(message, cause === undefined ? { file } : { file, cause });
  const noCopy = `no complete local copy of the Hub dataset ${repo} (revision ${revision}) in the Hugging Face cache ${cache}`;
  const otherWays =
    `download it where the Hub can be reached (\`huggingface-cli download ${repo} --repo-type dataset\`, or a yardstick run) into the cache ` +
    "(HF_HUB_CACHE or HF_HOME choose it), or point data.options.dir at a folder holding its files";
  if (settings.offline) throw fail(`${noCopy}, and HF_HUB_OFFLINE forbids downloading it: ${otherWays}`);

  const hub = (settings.endpoint ?? DEFAULT_HUB_ENDPOINT).replace(/\/+$/, "");
  const client = createHubClient(hub, settings.token, settings);
  const q: HubQuestion = { client, hub, repo, hasToken: Boolean(settings.token), fail, ...(ctx.signal ? { signal: ctx.signal } : {}) };
  try {
    let commit: string;
    try {
      commit = COMMIT_SHA.test(revision) ? revision : await askRevisionCommit({ ...q, revision });
    } catch (e) {
      const cause = (e as { cause?: unknown }).cause;
      if (DataLoadError.isInstance(e) && cause instanceof HubRequestFailed && cause.status === undefined) {
        throw fail(`${noCopy}, and the Hub at ${hub} cannot be reached to download it (${cause.message}): ${otherWays}`, e);
      }
      throw e;
    }
    const entries = await plan(q, commit, paths);
    for (const p of paths) {
      const link = inSnapshot(commit, p);
      if (await isFile(link)) continue;
      const entry = entries.get(p)!;
      const size = entry.lfs?.size ?? entry.size;
      const etag = entry.lfs?.oid ?? entry.oid;
      // The id names the blob file: only a git sha1 or a sha256 is taken.
      if (etag === undefined || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(etag)) {
        throw fail(`the Hub's file list gives ${p} no usable id (${etag ?? "none"}; expected a sha1 or sha256): cannot place it in the cache`);
      }
      const blob = path.join(repoDir, "blobs", etag);
      // Beside huggingface_hub's own locks, under another name (its are flock'd, never removed).
      const lock = path.join(cache, ".locks", path.basename(repoDir), `${etag}.yardstick.lock`);
      const download = (): Promise<void> =>
        downloadHubFile({
          url: `${hub}/datasets/${repo}/resolve/${commit}/${encodeRepoPath(p)}`,
          target: blob,
          // huggingface_hub's name for a partial blob: either tool resumes the other's download.
          partial: `${blob}.incomplete`,
          name: p,
          size,
          digest: entry.lfs ? { kind: "sha256", hex: entry.lfs.oid } : { kind: "git-blob", hex: etag },
          origin: `of the Hub dataset ${repo}`,
          token: settings.token,
          settings,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
          fail,
        });
      if ((await sizeOf(blob)) !== size) {
        await once(blob, () =>
          withFileLock(
            lock,
            async () => {
              // Another process may have fetched it while this one waited.
              if ((await sizeOf(blob)) === size) return;
              ctx.log?.(`huggingface: downloading ${p} (${size} bytes) of ${repo} at ${commit.slice(0, 12)}`);
              await download();
            },
            {
              ...(ctx.signal ? { signal: ctx.signal } : {}),
              onWait: (holder) => ctx.log?.(`huggingface: waiting for process ${holder}, which is downloading ${p} of ${repo} (lock ${lock})`),
            },
          ),
        );
      }
      await linkIntoSnapshot(link, blob);
    }
    if (!COMMIT_SHA.test(revision)) await writeAtomically(path.join(repoDir, "refs", revision), commit);
    return { files: paths.map((p) => inSnapshot(commit, p)), commit };
  } finally {
    await client.close();
  }
}

/** The Hub's entry for each path (listing each folder once); a clear error naming what the folder holds when one is missing. */
async function plan(q: HubQuestion, commit: string, paths: readonly string[]): Promise<Map<string, RepoTreeEntry>> {
  const folders = new Map<string, RepoTreeEntry[] | undefined>();
  const out = new Map<string, RepoTreeEntry>();
  for (const p of paths) {
    const dir = path.posix.dirname(p) === "." ? "" : path.posix.dirname(p);
    if (!folders.has(dir)) folders.set(dir, await listRepoFolder({ ...q, commit, dir }));
    const listing = folders.get(dir);
    const entry = listing?.find((e) => e.path === p && e.type === "file");
    if (entry === undefined) {
      const has = listing === undefined ? `it has no folder ${dir}` : `${dir || "its top folder"} holds: ${listing.map((e) => e.path).join(", ") || "(nothing)"}`;
      throw q.fail(`the Hub dataset ${q.repo} has no file ${p} at commit ${commit}; ${has}`);
    }
    out.set(p, entry);
  }
  return out;
}

/** A Hub dataset id option ("owner/name"): it becomes a URL path and a cache folder name. */
export const hubRepoId = z.string().regex(/^[\w.-]+(\/[\w.-]+)?$/, 'expected a dataset id such as "owner/name"');

/** `schema.parse(options)`, or a `ConfigError` naming the loader and the key (`data.options.<key>`). */
export function parseLoaderOptions<S extends z.ZodType>(loaderId: string, schema: S, options: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${loaderId} options: ${issue.message}`, { keyPath: ["data", "options", ...issue.path.map(String)] });
  }
  return parsed.data;
}
