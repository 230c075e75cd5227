/**
 * Rows of a Hugging Face dataset read from the Hub's parquet conversion (the `refs/convert/parquet`
 * branch: `<config>/<split>/NNNN.parquet`, or `<config>/partial-<split>/...` for a split the
 * converter cut short). The branch is listed with the Hub's tree API at its commit, each file is
 * downloaded with resumable range requests (`hub-download.ts`), checked (size, LFS sha256, parquet footer) and only
 * then kept, and rows are read with hyparquet one row group at a time. With a cache directory the
 * files live under the dataset commit they belong to; without one in a temporary directory removed
 * after the load.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigError, type DataLoadError } from "@yardstick/core";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { z } from "zod";
import { CACHE_FORMAT, cachePart, readCached, writeCached } from "./huggingface-cache.js";
import type { HubClient, HubClientSettings } from "./huggingface-client.js";
import { summariseBody } from "./huggingface-client.js";
import { downloadHubFile, encodeRepoPath, sizeOf } from "./hub-download.js";
import { imageStructToUri, isImageStruct } from "./images.js";

export const PARQUET_BRANCH = "refs/convert/parquet";

const treeEntrySchema = z.looseObject({
  type: z.enum(["file", "directory"]),
  path: z.string(),
  size: z.number().nonnegative(),
  lfs: z.looseObject({ oid: z.string(), size: z.number() }).optional(),
});
const treeSchema = z.array(treeEntrySchema);
type TreeEntry = z.output<typeof treeSchema>[number];

const shardSchema = z.object({ path: z.string(), size: z.number().nonnegative(), sha256: z.string().optional() });
const manifestSchema = z.object({
  format: z.literal(CACHE_FORMAT),
  config: z.string(),
  split: z.string(),
  branchSha: z.string(),
  shards: z.array(shardSchema),
});
export type ParquetManifest = z.output<typeof manifestSchema>;

export interface ParquetSplitRequest {
  repo: string;
  /** Undefined: the only config, else "default". */
  config: string | undefined;
  split: string;
  /** The dataset commit the load reads (the fingerprint's sha): the cache key. */
  datasetSha: string;
  hub: string;
  token: string | undefined;
  cacheDir: string | undefined;
  settings: HubClientSettings;
  client: HubClient;
  signal?: AbortSignal;
  log?: (message: string) => void;
  fail(message: string, cause?: unknown): DataLoadError;
  /** Lists what exists for a "not found" message: `config (split, ...); ...`. */
  describe(entries: { config: string; split: string }[]): string;
}

/** Records that the dataset at a commit has no parquet branch, so re-runs go to the viewer without asking again. */
function noBranchFile(cacheDir: string, repo: string, sha: string): string {
  return path.join(cacheDir, cachePart(repo), cachePart(sha), "parquet", "no-parquet-branch.json");
}

function manifestFile(cacheDir: string, repo: string, sha: string, config: string | undefined, split: string): string {
  return path.join(cacheDir, cachePart(repo), cachePart(sha), "parquet", cachePart(config ?? "(only)"), cachePart(split), "manifest.json");
}

/**
 * The split's shards on the conversion branch: from the cache's manifest, or listed on the Hub.
 * Undefined when the dataset has no parquet conversion (the caller falls back to the viewer API).
 */
