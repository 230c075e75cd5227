/**
 * `seahelm-local`: rows in SEA-HELM's format from a local `.jsonl` / `.json` file.
 * Options: `{ path, labelField?, idFallback?, limit? }`; a relative path is resolved against `ctx.baseDir`
 * (or the working directory). Duplicate ids are an error, reported with both lines.
 */
import * as path from "node:path";
import { ConfigError, type DataloaderContext, type DataloaderV1, DataLoadError, type Sample, SeenIds, sha256File } from "@yardstick/core";
import { z } from "zod";
import { inlineRowImages } from "./images.js";
import { assertReadableFile, readRowBatches } from "./read-rows.js";
import { rowToSample } from "./seahelm-row.js";

export const seahelmLocalOptionsSchema = z.object({
  path: z.string().min(1),
  labelField: z.string().min(1).optional(),
  idFallback: z.enum(["index", "error"]).optional(),
  /** Stop after this many rows (like SEA-HELM's --limit). */
  limit: z.int().positive().optional(),
});

export type SeahelmLocalOptions = z.output<typeof seahelmLocalOptionsSchema>;

/** The options checked with `seahelmLocalOptionsSchema`; bad ones are a ConfigError naming the key. */
export function parseSeahelmLocalOptions(options: Record<string, unknown>): SeahelmLocalOptions {
  const parsed = seahelmLocalOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`seahelm-local options: ${issue.message}`, { keyPath: ["data", "options", ...issue.path.map(String)] });
  }
  return parsed.data;
}

/**
 * `sha256:<hex>` of the data file's bytes: any change to the file (rows past a `limit` included)
 * makes another fingerprint. Image files the rows point to are not part of it.
 */
export async function fingerprintSeahelmLocal(options: Record<string, unknown>, ctx: DataloaderContext = {}): Promise<string> {
  const file = path.resolve(ctx.baseDir ?? process.cwd(), parseSeahelmLocalOptions(options).path);
  await assertReadableFile(file);
  try {
    return `sha256:${await sha256File(file, ctx.signal)}`;
  } catch (cause) {
    if (ctx.signal?.aborted) throw cause;
    throw new DataLoadError(`cannot read the data file: ${(cause as Error).message}`, { file, cause });
  }
}

export async function* loadSeahelmLocal(options: Record<string, unknown>, ctx: DataloaderContext = {}): AsyncGenerator<Sample> {
  for await (const batch of loadSeahelmLocalBatches(options, ctx)) yield* batch;
}

/** The samples of `loadSeahelmLocal`, one batch per chunk of the file read. */
export async function* loadSeahelmLocalBatches(options: Record<string, unknown>, ctx: DataloaderContext = {}): AsyncGenerator<Sample[]> {
  const opts = parseSeahelmLocalOptions(options);
  const file = path.resolve(ctx.baseDir ?? process.cwd(), opts.path);
  const seen = new SeenIds();
  let count = 0;
  for await (const rows of readRowBatches(file, ctx.signal, opts.limit)) {
    const batch: Sample[] = [];
    for (const { row, line, index } of rows) {
      if (opts.limit !== undefined && count >= opts.limit) break;
      let sample: Sample;
      try {
        sample = rowToSample(row, { file, line, index }, opts);
        const first = seen.firstSeen(sample.id);
        if (first !== undefined) throw new DataLoadError(`duplicate id "${sample.id}" (first seen on line ${first})`, { file, line });
        seen.add(sample.id, line);
        // Most rows have no images: skip the await (a promise per row) for them.
        const raw = sample.raw;
        if ((raw.image !== undefined && raw.image !== null) || (raw.images !== undefined && raw.images !== null)) {
          sample.raw = await inlineRowImages(raw, { file, line });
        }
      } catch (err) {
        if (batch.length > 0) yield batch; // the samples before a bad row come first, as when streaming one by one
        throw err;
      }
      count++;
      batch.push(sample);
    }
    if (batch.length > 0) yield batch;
    if (opts.limit !== undefined && count >= opts.limit) return;
  }
}

export function createSeahelmLocalDataloader(): DataloaderV1 {
  return {
    specVersion: "v1",
    id: "seahelm-local",
    load: loadSeahelmLocal,
    loadBatches: loadSeahelmLocalBatches,
    fingerprint: fingerprintSeahelmLocal,
    checkOptions: (options) => void parseSeahelmLocalOptions(options),
  };
}
