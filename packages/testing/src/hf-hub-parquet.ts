/**
 * The parquet side of the Hugging Face stand-in (`startHubServer`): the files of a dataset's
 * parquet conversion branch (`refs/convert/parquet`, laid out as `<config>/<split>/0000.parquet`,
 * as the Hub's parquet converter writes them), served with the Hub's endpoints:
 *
 * - `GET /api/datasets/REPO/tree/REV[/PATH]` → `[{ type: "directory" | "file", oid, size, path,
 *   lfs?: { oid, size, pointerSize } }]` (one level, as the Hub's tree API without `recursive`);
 *   REV is `refs%2Fconvert%2Fparquet` (or unencoded) or the branch's commit sha; an unknown path is
 *   404 `EntryNotFound`, an unknown revision 404 `RevisionNotFound`.
 * - `GET /api/datasets/REPO/parquet[/CONFIG[/SPLIT]]` → `{ config: { split: [url] } }`,
 *   `{ split: [url] }` or `[url]`; each url `/api/datasets/REPO/parquet/CONFIG/SPLIT/N.parquet`
 *   redirects (302) to the file on the branch.
 * - `GET|HEAD /datasets/REPO/resolve/REV/PATH` → the file's bytes with `Accept-Ranges: bytes`,
 *   `ETag` (the sha256, as the Hub gives for LFS files), `X-Repo-Commit`; a `Range: bytes=A-B` /
 *   `bytes=A-` / `bytes=-N` header gives 206 with `Content-Range`, an unsatisfiable one 416.
 *
 * The tree and resolve answers serve any branch (`HubBranch`): the server also gives them the main
 * branch's ordinary files (`files` option), plain git files and LFS files as the Hub lists them.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** Parquet shards per split per config per dataset: `{ [repo]: { [config]: { [split]: files } } }`. */
export type HubParquetFiles = Record<string, Record<string, Record<string, Uint8Array[]>>>;

export const CONVERT_REF = "refs/convert/parquet";

/** A file of a branch: its bytes, sha256 and git blob id; `lfs` files are listed and served as the Hub serves LFS files. */
export interface ParquetEntry {
  path: string;
  bytes: Uint8Array;
  sha256: string;
  gitOid: string;
  lfs: boolean;
}

/** The files of one branch of a repo, and the spellings of its revision in a URL (name, encoded name, commit). */
export interface HubBranch {
  names: string[];
  sha: string;
  /** For messages: `"refs/convert/parquet"`, `"main"`. */
  label: string;
  entries: Map<string, ParquetEntry>;
}

/** A file entry with its digests. */
export function hubFileEntry(path: string, bytes: Uint8Array, lfs: boolean): ParquetEntry {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const gitOid = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
  return { path, bytes, sha256, gitOid, lfs };
}

/** The branch's files of one dataset, by path. */
export function parquetEntries(files: HubParquetFiles[string]): Map<string, ParquetEntry> {
  const out = new Map<string, ParquetEntry>();
  for (const [config, splits] of Object.entries(files)) {
    for (const [split, shards] of Object.entries(splits)) {
      shards.forEach((bytes, i) => {
        const path = `${config}/${split}/${String(i).padStart(4, "0")}.parquet`;
        out.set(path, hubFileEntry(path, bytes, true));
      });
    }
  }
  return out;
}

/** `{ start, end }` (end inclusive) of a single-range `Range` header, "unsatisfiable", or undefined when absent or not understood. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | "unsatisfiable" | undefined {
  if (header === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0) return "unsatisfiable";
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

export interface ParquetRequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  repo: string;
  /** The conversion branch's files (for the `/parquet` listing). */
  entries: Map<string, ParquetEntry>;
  convertSha: string;
  /** Every branch the tree and resolve endpoints serve. */
  branches: HubBranch[];
  baseUrl: string;
  send(status: number, body: unknown, headers?: Record<string, string>): number;
  sendError(status: number, code: string, message: string): number;
  /** A fault cutting the download after this many bytes of the body, if one applies. */
  cutAfter: number | undefined;
  /** Entries per tree page (the `treePageSize` option); all in one when undefined. */
  treePageSize?: number | undefined;
  onDownload(range: string | undefined): void;
}

function directoryOid(path: string): string {
  return createHash("sha1").update(`tree:${path}`).digest("hex");
}

/** The branch a tree/resolve path names (by name, URL-encoded name or commit) and the path after it; else the revision asked for. */
export function splitRevision(rest: string, branches: readonly HubBranch[]): { branch: HubBranch; path: string } | { branch: undefined; rev: string } {
  for (const branch of branches) {
    for (const prefix of branch.names) {
      if (rest === prefix || rest.startsWith(`${prefix}/`)) return { branch, path: rest.slice(prefix.length + 1) };
    }
  }
  const slash = rest.indexOf("/");
  return { branch: undefined, rev: decodeURIComponent(slash < 0 ? rest : rest.slice(0, slash)) };
}

