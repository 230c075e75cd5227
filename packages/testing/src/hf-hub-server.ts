/**
 * A local stand-in for the Hugging Face dataset viewer API (datasets-server), for tests: nothing
 * reaches the internet. It implements the two endpoints the `huggingface` dataloader uses, with the
 * shapes and status codes of the real service (huggingface/dataset-viewer, libapi):
 *
 * - `GET /splits?dataset=REPO` → `{ splits: [{ dataset, config, split }], pending: [], failed: [] }`
 * - `GET /rows?dataset=REPO&config=C&split=S&offset=O&length=L` →
 *   `{ features: [{ feature_idx, name, type }], rows: [{ row_idx, row, truncated_cells }],
 *   num_rows_total, num_rows_per_page: 100, partial: false }`; `length` defaults to 100 and may not
 *   exceed it; an offset past the end gives `rows: []`.
 *
 * Errors are `{ "error": message }` with an `X-Error-Code` header, as upstream: a missing
 * parameter is 422 `MissingRequiredParameter`, a bad offset/length 422 `InvalidParameter`, an
 * unknown config or split 404 `ResponseNotFound`. When `token` is set every dataset is private:
 * no `Authorization` header gives 401 `ExternalUnauthenticatedError`, a wrong token 404
 * `ExternalAuthenticatedError` (upstream hides whether the dataset exists). An unknown dataset is
 * the same 401/404 pair, whether or not `token` is set. Successful responses carry `X-Revision`
 * (a stable fake commit sha per dataset, or the one given in `revisions`).
 *
 * It also serves the Hub API's dataset info (huggingface.co, `HfApi.dataset_info`), which the
 * dataloader's fingerprint asks for the commit a revision points to:
 *
 * - `GET /api/datasets/REPO` and `GET /api/datasets/REPO/revision/REV` (REV URL-encoded, as
 *   huggingface_hub quotes it) → `{ _id, id, author, sha, lastModified, private, gated, disabled,
 *   downloads, likes, tags, cardData, siblings: [{ rfilename }], createdAt }`, `sha` being the
 *   dataset's commit (the same as `X-Revision`). REV may be "main" or that sha; any other is 404
 *   `RevisionNotFound` (`{ "error": "Invalid rev id: REV" }`). An unknown or (with `token`) private
 *   dataset is 401 `RepoNotFound` without an Authorization header and 404 `RepoNotFound` with a
 *   wrong one, as the Hub answers. With `parquet` files, REV may also be `refs/convert/parquet` (or
 *   that branch's commit sha), whose `sha` is the conversion branch's commit.
 *
 * And the parquet conversion branch of a dataset, its tree, the `/parquet` listing and file
 * downloads with range requests: see `hf-hub-parquet.ts`. The same tree and resolve endpoints serve
 * a repository's ordinary files (`files`) on its main branch, at `main` or the main commit, as
 * `snapshot_download` fetches them: `GET /api/datasets/REPO/tree/main[/DIR]` and
 * `GET|HEAD /datasets/REPO/resolve/<commit>/PATH` (ranges, ETag, `X-Repo-Commit`).
 */
import { createHash } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  answerParquetList,
  answerResolve,
  answerTree,
  CONVERT_REF,
  type HubBranch,
  type HubParquetFiles,
  hubFileEntry,
  type ParquetEntry,
  type ParquetRequestContext,
  parquetEntries,
} from "./hf-hub-parquet.js";

export { CONVERT_REF, type HubParquetFiles } from "./hf-hub-parquet.js";

/**
 * A file of a dataset repository's main branch: its content (a string is UTF-8), served as a plain
 * git file, or `{ bytes, lfs: true }` served as an LFS file (as `.gitattributes` makes `*.zip`,
 * `*.parquet`, large `*.jsonl` on the Hub): the tree lists its sha256 under `lfs`, its ETag is that sha256.
 */
export type HubRepoFile = string | Uint8Array | { bytes: string | Uint8Array; lfs?: boolean };

/** The main branch's files of each dataset repository, by path: `{ [repo]: { [path]: file } }`. */
export type HubRepoFiles = Record<string, Record<string, HubRepoFile>>;

/** Rows of each split of each config of each dataset: `{ [repo]: { [config]: { [split]: rows } } }`. */
export type HubDatasets = Record<string, Record<string, Record<string, Record<string, unknown>[]>>>;