export async function planParquetSplit(req: ParquetSplitRequest): Promise<ParquetManifest | undefined> {
  const cacheFile = req.cacheDir ? manifestFile(req.cacheDir, req.repo, req.datasetSha, req.config, req.split) : undefined;
  if (cacheFile) {
    const cached = manifestSchema.safeParse(await readCached(cacheFile));
    if (cached.success) return cached.data;
    if ((await readCached(noBranchFile(req.cacheDir!, req.repo, req.datasetSha))) !== undefined) return undefined;
  }
  const tryWrite = async (file: string, value: unknown): Promise<void> => {
    try {
      await writeCached(file, value);
    } catch (e) {
      req.log?.(`huggingface: could not write the cache file ${file}: ${(e as Error).message}`);
    }
  };
  const getJson = async (what: string, p: string): Promise<{ status: number; body: unknown; code: string | undefined }> => {
    const res = await req.client.get(p, req.signal);
    const code = res.headers["x-error-code"];
    const errorCode = Array.isArray(code) ? code[0] : code;
    if (res.status === 401 || res.status === 403) {
      throw req.fail(`the Hub refused ${what} (${res.status}${summariseBody(res.text)}); set HF_TOKEN to a token that can read the dataset`);
    }
    if (res.status !== 200) return { status: res.status, body: undefined, code: errorCode };
    try {
      return { status: 200, body: JSON.parse(res.text), code: errorCode };
    } catch (e) {
      throw req.fail(`malformed JSON in the Hub's ${what} from ${req.hub}: ${(e as Error).message}`, e);
    }
  };
  const branch = encodeURIComponent(PARQUET_BRANCH);
  const info = await getJson("parquet branch info", `/api/datasets/${req.repo}/revision/${branch}`);
  if (info.status === 404 && info.code === "RevisionNotFound") {
    if (req.cacheDir) await tryWrite(noBranchFile(req.cacheDir, req.repo, req.datasetSha), { format: CACHE_FORMAT });
    return undefined;
  }
  if (info.status !== 200) throw req.fail(`the Hub answered ${info.status} for the parquet branch of the dataset`);
  const branchSha = z.looseObject({ sha: z.string().regex(/^[0-9a-f]{40}$/) }).safeParse(info.body);
  if (!branchSha.success) throw req.fail(`unexpected parquet branch info from the Hub at ${req.hub}: no commit sha`);
  const sha = branchSha.data.sha;
  // The converter rewrites the branch after each commit to main: its files are those of main's head.
  const head = await getJson("dataset info", `/api/datasets/${req.repo}/revision/main`);
  const headSha = (head.body as { sha?: unknown } | undefined)?.sha;
  if (head.status === 200 && headSha !== req.datasetSha) {
    throw req.fail(
      `the Hub's parquet files are those of the dataset's latest commit ${String(headSha)}, not of ${req.datasetSha} (the pinned revision, or the commit this cache recorded for "main"); they are not in the cache${req.cacheDir ? ` (${path.join(req.cacheDir, cachePart(req.repo))})` : ""}. Pin "revision" to ${String(headSha)}, or delete the dataset's folder in the cache to move to it`,
    );
  }

  const tree = async (dir: string): Promise<TreeEntry[] | undefined> => {
    const r = await getJson(`file list of ${dir || "the parquet branch"}`, `/api/datasets/${req.repo}/tree/${sha}${dir ? `/${encodeRepoPath(dir)}` : ""}`);
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw req.fail(`the Hub answered ${r.status} for the file list of ${dir || "the parquet branch"}`);
    const checked = treeSchema.safeParse(r.body);
    if (!checked.success) throw req.fail(`unexpected file list from the Hub's tree API at ${req.hub}: ${checked.error.issues[0]!.message}`);
    return checked.data;
  };
  const dirs = (entries: TreeEntry[] | undefined): string[] =>
    (entries ?? []).filter((e) => e.type === "directory").map((e) => path.posix.basename(e.path));
  const whatExists = async (): Promise<string> => {
    const found: { config: string; split: string }[] = [];
    for (const c of dirs(await tree(""))) for (const s of dirs(await tree(c))) found.push({ config: c, split: s });
    return req.describe(found);
  };

  let config = req.config;
  if (config === undefined) {
    const configs = dirs(await tree(""));
    if (configs.length === 1) config = configs[0]!;
    else if (configs.includes("default")) config = "default";
    else {
      throw new ConfigError(`huggingface options: ${req.repo} has several configs; choose one with "name": ${await whatExists()}`, {
        keyPath: ["data", "options", "name"],
      });
    }
  }
  const splits = await tree(config);
  if (splits === undefined) throw req.fail(`config "${config}" not found; the dataset has: ${await whatExists()}`);
  let splitDir = dirs(splits).find((s) => s === req.split);
  if (splitDir === undefined && dirs(splits).includes(`partial-${req.split}`)) {
    splitDir = `partial-${req.split}`;
    req.log?.(`huggingface: ${req.repo} config "${config}": the Hub converted only the first part of split "${req.split}" to parquet (${splitDir})`);
  }
  if (splitDir === undefined) {
    throw req.fail(`split "${req.split}" not found in config "${config}"; it has: ${dirs(splits).join(", ") || "(none)"} (whole dataset: ${await whatExists()})`);
  }
  const files = ((await tree(`${config}/${splitDir}`)) ?? [])
    .filter((e) => e.type === "file" && e.path.endsWith(".parquet"))
    .sort((a, b) => a.path.localeCompare(b.path));
  if (files.length === 0) throw req.fail(`config "${config}", split "${req.split}": the parquet branch has no parquet files for it`);
  const manifest: ParquetManifest = {
    format: CACHE_FORMAT,
    config,
    split: req.split,
    branchSha: sha,
    shards: files.map((f) => ({ path: f.path, size: f.lfs?.size ?? f.size, ...(f.lfs ? { sha256: f.lfs.oid } : {}) })),
  };
  if (cacheFile) await tryWrite(cacheFile, manifest);
  return manifest;
}

