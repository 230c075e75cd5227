/**
 * `huggingface`: SEA-HELM rows from a dataset on the Hugging Face Hub. First choice: the Hub's
 * parquet files (`huggingface-parquet.ts`: the `refs/convert/parquet` branch, downloaded into the
 * cache under the dataset commit, read a row group at a time). Fallback, for a dataset without a
 * parquet conversion: the dataset viewer API (datasets-server), `GET /rows` page by page (100 rows
 * a page, the API's maximum). Rows become the same Samples as `seahelm-local` makes
 * (`rowToSample`), after a task-specific reshaping (`hub-row-formats.ts`). See the package README
 * for the options and the error messages.
 */
import * as path from "node:path";
import { ConfigError, type DataloaderContext, type DataloaderV1, DataLoadError, type Sample, SeenIds } from "@yardstick/core";
import { z } from "zod";
import { CACHE_FORMAT, pageFile, readCached, revisionFile, splitsFile, writeCached } from "./huggingface-cache.js";
import { createHubClient, type HubClient, type HubClientSettings, HubRequestFailed, summariseBody } from "./huggingface-client.js";
import { askRevisionCommit } from "./hub-revision.js";
import { type ParquetRow, planParquetSplit, readParquetSplit } from "./huggingface-parquet.js";
import { HUB_ROW_FORMATS, toSeaHelmShape } from "./hub-row-formats.js";
import { rowToSample } from "./seahelm-row.js";

export const DEFAULT_HF_ENDPOINT = "https://datasets-server.huggingface.co";
/** The Hub API, asked for the commit a revision points to (the fingerprint). */
export const DEFAULT_HF_HUB_ENDPOINT = "https://huggingface.co";
/** Rows per `/rows` request: the dataset viewer's maximum. */
export const HF_PAGE_LENGTH = 100;

export const huggingFaceOptionsSchema = z.object({
  /** Dataset id, e.g. "aisingapore/NLU-Sentiment-Analysis". */
  repo: z.string().regex(/^[\w.-]+(\/[\w.-]+)?$/, 'expected a dataset id such as "org/name"'),
  /** Config (subset); SEA-HELM uses the language. Default: the dataset's only config, or "default". */
  name: z.string().min(1).optional(),
  split: z.string().min(1),
  /** "main" (the default) or a commit sha the viewer's `X-Revision` must match. Part of the cache key. */
  revision: z.string().min(1).default("main"),
  /** Dataset viewer base URL (default https://datasets-server.huggingface.co). */
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
  /** Hub API base URL (default https://huggingface.co, or `endpoint` when that is given). */
  hubEndpoint: z.url({ protocol: /^https?$/ }).optional(),
  /** Hugging Face token for private or gated datasets; sent as `Authorization: Bearer`, never logged. */
  token: z.string().optional(),
  /** Directory for cached pages (the runner uses ~/.cache/yardstick/hf); no caching when absent. */
  cacheDir: z.string().min(1).optional(),
  labelField: z.string().min(1).optional(),
  idFallback: z.enum(["index", "error"]).optional(),
  limit: z.int().positive().optional(),
  /** "auto" (default): the Hub's parquet files, the viewer API when there are none; "parquet" or "viewer": only that. */
  source: z.enum(["auto", "parquet", "viewer"]).optional(),
  /** How a row maps to SEA-HELM's shape: "seahelm" (default, already in it) or a vision task's dataset. */
  rowFormat: z.enum(HUB_ROW_FORMATS).optional(),
});

export type HuggingFaceOptions = z.output<typeof huggingFaceOptionsSchema>;

/** Defaults for every load (options given to `load` win), plus the HTTP client's retry settings. */
export interface HuggingFaceDataloaderSettings extends HubClientSettings {
  endpoint?: string;
  hubEndpoint?: string;
  /** Token used when the options give none: lets the runner keep it out of task specs. */
  token?: string;
  cacheDir?: string;
}