/**
 * A fault served instead of the normal answer to the first `times` matching requests (default 1).
 * `status`: that HTTP status with an upstream-style error body (and `Retry-After` when given);
 * `reset`: the connection is destroyed before any response; `malformed`: a 200 with a body that is
 * not JSON; `cut`: a file download (`/datasets/REPO/resolve/...`) sends its headers and the first
 * `bytes` bytes of the body, then the connection drops (an interrupted download).
 */
export interface HubFault {
  kind: "status" | "reset" | "malformed" | "cut";
  /** For `cut`: body bytes sent before the connection drops (default 0). */
  bytes?: number;
  status?: number;
  times?: number;
  /** Only requests to this path ("/rows", "/splits", or a path prefix ending in "/"); default any. */
  path?: string;
  /** Only `/rows` requests with this offset. */
  offset?: number;
  /** Seconds, sent as `Retry-After` with a `status` fault. */
  retryAfter?: number;
}

/**
 * Marks cells of one row truncated, as the viewer does when a page would be too big: the cell's
 * value becomes the first `keepChars` (default 10) characters of its JSON and its name is listed
 * in `truncated_cells`.
 */
export interface HubTruncation {
  repo: string;
  config?: string;
  split?: string;
  /** 0-based row index in the split. */
  row: number;
  cells: string[];
  keepChars?: number;
}

export interface HubServerOptions {
  /** Default 0 (an ephemeral port). The server listens on 127.0.0.1. */
  port?: number;
  datasets: HubDatasets;
  /** When set, requests need `Authorization: Bearer <token>` (see the module comment). */
  token?: string;
  faults?: HubFault[];
  truncate?: HubTruncation[];
  /** `X-Revision` per repo (the main branch's commit); default a sha1 of the repo's rows and parquet files. */
  revisions?: Record<string, string>;
  /**
   * Parquet files of each dataset's conversion branch (`refs/convert/parquet`), served by the Hub
   * endpoints of `hf-hub-parquet.ts`. A repo listed only here is known to the Hub API but has no
   * rows in the viewer; a repo without parquet files has no conversion branch (404 `RevisionNotFound`).
   */
  parquet?: HubParquetFiles;
  /**
   * Ordinary files of each repository's main branch (what `snapshot_download` fetches), served by
   * the tree and resolve endpoints at `main` or the main commit, and listed in `siblings`. A repo
   * listed only here is known to the Hub API.
   */
  files?: HubRepoFiles;
  /** Tree listings longer than this come in pages (`?cursor=`, `Link: <next>; rel="next"`), as the Hub pages long folders. */
  treePageSize?: number;
}

export interface HubServerRequestLog {
  path: string;
  query: Record<string, string>;
  status: number;
  /** Whether an Authorization header was sent (its value is never recorded). */
  authorized: boolean;
  /** The `Range` header of a file download, when one was sent. */
  range?: string;
}

export interface HubServerStats {
  /** Every request, whatever its path and outcome. */
  requests: number;
  /** Requests to `/rows`. */
  rows: number;
  /** Requests to `/splits`. */
  splits: number;
  /** Requests to the Hub API (`/api/datasets/...`). */
  api: number;
  /** Faults served. */
  faults: number;
  /** Requests answered 401. */
  unauthorized: number;
  /** File downloads (`/datasets/REPO/resolve/...` GETs that found a file). */
  downloads: number;
  log: HubServerRequestLog[];
}

export interface HubServer {
  /** e.g. `http://127.0.0.1:41234`: the dataloader's `endpoint`. */
  readonly url: string;
  readonly port: number;
  stats(): HubServerStats;
  resetStats(): void;
  close(): Promise<void>;
}

const MAX_ROWS = 100;
const API_PREFIX = "/api/datasets/";

const UNAUTHENTICATED =
  "The dataset does not exist, or is not accessible without authentication (private or gated). Please check the spelling of the dataset name or retry with authentication.";
const AUTHENTICATED =
  "The dataset does not exist, or is not accessible with the current credentials (private or gated). Please check the spelling of the dataset name or retry with other authentication credentials.";

/** The viewer's feature type of a value, roughly as `datasets` would infer it. */
function featureType(value: unknown): Record<string, unknown> {
  if (typeof value === "string") return { dtype: "string", _type: "Value" };
  if (typeof value === "boolean") return { dtype: "bool", _type: "Value" };
  if (typeof value === "number") return { dtype: Number.isInteger(value) ? "int64" : "float64", _type: "Value" };
  if (Array.isArray(value)) return { feature: featureType(value[0]), _type: "List" };
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, featureType(v)]));
  }
  return { dtype: "null", _type: "Value" };
}

