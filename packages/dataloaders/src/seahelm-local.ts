/**
 * `seahelm-local`: rows in SEA-HELM's format from a local `.jsonl` / `.json` file.
 * Options: `{ path, labelField?, idFallback?, limit? }`; a relative path is resolved against `ctx.baseDir`
 * (or the working directory). Duplicate ids are an error, reported with both lines.
 */
import * as path from "node:path";
import { ConfigError, type DataloaderContext, type DataloaderV1, DataLoadError, type Sample } from "@yardstick/core";
import { z } from "zod";
import { inlineRowImages } from "./images.js";
import { readRows } from "./read-rows.js";
import { rowToSample } from "./seahelm-row.js";

export const seahelmLocalOptionsSchema = z.object({
  path: z.string().min(1),
  labelField: z.string().min(1).optional(),
  idFallback: z.enum(["index", "error"]).optional(),
  /** Stop after this many rows (like SEA-HELM's --limit). */
  limit: z.int().positive().optional(),
});

export type SeahelmLocalOptions = z.output<typeof seahelmLocalOptionsSchema>;

export async function* loadSeahelmLocal(options: Record<string, unknown>, ctx: DataloaderContext = {}): AsyncGenerator<Sample> {
  const parsed = seahelmLocalOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`seahelm-local options: ${issue.message}`, { keyPath: ["data", "options", ...issue.path.map(String)] });
  }
  const opts = parsed.data;
  const file = path.resolve(ctx.baseDir ?? process.cwd(), opts.path);
  const seen = new Map<string, number>();
  let count = 0;
  for await (const { row, line, index } of readRows(file, ctx.signal)) {
    if (opts.limit !== undefined && count >= opts.limit) break;
    const sample = rowToSample(row, { file, line, index }, opts);
    const first = seen.get(sample.id);
    if (first !== undefined) throw new DataLoadError(`duplicate id "${sample.id}" (first seen on line ${first})`, { file, line });
    seen.set(sample.id, line);
    // Most rows have no images: skip the await (a promise per row) for them.
    const raw = sample.raw;
    if ((raw.image !== undefined && raw.image !== null) || (raw.images !== undefined && raw.images !== null)) {
      sample.raw = await inlineRowImages(raw, { file, line });
    }
    count++;
    yield sample;
  }
}

export function createSeahelmLocalDataloader(): DataloaderV1 {
  return { specVersion: "v1", id: "seahelm-local", load: loadSeahelmLocal };
}