const rowsResponseSchema = z.looseObject({
  rows: z.array(
    z.looseObject({
      row_idx: z.int().nonnegative(),
      row: z.record(z.string(), z.unknown()),
      truncated_cells: z.array(z.string()).optional(),
    }),
  ),
  num_rows_total: z.int().nonnegative(),
  partial: z.boolean().optional(),
});

const splitsResponseSchema = z.looseObject({
  splits: z.array(z.looseObject({ dataset: z.string().optional(), config: z.string(), split: z.string() })),
});

type RowsResponse = z.output<typeof rowsResponseSchema>;
type SplitEntry = { config: string; split: string };

interface Page {
  rows: RowsResponse["rows"];
  numRowsTotal: number;
  partial: boolean;
  /** The commit the viewer served (`X-Revision`), when it said. */
  servedRevision: string | undefined;
}

const SHA = /^[0-9a-f]{40}$/;

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** An image cell as the viewer returns it (`{ src, height, width }`) → its URL, as `seahelm-local` rows hold. */
function imageUrl(value: unknown): unknown {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const src = (value as { src?: unknown }).src;
    if (typeof src === "string") return src;
  }
  return value;
}

function withImageUrls(row: Record<string, unknown>): Record<string, unknown> {
  const hasImage = row.image !== undefined && row.image !== null && typeof row.image === "object";
  const hasImages = Array.isArray(row.images);
  if (!hasImage && !hasImages) return row;
  const out = { ...row };
  if (hasImage) out.image = imageUrl(row.image);
  if (hasImages) out.images = (row.images as unknown[]).map(imageUrl);
  return out;
}

function describeSplits(entries: readonly SplitEntry[]): string {
  if (entries.length === 0) return "(none)";
  const byConfig = new Map<string, string[]>();
  for (const e of entries) byConfig.set(e.config, [...(byConfig.get(e.config) ?? []), e.split]);
  return [...byConfig].map(([config, splits]) => `${config} (${splits.join(", ")})`).join("; ");
}

/** The options checked with `huggingFaceOptionsSchema` and the revision rule; bad ones are a ConfigError naming the key. */
export function parseHuggingFaceOptions(options: Record<string, unknown>): HuggingFaceOptions {
  const parsed = huggingFaceOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`huggingface options: ${issue.message}`, { keyPath: ["data", "options", ...issue.path.map(String)] });
  }
  const revision = parsed.data.revision;
  if (revision !== "main" && !SHA.test(revision)) {
    throw new ConfigError(
      `huggingface options: the dataset viewer serves only the latest commit of the main branch; revision must be "main" or a 40-character commit sha (checked against what the viewer serves), not "${revision}"`,
      { keyPath: ["data", "options", "revision"] },
    );
  }
  return parsed.data;
}

const datasetInfoSchema = z.looseObject({ sha: z.string().regex(SHA, "expected a 40-character commit sha") });

/**
 * `hf:<repo>@<commit sha>`: the dataset commit the options read. A pinned sha needs no request;
 * for "main" the Hub API (`GET /api/datasets/<repo>/revision/main`, huggingface_hub's
 * `dataset_info`) says which commit it is. With a `cacheDir` the answer is cached beside the
 * revision's pages, which never expire either: re-runs and resumes stay offline and keep the
 * fingerprint of the data they read.
 */
export async function fingerprintHuggingFace(
  options: Record<string, unknown>,
  ctx: DataloaderContext = {},
  settings: HuggingFaceDataloaderSettings = {},
): Promise<string> {
  const opts = parseHuggingFaceOptions(options);
  return `hf:${opts.repo}@${await resolveDatasetCommit(opts, ctx, settings)}`;
}

/** The Hub API endpoint: the option, the setting (HF_ENDPOINT), a viewer endpoint given alone (a stand-in or mirror serving both), or huggingface.co. */
function hubEndpointOf(opts: HuggingFaceOptions, settings: HuggingFaceDataloaderSettings): string {
  return (opts.hubEndpoint ?? settings.hubEndpoint ?? opts.endpoint ?? settings.endpoint ?? DEFAULT_HF_HUB_ENDPOINT).replace(/\/+$/, "");
}