function features(rows: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const first = rows[0] ?? {};
  return Object.entries(first).map(([name, value], i) => ({ feature_idx: i, name, type: featureType(value) }));
}

/** Like Python's `int()` on a query parameter: optional sign, digits, surrounding spaces. */
function parseInteger(text: string): number | undefined {
  return /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : undefined;
}

export async function startHubServer(options: HubServerOptions): Promise<HubServer> {
  const datasets = options.datasets;
  const faults = (options.faults ?? []).map((f) => ({ ...f, left: f.times ?? 1 }));
  const revisions = new Map<string, string>();
  const parquet = options.parquet ?? {};
  // Read on every request, like `datasets`: a test that changes the files makes a new commit.
  const entriesOf = (repo: string): Map<string, ParquetEntry> => parquetEntries(parquet[repo] ?? {});
  const repoFiles = options.files ?? {};
  const mainEntriesOf = (repo: string): Map<string, ParquetEntry> => {
    const out = new Map<string, ParquetEntry>();
    for (const [p, f] of Object.entries(repoFiles[repo] ?? {})) {
      const { bytes, lfs } = typeof f === "string" || f instanceof Uint8Array ? { bytes: f, lfs: false } : { bytes: f.bytes, lfs: f.lfs ?? false };
      out.set(p, hubFileEntry(p, typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes, lfs));
    }
    return out;
  };
  const isKnown = (repo: string): boolean => Object.hasOwn(datasets, repo) || Object.hasOwn(parquet, repo) || Object.hasOwn(repoFiles, repo);
  const hasParquet = (repo: string): boolean => entriesOf(repo).size > 0;
  const revisionOf = (repo: string): string => {
    let r = options.revisions?.[repo] ?? revisions.get(repo);
    if (r === undefined) {
      const hash = createHash("sha1").update(JSON.stringify(datasets[repo] ?? {}));
      for (const e of entriesOf(repo).values()) hash.update(`${e.path}:${e.sha256}`);
      for (const e of mainEntriesOf(repo).values()) hash.update(`main:${e.path}:${e.sha256}`);
      r = hash.digest("hex");
      revisions.set(repo, r);
    }
    return r;
  };
  /** The conversion branch's commit: follows the main branch's commit, as the converter pushes after each one. */
  const convertShaOf = (repo: string): string => createHash("sha1").update(`${CONVERT_REF}:${revisionOf(repo)}`).digest("hex");
  /** The branches the tree and resolve endpoints serve: the conversion branch (when it has files) and main. */
  const branchesOf = (repo: string): HubBranch[] => {
    const out: HubBranch[] = [];
    if (hasParquet(repo)) {
      const sha = convertShaOf(repo);
      out.push({ names: [encodeURIComponent(CONVERT_REF), CONVERT_REF, sha], sha, label: CONVERT_REF, entries: entriesOf(repo) });
    }
    const sha = revisionOf(repo);
    out.push({ names: ["main", sha], sha, label: "main", entries: mainEntriesOf(repo) });
    return out;
  };
  const emptyStats = (): HubServerStats => ({ requests: 0, rows: 0, splits: 0, api: 0, faults: 0, unauthorized: 0, downloads: 0, log: [] });
  let stats: HubServerStats = emptyStats();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(text)),
      "cache-control": status === 200 ? "max-age=120" : "no-store",
      ...headers,
    });
    res.end(text);
    return status;
  };
  const sendError = (res: ServerResponse, status: number, code: string, message: string): number =>
    send(res, status, { error: message }, { "x-error-code": code });

  const server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const authHeader = req.headers.authorization;
    stats.requests++;
    if (path === "/rows") stats.rows++;
    else if (path === "/splits") stats.splits++;
    else if (path.startsWith(API_PREFIX)) stats.api++;
    const range = req.headers.range;
    const status = answer();
    stats.log.push({ path, query, status, authorized: authHeader !== undefined, ...(range !== undefined ? { range } : {}) });
    if (status === 401) stats.unauthorized++;

    function answer(): number {
      const isResolve = path.startsWith("/datasets/") && path.includes("/resolve/");
      if (req.method !== "GET" && !(req.method === "HEAD" && isResolve)) return sendError(res, 405, "MethodNotAllowed", `${req.method} not allowed`);
      const fault = faults.find(
        (f) =>
          f.left > 0 &&
          (f.path === undefined || f.path === path || (f.path.endsWith("/") && path.startsWith(f.path))) &&
          (f.offset === undefined || String(f.offset) === (query.offset ?? "0")) &&
          (f.kind !== "cut" || isResolve),
      );
      if (fault?.kind === "cut") {
        fault.left--;
        stats.faults++;
        return answerHubFile(path.slice("/datasets/".length), fault.bytes ?? 0);
      }
      if (fault) {
        fault.left--;
        stats.faults++;
        if (fault.kind === "reset") {
          res.socket?.destroy();
          return 0;
        }
        if (fault.kind === "malformed") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end('{"features": [], "rows": [');
          return 200;
        }
        const s = fault.status ?? 503;
        const headers: Record<string, string> = { "x-error-code": s === 429 ? "TooManyRequests" : "UnexpectedApiError" };
        if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
        return send(res, s, { error: s === 429 ? "Too many requests." : "Unexpected error." }, headers);
      }
      if (isResolve) return answerHubFile(path.slice("/datasets/".length), undefined);
      if (path.startsWith(API_PREFIX)) {
        const rest = path.slice(API_PREFIX.length);
        for (const [marker, handler] of [
          ["/tree/", answerTree],
          ["/parquet", answerParquetList],
        ] as const) {
          const at = rest.indexOf(marker);
          if (at >= 0 && (marker !== "/parquet" || rest.length === at + marker.length || rest[at + marker.length] === "/")) {
            return withParquetRepo(rest.slice(0, at), (ctx) => handler(ctx, rest.slice(at + marker.length)));
          }
        }
        return answerDatasetInfo(rest);
      }
      if (path !== "/rows" && path !== "/splits") return sendError(res, 404, "NotFound", "Not Found");

      const dataset = query.dataset;
      if (path === "/splits" && (dataset === undefined || dataset.trim() === "")) {
        return sendError(res, 422, "MissingRequiredParameter", "Parameter 'dataset' is required");
      }
      let offset = 0;
      let length = MAX_ROWS;
      if (path === "/rows") {
        const { config, split } = query;
        if (!dataset?.trim() || !config?.trim() || !split?.trim()) {
          return sendError(res, 422, "MissingRequiredParameter", "Parameter 'dataset', 'config' and 'split' are required");
        }
        if (query.offset !== undefined) {
          const o = parseInteger(query.offset);
          if (o === undefined) return sendError(res, 422, "InvalidParameter", "Parameter 'offset' must be integer");
          if (o < 0) return sendError(res, 422, "InvalidParameter", "Parameter 'offset' must be positive");
          offset = o;
        }
        if (query.length !== undefined) {
          const l = parseInteger(query.length);
          if (l === undefined) return sendError(res, 422, "InvalidParameter", "Parameter 'length' must be integer");
          if (l < 0) return sendError(res, 422, "InvalidParameter", "Parameter 'length' must be positive");
          if (l > MAX_ROWS) return sendError(res, 422, "InvalidParameter", `Parameter 'length' must not be greater than ${MAX_ROWS}`);
          length = l;
        }
      }

      // Authentication, as the viewer's auth check against the Hub does it.
      const repo = dataset as string;
      const known = Object.hasOwn(datasets, repo);

      const tokenOk = options.token === undefined || authHeader === `Bearer ${options.token}`;
      if (!known || !tokenOk) {
        if (authHeader === undefined) return sendError(res, 401, "ExternalUnauthenticatedError", UNAUTHENTICATED);
        return sendError(res, 404, "ExternalAuthenticatedError", AUTHENTICATED);
      }
      const configs = datasets[repo]!;
      const revision = { "x-revision": revisionOf(repo) };

      if (path === "/splits") {
        const splits = Object.entries(configs).flatMap(([config, s]) => Object.keys(s).map((split) => ({ dataset: repo, config, split })));
        return send(res, 200, { splits, pending: [], failed: [] }, revision);
      }

      const config = query.config as string;
      const split = query.split as string;
      const rows = Object.hasOwn(configs, config) && Object.hasOwn(configs[config]!, split) ? configs[config]![split]! : undefined;
      if (rows === undefined) return sendError(res, 404, "ResponseNotFound", "Not found.");
      const page = rows.slice(offset, offset + length).map((row, i) => {
        const rowIdx = offset + i;
        const truncated = (options.truncate ?? []).filter(
          (t) => t.repo === repo && (t.config ?? config) === config && (t.split ?? split) === split && t.row === rowIdx,
        );
        const out: Record<string, unknown> = { ...row };
        const cells: string[] = [];
        for (const t of truncated) {
          for (const cell of t.cells) {
            if (!Object.hasOwn(out, cell) || cells.includes(cell)) continue;
            out[cell] = JSON.stringify(out[cell]).slice(0, t.keepChars ?? 10);
            cells.push(cell);
          }
        }
        return { row_idx: rowIdx, row: out, truncated_cells: cells };
      });
      return send(
        res,
        200,
        { features: features(rows), rows: page, num_rows_total: rows.length, num_rows_per_page: MAX_ROWS, partial: false },
        revision,
      );
    }

    /** Runs `handler` for a known, readable repo (else the Hub's 401/404 `RepoNotFound`). */
    function withParquetRepo(repo: string, handler: (ctx: ParquetRequestContext) => number, cutAfter?: number): number {
      const tokenOk = options.token === undefined || authHeader === `Bearer ${options.token}`;
      if (!isKnown(repo) || !tokenOk) return sendError(res, authHeader === undefined ? 401 : 404, "RepoNotFound", "Repository not found");
      return handler({
        req,
        res,
        repo,
        entries: entriesOf(repo),
        convertSha: convertShaOf(repo),
        branches: branchesOf(repo),
        baseUrl: `http://${req.headers.host ?? "127.0.0.1"}`,
        send: (status, body, headers) => send(res, status, body, headers),
        sendError: (status, code, message) => sendError(res, status, code, message),
        cutAfter,
        treePageSize: options.treePageSize,
        onDownload: () => {
          stats.downloads++;
        },
      });
    }

    /** `/datasets/REPO/resolve/REV/PATH`: REPO is one or two path segments, found by the `/resolve/` marker. */
    function answerHubFile(rest: string, cutAfter: number | undefined): number {
      const at = rest.indexOf("/resolve/");
      return withParquetRepo(rest.slice(0, at), (ctx) => answerResolve(ctx, rest.slice(at + "/resolve/".length)), cutAfter);
    }

    /** `HfApi.dataset_info`: `rest` is `REPO` or `REPO/revision/REV` (REV URL-encoded). */
    function answerDatasetInfo(rest: string): number {
      const at = rest.indexOf("/revision/");
      const repo = at < 0 ? rest : rest.slice(0, at);
      let rev = "main";
      if (at >= 0) {
        try {
          rev = decodeURIComponent(rest.slice(at + "/revision/".length));
        } catch {
          return sendError(res, 400, "BadRequest", "Invalid revision");
        }
      }
      const tokenOk = options.token === undefined || authHeader === `Bearer ${options.token}`;
      if (!isKnown(repo) || !tokenOk) {
        return sendError(res, authHeader === undefined ? 401 : 404, "RepoNotFound", "Repository not found");
      }
      const onConvertBranch = hasParquet(repo) && (rev === CONVERT_REF || rev === convertShaOf(repo));
      const sha = onConvertBranch ? convertShaOf(repo) : revisionOf(repo);
      if (!onConvertBranch && rev !== "main" && rev !== sha) return sendError(res, 404, "RevisionNotFound", `Invalid rev id: ${rev}`);
      const files = Object.entries(datasets[repo] ?? {}).flatMap(([config, splits]) =>
        Object.keys(splits).map((split) => ({ rfilename: `${config}/${split}.jsonl` })),
      );
      return send(res, 200, {
        _id: createHash("sha1").update(repo).digest("hex").slice(0, 24),
        id: repo,
        author: repo.includes("/") ? repo.slice(0, repo.indexOf("/")) : repo,
        sha,
        lastModified: "2024-01-01T00:00:00.000Z",
        private: options.token !== undefined,
        gated: false,
        disabled: false,
        downloads: 0,
        likes: 0,
        tags: [],
        cardData: {},
        siblings: [...new Set([".gitattributes", "README.md", ...files.map((f) => f.rfilename), ...mainEntriesOf(repo).keys()])].map((rfilename) => ({ rfilename })),
        createdAt: "2024-01-01T00:00:00.000Z",
      });
    }
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats: () => ({ ...stats, log: [...stats.log] }),
    resetStats: () => {
      stats = emptyStats();
    },
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