/** Throws when `file` is not a whole parquet file (magic bytes at both ends, a readable footer). */
async function checkParquet(file: string): Promise<void> {
  const buffer = await asyncBufferFromFile(file);
  const magic = (bytes: ArrayBuffer): boolean => Buffer.from(bytes).toString("latin1") === "PAR1";
  if (buffer.byteLength < 12 || !magic(await buffer.slice(0, 4)) || !magic(await buffer.slice(buffer.byteLength - 4))) {
    throw new Error("no PAR1 magic bytes at its start and end: not a parquet file, or a truncated one");
  }
  await parquetMetadataAsync(buffer);
}

/** A parquet value as a JSON-safe row value: bigints as numbers (or strings past 2^53), image structs as URIs. */
function toJsonValue(value: unknown, where: { file: string; line: number; column: string }): unknown {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
  if (isImageStruct(value)) return imageStructToUri(value, where);
  if (Array.isArray(value)) return value.map((v) => toJsonValue(v, where));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonValue(v, where)]));
  }
  return value;
}

export interface ParquetRow {
  /** 0-based index in the split (across shards). */
  index: number;
  row: Record<string, unknown>;
}

/**
 * The split's rows, one row group in memory at a time. Shards are downloaded when reading reaches
 * them (so `limit` downloads only what it reads); cached shards need no request.
 */
export async function* readParquetSplit(req: ParquetSplitRequest, manifest: ParquetManifest): AsyncGenerator<ParquetRow> {
  const scratch = req.cacheDir ? undefined : await mkdtemp(path.join(tmpdir(), "yardstick-hf-"));
  const dir = req.cacheDir
    ? path.dirname(manifestFile(req.cacheDir, req.repo, req.datasetSha, req.config, req.split))
    : (scratch as string);
  try {
    let index = 0;
    for (const shard of manifest.shards) {
      // Shards of one split share a folder: the file name alone (`0000.parquet`) is unique there.
      const target = path.join(dir, path.posix.basename(shard.path));
      if ((await sizeOf(target)) !== shard.size) {
        await downloadHubFile({
          url: `${req.hub}/datasets/${req.repo}/resolve/${manifest.branchSha}/${encodeRepoPath(shard.path)}`,
          target,
          name: shard.path,
          size: shard.size,
          ...(shard.sha256 ? { digest: { kind: "sha256" as const, hex: shard.sha256 } } : {}),
          check: { what: "a readable parquet file", run: checkParquet },
          origin: "from the Hub's parquet branch",
          token: req.token,
          settings: req.settings,
          ...(req.signal ? { signal: req.signal } : {}),
          fail: req.fail,
        });
      }
      const file = await asyncBufferFromFile(target);
      let metadata: Awaited<ReturnType<typeof parquetMetadataAsync>>;
      try {
        metadata = await parquetMetadataAsync(file);
      } catch (e) {
        await rm(target, { force: true });
        throw req.fail(`the cached ${target} is not a readable parquet file (${(e as Error).message}); it was deleted, run again`, e);
      }
      let start = 0;
      for (const group of metadata.row_groups) {
        // Cached shards need no request, so the signal is checked here too.
        req.signal?.throwIfAborted();
        const end = start + Number(group.num_rows);
        // utf8: false keeps binary columns (image bytes) as bytes; annotated strings stay strings.
        const rows = await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: end, utf8: false });
        for (const raw of rows) {
          const where = { file: `hf://datasets/${req.repo}/${shard.path}`, line: index };
          const row: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(raw)) row[k] = toJsonValue(v, { ...where, column: k });
          yield { index, row };
          index++;
        }
        start = end;
      }
    }
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}