/** The commit sha `opts.revision` names (see `fingerprintHuggingFace`). */
async function resolveDatasetCommit(opts: HuggingFaceOptions, ctx: DataloaderContext, settings: HuggingFaceDataloaderSettings): Promise<string> {
  const { repo, revision } = opts;
  if (SHA.test(revision)) return revision;
  const cacheDirOption = opts.cacheDir ?? settings.cacheDir;
  const cacheFile = cacheDirOption === undefined ? undefined : revisionFile(path.resolve(ctx.baseDir ?? process.cwd(), cacheDirOption), repo, revision);
  if (cacheFile) {
    const cached = datasetInfoSchema.safeParse(await readCached(cacheFile));
    if (cached.success) return cached.data.sha;
  }
  const hub = hubEndpointOf(opts, settings);
  const file = `hf://datasets/${repo}`;
  const fail = (message: string, cause?: unknown): DataLoadError => new DataLoadError(message, cause === undefined ? { file } : { file, cause });
  const client = createHubClient(hub, opts.token ?? settings.token, settings);
  let sha: string;
  try {
    sha = await askRevisionCommit({ client, hub, repo, revision, hasToken: Boolean(opts.token ?? settings.token), fail, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  } finally {
    await client.close();
  }
  if (cacheFile) {
    try {
      await writeCached(cacheFile, { format: CACHE_FORMAT, sha });
    } catch (e) {
      ctx.log?.(`huggingface: could not write the cache file ${cacheFile}: ${(e as Error).message}`);
    }
  }
  return sha;
}

/** A Hub row (either source) as a Sample: reshaped by `rowFormat`, viewer image cells as URLs, then `rowToSample`. */
function hubRowToSample(row: Record<string, unknown>, rowIdx: number, opts: HuggingFaceOptions, fail: (m: string, c?: unknown) => DataLoadError, where: string): Sample {
  const file = `hf://datasets/${opts.repo}`;
  try {
    const shaped = toSeaHelmShape(row, opts.rowFormat ?? "seahelm", { file, line: rowIdx });
    return rowToSample(withImageUrls(shaped), { file, line: rowIdx, index: rowIdx }, opts);
  } catch (e) {
    if (!DataLoadError.isInstance(e)) throw e;
    const prefix = `${file}:${rowIdx}: `;
    const message = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
    throw fail(`${where}, row ${rowIdx}: ${message}`, e);
  }
}

export async function* loadHuggingFace(
  options: Record<string, unknown>,
  ctx: DataloaderContext = {},
  settings: HuggingFaceDataloaderSettings = {},
): AsyncGenerator<Sample> {
  const opts = parseHuggingFaceOptions(options);
  ctx.signal?.throwIfAborted();
  const source = opts.source ?? "auto";
  if (source !== "viewer") {
    const rows = await openParquet(opts, ctx, settings);
    if (rows) {
      yield* rows;
      return;
    }
    if (source === "parquet") {
      throw new DataLoadError(`the Hub has no parquet conversion (branch refs/convert/parquet) of this dataset`, { file: `hf://datasets/${opts.repo}` });
    }
    ctx.log?.(`huggingface: ${opts.repo} has no parquet conversion on the Hub; reading it through the dataset viewer API`);
  }
  yield* loadFromViewer(opts, ctx, settings);
}

/** The split's Samples from the Hub's parquet files, or undefined when the dataset has none. */
async function openParquet(
  opts: HuggingFaceOptions,
  ctx: DataloaderContext,
  settings: HuggingFaceDataloaderSettings,
): Promise<AsyncGenerator<Sample> | undefined> {
  const { repo, split } = opts;
  const file = `hf://datasets/${repo}`;
  const fail = (message: string, cause?: unknown): DataLoadError => new DataLoadError(message, cause === undefined ? { file } : { file, cause });
  const hub = hubEndpointOf(opts, settings);
  const token = opts.token ?? settings.token;
  const cacheDirOption = opts.cacheDir ?? settings.cacheDir;
  const cacheDir = cacheDirOption === undefined ? undefined : path.resolve(ctx.baseDir ?? process.cwd(), cacheDirOption);
  const datasetSha = await resolveDatasetCommit(opts, ctx, settings);
  const client = createHubClient(hub, token, settings);
  const request = {
    repo,
    config: opts.name,
    split,
    datasetSha,
    hub,
    token,
    cacheDir,
    settings,
    client,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.log ? { log: ctx.log } : {}),
    fail,
    describe: describeSplits,
  };
  let manifest: Awaited<ReturnType<typeof planParquetSplit>>;
  try {
    manifest = await planParquetSplit(request);
  } catch (e) {
    await client.close();
    if (e instanceof HubRequestFailed) throw fail(`could not list the Hub's parquet files at ${hub} after ${e.attempts} attempt(s) (last: ${e.message})`, e);
    throw e;
  }
  if (!manifest) {
    await client.close();
    return undefined;
  }
  const found = manifest;
  const where = `config "${found.config}", split "${split}"`;
  return (async function* samples(): AsyncGenerator<Sample> {
    const seen = new SeenIds();
    let count = 0;
    try {
      const rows: AsyncGenerator<ParquetRow> = readParquetSplit(request, found);
      try {
        for await (const { index, row } of rows) {
          const sample = hubRowToSample(row, index, opts, fail, where);
          const first = seen.firstSeen(sample.id);
          if (first !== undefined) throw fail(`${where}, row ${index}: duplicate id "${sample.id}" (first seen at row ${first})`);
          seen.add(sample.id, index);
          yield sample;
          count++;
          if (opts.limit !== undefined && count >= opts.limit) return;
        }
      } finally {
        await rows.return(undefined);
      }
    } finally {
      await client.close();
    }
  })();
}

async function* loadFromViewer(opts: HuggingFaceOptions, ctx: DataloaderContext, settings: HuggingFaceDataloaderSettings): AsyncGenerator<Sample> {
  const { repo, split, revision } = opts;
  const endpoint = (opts.endpoint ?? settings.endpoint ?? DEFAULT_HF_ENDPOINT).replace(/\/+$/, "");
  const token = opts.token ?? settings.token;
  const cacheDirOption = opts.cacheDir ?? settings.cacheDir;
  const cacheDir = cacheDirOption === undefined ? undefined : path.resolve(ctx.baseDir ?? process.cwd(), cacheDirOption);
  const file = `hf://datasets/${repo}`;
  const fail = (message: string, cause?: unknown): DataLoadError => new DataLoadError(message, cause === undefined ? { file } : { file, cause });
  const query = (params: Record<string, string | number>): string =>
    Object.entries(params)
      .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
      .join("&");

  let client: HubClient | undefined;
  const http = (): HubClient => {
    client ??= createHubClient(endpoint, token, settings);
    return client;
  };
  const unreachable = (error: HubRequestFailed, what: string): DataLoadError => {
    return fail(
      `could not get ${what} from the dataset viewer at ${endpoint} after ${error.attempts} attempt(s) (last: ${error.message})${cacheDir ? `; it is not in the cache (${cacheDir})` : ""}`,
      error,
    );
  };
  const unauthorized = (status: number, body: string): DataLoadError => {
    if (status === 401) {
      return fail(
        token
          ? `the dataset viewer rejected the Hugging Face token (401${summariseBody(body)}); check HF_TOKEN`
          : `the dataset is private or gated, or does not exist (401${summariseBody(body)}); set HF_TOKEN to a Hugging Face token that can read it (for a gated dataset, accept its conditions on huggingface.co first) and check the dataset id`,
      );
    }
    return fail(
      `access denied (${status}${summariseBody(body)}): the dataset is gated or private and the token in HF_TOKEN cannot read it; accept the dataset's conditions on huggingface.co with the token's account, or use another token`,
    );
  };

  /** The dataset's configs and splits, from `/splits` (cached when possible). */
  const listSplits = async (useCache: boolean): Promise<SplitEntry[]> => {
    const cacheFile = cacheDir ? splitsFile(cacheDir, repo, revision) : undefined;
    if (useCache && cacheFile) {
      const cached = splitsResponseSchema.safeParse(await readCached(cacheFile));
      if (cached.success) return cached.data.splits;
    }
    let res: Awaited<ReturnType<HubClient["get"]>>;
    try {
      res = await http().get(`/splits?${query({ dataset: repo })}`, ctx.signal);
    } catch (e) {
      if (e instanceof HubRequestFailed) throw unreachable(e, "the list of splits");
      throw e;
    }
    if (res.status === 401 || res.status === 403) throw unauthorized(res.status, res.text);
    if (res.status === 404) {
      throw fail(
        `dataset not found, or not readable with the current token (private or gated)${summariseBody(res.text)}; check the dataset id${token ? "" : " or set HF_TOKEN"}`,
      );
    }
    if (res.status !== 200) throw fail(`the dataset viewer answered /splits with ${res.status}${summariseBody(res.text)}`);
    const body = parseJson(res.text, "/splits");
    const checked = splitsResponseSchema.safeParse(body);
    if (!checked.success) throw fail(`unexpected /splits response from ${endpoint}: ${checked.error.issues[0]!.message}`);
    if (cacheFile) await tryWrite(cacheFile, { format: CACHE_FORMAT, splits: checked.data.splits });
    return checked.data.splits;
  };

  const parseJson = (text: string, what: string): unknown => {
    try {
      return JSON.parse(text);
    } catch (e) {
      throw fail(`malformed JSON in the dataset viewer's ${what} response from ${endpoint}: ${(e as Error).message}`, e);
    }
  };

  const tryWrite = async (target: string, value: unknown): Promise<void> => {
    try {
      await writeCached(target, value);
    } catch (e) {
      ctx.log?.(`huggingface: could not write the cache file ${target}: ${(e as Error).message}`);
    }
  };

  let config = opts.name;
  const where = (): string => `config "${config}", split "${split}"`;

  const missingMessage = async (status: number, body: string): Promise<DataLoadError> => {
    const entries = await listSplits(false);
    const configs = new Set(entries.map((e) => e.config));
    if (!configs.has(config!)) {
      return fail(`config "${config}" not found (${status}); the dataset has: ${describeSplits(entries)}`);
    }
    if (!entries.some((e) => e.config === config && e.split === split)) {
      const splits = entries.filter((e) => e.config === config).map((e) => e.split);
      return fail(`split "${split}" not found in config "${config}" (${status}); it has: ${splits.join(", ")} (whole dataset: ${describeSplits(entries)})`);
    }
    return fail(`${where()}: the dataset viewer has no rows for it (${status}${summariseBody(body)}); the viewer may not support this dataset`);
  };

  const getPage = async (offset: number): Promise<Page> => {
    const cacheFile = cacheDir ? pageFile(cacheDir, { repo, config: config!, split, revision, offset }) : undefined;
    if (cacheFile) {
      const cached = await readCached(cacheFile);
      if (cached !== undefined) {
        const checked = rowsResponseSchema.safeParse((cached as { response?: unknown }).response);
        if (checked.success) {
          const servedRevision = (cached as { servedRevision?: unknown }).servedRevision;
          return {
            rows: checked.data.rows,
            numRowsTotal: checked.data.num_rows_total,
            partial: checked.data.partial === true,
            servedRevision: typeof servedRevision === "string" ? servedRevision : undefined,
          };
        }
      }
    }
    let res: Awaited<ReturnType<HubClient["get"]>>;
    try {
      res = await http().get(`/rows?${query({ dataset: repo, config: config!, split, offset, length: HF_PAGE_LENGTH })}`, ctx.signal);
    } catch (e) {
      if (e instanceof HubRequestFailed) throw unreachable(e, `rows ${offset}-${offset + HF_PAGE_LENGTH - 1} of ${where()}`);
      throw e;
    }
    if (res.status === 401 || res.status === 403) throw unauthorized(res.status, res.text);
    if (res.status === 404) throw await missingMessage(res.status, res.text);
    if (res.status !== 200) throw fail(`${where()}: the dataset viewer rejected the /rows request (${res.status}${summariseBody(res.text)})`);
    const body = parseJson(res.text, `/rows (${where()}, offset ${offset})`);
    const checked = rowsResponseSchema.safeParse(body);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw fail(`unexpected /rows response from ${endpoint} (${where()}, offset ${offset}): ${issue.path.join(".") || "body"}: ${issue.message}`);
    }
    const servedRevision = header(res.headers["x-revision"]);
    const page: Page = {
      rows: checked.data.rows,
      numRowsTotal: checked.data.num_rows_total,
      partial: checked.data.partial === true,
      servedRevision,
    };
    if (cacheFile) {
      const response = { rows: page.rows, num_rows_total: page.numRowsTotal, partial: page.partial };
      await tryWrite(cacheFile, { format: CACHE_FORMAT, servedRevision, response });
    }
    return page;
  };

  try {
    if (config === undefined) {
      const entries = await listSplits(true);
      const configs = [...new Set(entries.map((e) => e.config))];
      if (configs.length === 1) config = configs[0];
      else if (configs.includes("default")) config = "default";
      else {
        throw new ConfigError(`huggingface options: ${repo} has several configs; choose one with "name": ${describeSplits(entries)}`, {
          keyPath: ["data", "options", "name"],
        });
      }
    }

    const seen = new SeenIds();
    let count = 0;
    let offset = 0;
    let total: number | undefined;
    let firstRevision: string | undefined;
    while (total === undefined || offset < total) {
      if (opts.limit !== undefined && count >= opts.limit) return;
      const page = await getPage(offset);
      if (total === undefined) {
        total = page.numRowsTotal;
        if (page.partial) {
          ctx.log?.(`huggingface: ${repo} ${where()}: the dataset viewer serves only part of this split (partial: true); ${total} rows`);
        }
      }
      if (page.servedRevision !== undefined) {
        if (SHA.test(revision) && page.servedRevision !== revision) {
          throw fail(`${where()}: pinned revision ${revision}, but the dataset viewer serves ${page.servedRevision}`);
        }
        firstRevision ??= page.servedRevision;
        if (page.servedRevision !== firstRevision) {
          throw fail(
            `${where()}: the dataset changed while it was being read (pages from revisions ${firstRevision} and ${page.servedRevision})${cacheDir ? `; delete ${path.dirname(pageFile(cacheDir, { repo, config: config!, split, revision, offset }))} and run again` : ""}, or pin "revision"`,
          );
        }
      }
      if (page.rows.length === 0) break;
      for (let i = 0; i < page.rows.length; i++) {
        const item = page.rows[i]!;
        const rowIdx = item.row_idx;
        if (rowIdx !== offset + i) throw fail(`${where()}: the dataset viewer returned row ${rowIdx} where row ${offset + i} was expected`);
        const truncated = item.truncated_cells ?? [];
        if (truncated.length > 0) {
          throw fail(
            `${where()}, row ${rowIdx}: the dataset viewer truncated the cell(s) ${truncated.map((c) => `"${c}"`).join(", ")} (it shortens cells of large rows); this row cannot be read through the viewer API — use a local copy of the data (seahelm-local)`,
          );
        }
        if (opts.limit !== undefined && count >= opts.limit) return;
        const sample = hubRowToSample(item.row, rowIdx, opts, fail, where());
        const first = seen.firstSeen(sample.id);
        if (first !== undefined) throw fail(`${where()}, row ${rowIdx}: duplicate id "${sample.id}" (first seen at row ${first})`);
        seen.add(sample.id, rowIdx);
        count++;
        yield sample;
      }
      offset += page.rows.length;
    }
  } finally {
    await client?.close();
  }
}

/** The `huggingface` dataloader. `settings` are defaults for every load (token, cacheDir, endpoint) and retry tuning. */
export function createHuggingFaceDataloader(settings: HuggingFaceDataloaderSettings = {}): DataloaderV1 {
  return {
    specVersion: "v1",
    id: "huggingface",
    load: (options, ctx) => loadHuggingFace(options, ctx, settings),
    fingerprint: (options, ctx) => fingerprintHuggingFace(options, ctx, settings),
    checkOptions: (options) => void parseHuggingFaceOptions(options),
  };
}