export function answerTree(ctx: ParquetRequestContext, rest: string): number {
  const at = splitRevision(rest, ctx.branches);
  if (!at.branch) return ctx.sendError(404, "RevisionNotFound", `Invalid rev id: ${at.rev}`);
  const { branch } = at;
  const dir = decodeURIComponent(at.path).replace(/\/+$/, "");
  const file = branch.entries.get(dir);
  if (file) return ctx.send(200, [fileEntry(file)]);
  const prefix = dir === "" ? "" : `${dir}/`;
  const children = new Map<string, unknown>();
  for (const entry of branch.entries.values()) {
    if (!entry.path.startsWith(prefix)) continue;
    const rest2 = entry.path.slice(prefix.length);
    const slash = rest2.indexOf("/");
    if (slash < 0) children.set(entry.path, fileEntry(entry));
    else {
      const sub = `${prefix}${rest2.slice(0, slash)}`;
      children.set(sub, { type: "directory", oid: directoryOid(sub), size: 0, path: sub });
    }
  }
  if (children.size === 0 && dir !== "") return ctx.sendError(404, "EntryNotFound", `${dir} does not exist on "${branch.label}"`);
  const all = [...children.values()];
  if (ctx.treePageSize === undefined || all.length <= ctx.treePageSize) return ctx.send(200, all);
  // Pages as the Hub gives them: a `cursor` query parameter, the next page's URL in a `Link` header.
  const url = new URL(ctx.req.url ?? "/", ctx.baseUrl);
  const start = Number(url.searchParams.get("cursor") ?? "0") || 0;
  const end = start + ctx.treePageSize;
  url.searchParams.set("cursor", String(end));
  return ctx.send(200, all.slice(start, end), end < all.length ? { link: `<${url.href}>; rel="next"` } : {});
}

/** A tree entry: an LFS file's `oid` is its pointer file's blob id (here its content's, close enough), with `lfs` giving the content's sha256. */
function fileEntry(e: ParquetEntry): unknown {
  const base = { type: "file", oid: e.gitOid, size: e.bytes.length, path: e.path };
  return e.lfs ? { ...base, lfs: { oid: e.sha256, size: e.bytes.length, pointerSize: 134 } } : base;
}

/** `/api/datasets/REPO/parquet[/CONFIG[/SPLIT[/N.parquet]]]`; `rest` is what follows `/parquet`. */
export function answerParquetList(ctx: ParquetRequestContext, rest: string): number {
  const parts = rest.split("/").filter((p) => p !== "").map(decodeURIComponent);
  const byConfig: Record<string, Record<string, string[]>> = {};
  for (const entry of ctx.entries.values()) {
    const [config, split] = entry.path.split("/") as [string, string];
    const list = ((byConfig[config] ??= {})[split] ??= []);
    list.push(`${ctx.baseUrl}/api/datasets/${ctx.repo}/parquet/${encodeURIComponent(config)}/${encodeURIComponent(split)}/${list.length}.parquet`);
  }
  if (parts.length === 0) return ctx.send(200, byConfig);
  const config = byConfig[parts[0]!];
  if (!config) return ctx.sendError(404, "ResponseNotFound", "Not found.");
  if (parts.length === 1) return ctx.send(200, config);
  const urls = config[parts[1]!];
  if (!urls) return ctx.sendError(404, "ResponseNotFound", "Not found.");
  if (parts.length === 2) return ctx.send(200, urls);
  const n = /^(\d+)\.parquet$/.exec(parts[2] ?? "");
  const path = n ? `${parts[0]}/${parts[1]}/${n[1]!.padStart(4, "0")}.parquet` : "";
  if (!ctx.entries.has(path)) return ctx.sendError(404, "EntryNotFound", "Not found.");
  ctx.res.writeHead(302, { location: `${ctx.baseUrl}/datasets/${ctx.repo}/resolve/${encodeURIComponent(CONVERT_REF)}/${path}` });
  ctx.res.end();
  return 302;
}

/** `/datasets/REPO/resolve/REV/PATH`, with range requests. */
export function answerResolve(ctx: ParquetRequestContext, rest: string): number {
  const at = splitRevision(rest, ctx.branches);
  if (!at.branch) return ctx.sendError(404, "RevisionNotFound", `Invalid rev id: ${at.rev}`);
  const { branch, path } = at;
  const entry = branch.entries.get(decodeURIComponent(path));
  if (!entry) return ctx.sendError(404, "EntryNotFound", `${path} does not exist on "${branch.label}"`);
  const size = entry.bytes.length;
  const rangeHeader = ctx.req.headers.range;
  ctx.onDownload(rangeHeader);
  const range = parseRange(rangeHeader, size);
  // As the Hub: an LFS file's ETag is its sha256 (with X-Linked-Etag/-Size), a plain git file's its blob id.
  const headers: Record<string, string> = {
    "accept-ranges": "bytes",
    etag: `"${entry.lfs ? entry.sha256 : entry.gitOid}"`,
    ...(entry.lfs ? { "x-linked-etag": `"${entry.sha256}"`, "x-linked-size": String(size) } : {}),
    "x-repo-commit": branch.sha,
    "content-type": "application/octet-stream",
  };
  if (range === "unsatisfiable") {
    ctx.res.writeHead(416, { ...headers, "content-range": `bytes */${size}`, "content-length": "0" });
    ctx.res.end();
    return 416;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  const status = range ? 206 : 200;
  const body = entry.bytes.subarray(start, end + 1);
  ctx.res.writeHead(status, {
    ...headers,
    "content-length": String(body.length),
    ...(range ? { "content-range": `bytes ${start}-${end}/${size}` } : {}),
  });
  if (ctx.req.method === "HEAD") {
    ctx.res.end();
    return status;
  }
  if (ctx.cutAfter !== undefined && ctx.cutAfter < body.length) {
    // An interrupted download: part of the body, then the connection drops.
    // The pause lets the client read the bytes before the drop, as over a real network (long enough on a busy machine).
    ctx.res.write(body.subarray(0, ctx.cutAfter), () => setTimeout(() => ctx.res.socket?.destroy(), 100));
    return status;
  }
  ctx.res.end(body);
  return status;
}
