import { existsSync } from "node:fs";
import { type FileHandle, open, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SpatialGenerationError } from "./errors.js";
import { type FileSink, syncFileSink, threadFileSink, threadFileSinkAvailable } from "./file-writer.js";
import { type Mode, TASK_NAMES, type TaskName } from "./constants.js";
import { type CanvasRecord, generateCanvas, optionsFingerprint, type ResolvedOptions, resolveOptions } from "./generate.js";
import { generatedJsonText } from "./original-json.js";
import { renderPng } from "./render/png.js";
import { renderSvg } from "./render/svg.js";
import { rowLines } from "./row-text.js";
import type { SpatialItem } from "./rows.js";
import type { ConfigTask } from "./seahelm-config.js";
import { makeDirectory } from "@yardstick/core";

export type OutputFormat = "original" | "seahelm" | "ultraeval";

export interface WriteOptions {
  shapes: number;
  count: number;
  seed: string | number;
  mode?: Mode;
  tasks?: readonly TaskName[];
  format?: OutputFormat;
  images?: boolean;
  /** Embed images as data URIs instead of relative paths (SEA-HELM/UltraEval rows). */
  inlineImages?: boolean;
  /** Append each question's few-shot pairs to its description, as upstream's loader does with -f. */
  fewshot?: boolean;
  /** Threads generating (for the original layout and images the main thread is one of them); default for 500+ canvases: one per core (up to 4) for the original layout or images, else up to 4 worker threads on 4+ cores, else 1. The output does not depend on it. */
  workers?: number;
}

export interface WriteSummary {
  outDir: string;
  format: OutputFormat;
  canvases: number;
  files: number;
  /** Rows per written data file (SEA-HELM/UltraEval). */
  rows: Record<string, number>;
  fingerprint: string;
}

export function seahelmRow(item: SpatialItem, options: ResolvedOptions, image?: string): Record<string, unknown> {
  return {
    id: item.id,
    prompts: [{ description: item.description, question: item.question }],
    label: item.answer,
    ...(image !== undefined ? { image } : {}),
    metadata: {
      task: item.task,
      description_type: item.descriptionType,
      canvas: item.canvas,
      index: item.index,
      n_shapes: options.shapes,
      mode: options.mode,
      seed: options.seed,
      fewshot: item.fewshot,
    },
  };
}

/** UltraEval's make_dataset row shape (passage/question/target_scores/answer) plus ids. */
export function ultraevalRow(item: SpatialItem, image?: string): Record<string, unknown> {
  return {
    id: item.id,
    passage: item.description,
    question: item.question,
    target_scores: {},
    answer: item.answer,
    ...(image !== undefined ? { image } : {}),
    task: item.task,
    description_type: item.descriptionType,
    canvas: item.canvas,
  };
}

/** What one range of canvases produced: rows are returned (to be appended in order), files are written. */
export interface ChunkResult {
  files: number;
  /** Data file name -> its new lines (UTF-8, each ending in "\n"). */
  lines: Record<string, Uint8Array>;
  rows: Record<string, number>;
  configTasks: ConfigTask[];
}

/**
 * The lines of one data file for one range, encoded as they come. Keeping a range's rows (megabytes)
 * as strings until the range ends made every young-generation GC copy them; outside the JS heap they
 * cost nothing to the GC. Buffers are reused once written (`releaseLines`): allocating megabytes of
 * external memory per range set off full GCs.
 */
class LineBuffer {
  private buf = spareBuffers.pop() ?? Buffer.allocUnsafeSlow(1 << 20);
  private len = 0;
  count = 0;

  /** Appends `head + body + tail` and a newline (written piece by piece: no concatenation). */
  add(head: string, body: string, tail: string): void {
    // A UTF-16 code unit takes at most 3 UTF-8 bytes; +1 for the newline.
    const need = this.len + 3 * (head.length + body.length + tail.length) + 1;
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(need, 2 * this.buf.length));
      this.buf.copy(grown, 0, 0, this.len);
      this.buf = grown;
    }
    this.len += this.buf.write(head, this.len);
    this.len += this.buf.write(body, this.len);
    this.len += this.buf.write(tail, this.len);
    this.buf[this.len++] = 10;
    this.count++;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

const spareBuffers: Buffer[] = [];

/** Hands line bytes back, once written or posted (copied), for reuse by later ranges on this thread. */
export function releaseLines(data: Uint8Array): void {
  // The bytes are a view from offset 0 of a LineBuffer's own (unpooled) memory, or of a copy of it.
  if (spareBuffers.length < 16) spareBuffers.push(Buffer.from(data.buffer, 0, data.buffer.byteLength));
}

/** Generates canvases [start, end): writes their per-canvas files and returns their rows. */
export async function processRange(
  outDir: string,
  options: WriteOptions,
  start: number,
  end: number,
  sink: FileSink = syncFileSink(),
): Promise<ChunkResult> {
  const resolved = resolveOptions(options);
  const fingerprint = optionsFingerprint(resolved);
  const format = options.format ?? "original";
  const images = options.images ?? false;
  const result: ChunkResult = { files: 0, lines: {}, rows: {}, configTasks: [] };
  const lines = new Map<string, LineBuffer>();
  // Per-canvas files go to the sink: synchronous writes (far less CPU than promise-based ones for
  // many small files) or the writer thread.
  const write = (path: string, data: string | Buffer) => {
    sink.write(path, data);
    result.files++;
  };
  // join(outDir, name) without normalising the directory again for every file.
  const dirPrefix = join(outDir, "x").slice(0, -1);
  for (let i = start; i < end; i++) {
    const wait = sink.room();
    if (wait !== undefined) await wait;
    const record: CanvasRecord = generateCanvas(resolved, i);
    let pngData: Buffer | undefined;
    if (images) {
      pngData = renderPng(record.shapes);
      write(join(outDir, "images", `${record.name}.png`), pngData);
      write(join(outDir, "images", `${record.name}.svg`), renderSvg(record.shapes));
    }
    if (format === "original") {
      write(`${dirPrefix}${record.name}.json`, generatedJsonText(record));
    } else {
      const imageRef = () => (options.inlineImages ? `data:image/png;base64,${pngData!.toString("base64")}` : `images/${record.name}.png`);
      for (const row of rowLines(record, resolved, fingerprint, format, images, options.fewshot ?? false, imageRef)) {
        const file = row.file;
        let parts = lines.get(file);
        if (parts === undefined) {
          lines.set(file, (parts = new LineBuffer()));
          result.configTasks.push({ task: row.task, image: row.image, file });
        }
        parts.add(row.head, row.description, row.tail);
      }
    }
  }
  for (const [file, parts] of lines) {
    result.lines[file] = parts.bytes();
    result.rows[file] = parts.count;
  }
  return result;
}

/** Canvases per unit of work handed to a worker thread. */
const CHUNK = 250;
const WORKER_URL = new URL("./write-worker.js", import.meta.url);

/**
 * Runs chunks on `threads` threads, yielding results in chunk order. With `mainGenerates` the main
 * thread is one of them (per-canvas layouts, where it has little else to do): it generates from the
 * start, while the workers take ~0.2 s to boot, and there is one worker fewer to boot.
 */
async function* runChunksOnThreads(outDir: string, options: WriteOptions, count: number, threads: number, mainGenerates: boolean): AsyncGenerator<ChunkResult> {
  const { Worker } = await import("node:worker_threads");
  type ChunkMessage = { ok: true; result: ChunkResult } | { ok: false; message: string };
  const chunks: [number, number][] = [];
  for (let s = 0; s < count; s += CHUNK) chunks.push([s, Math.min(count, s + CHUNK)]);
  const done = new Map<number, ChunkResult>();
  let failure: unknown;
  /** Set when the consumer stops (done or failed): nothing more is handed out. */
  let stopped = false;
  let next = 0;
  let wake: (() => void) | undefined;
  const pool = Array.from({ length: Math.min(threads - (mainGenerates ? 1 : 0), chunks.length) }, () => new Worker(WORKER_URL));
  /** Chunk ids posted to each worker, in the order it answers them. */
  const posted = new Map<InstanceType<typeof Worker>, number[]>();
  const post = (w: InstanceType<typeof Worker>) => {
    if (next >= chunks.length || failure !== undefined || stopped) return;
    const id = next++;
    posted.get(w)!.push(id);
    const [start, end] = chunks[id]!;
    w.postMessage({ outDir, options, start, end });
  };
  for (const w of pool) {
    posted.set(w, []);
    w.on("message", (msg: ChunkMessage) => {
      const id = posted.get(w)!.shift()!;
      if (msg.ok) done.set(id, msg.result);
      else failure ??= new SpatialGenerationError(msg.message);
      post(w);
      wake?.();
    });
    w.on("error", (err) => {
      failure ??= err;
      wake?.();
    });
    // Two chunks queued each: a worker that finishes one while the main thread generates (and so
    // cannot hand out the next) goes straight on with the other.
    post(w);
    if (mainGenerates) post(w);
  }
  const mainThread = mainGenerates
    ? (async () => {
        while (next < chunks.length && failure === undefined && !stopped) {
          const id = next++;
          const [start, end] = chunks[id]!;
          try {
            done.set(id, await processRange(outDir, options, start, end));
          } catch (err) {
            failure ??= err;
          }
          wake?.();
          // Let the workers' messages in before the next chunk.
          await new Promise<void>((r) => setImmediate(r));
        }
      })()
    : undefined;
  try {
    for (let id = 0; id < chunks.length; id++) {
      while (!done.has(id)) {
        if (failure !== undefined) throw failure;
        await new Promise<void>((r) => (wake = r));
      }
      const result = done.get(id)!;
      done.delete(id);
      yield result;
    }
  } finally {
    stopped = true;
    await mainThread;
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

function defaultWorkers(count: number, format: OutputFormat, images: boolean): number {
  const cores = availableParallelism();
  if (count < 2 * CHUNK) return 1;
  // One file per canvas (original layout, images): each worker writes its own files, so nothing but
  // chunk numbers crosses threads and every core both generates and writes (original layout,
  // 2 cores: bench/spatial/whole-process.mjs). Output is identical either way.
  if (format === "original" || images) return Math.min(4, cores);
  // Row layouts: the rows of every range go through the main thread, which writes them; threads
  // pay off only when a core is left for it (measured: on 2 cores they do not help).
  return cores >= 4 ? Math.min(4, cores - 1) : 1;
}

/**
 * Whether a single-threaded run writes its per-canvas files (original layout, images) on the writer
 * thread, overlapping file creation with generation (7 shapes, original layout, 2 cores: about
 * 1.6x; bench/spatial/RESULTS.md). Not worth a thread's start-up for small runs or on one core.
 */
function useFileThread(count: number, format: OutputFormat, images: boolean): boolean {
  return (format === "original" || images) && count >= 2 * CHUNK && availableParallelism() >= 2 && threadFileSinkAvailable();
}

/** Generates the dataset and writes it in the chosen layout. Deterministic for fixed options. */
export async function writeDataset(outDir: string, options: WriteOptions): Promise<WriteSummary> {
  const resolved = resolveOptions(options);
  const fingerprint = optionsFingerprint(resolved);
  const format = options.format ?? "original";
  const images = options.images ?? false;
  await makeDirectory(outDir);
  if (images) await makeDirectory(join(outDir, "images"));
  const workers = options.workers ?? defaultWorkers(resolved.count, format, images);
  const useWorkers = workers > 1 && existsSync(fileURLToPath(WORKER_URL));

  const handles = new Map<string, FileHandle>();
  const rows: Record<string, number> = {};
  const configTasks = new Map<string, ConfigTask>();
  let files = 0;
  // A range's lines are written while the next range is generated (the writes run on libuv's
  // thread pool, so on a second core); a range first waits for the previous range's writes, which
  // bounds the memory held and keeps each file's appends in order.
  let inflight: Promise<void>[] = [];
  let writeError: unknown;
  const writeAll = async (h: FileHandle, data: Uint8Array) => {
    for (let off = 0; off < data.length; ) off += (await h.write(data, off, data.length - off)).bytesWritten;
  };
  const consume = async (chunk: ChunkResult) => {
    await Promise.all(inflight);
    if (writeError !== undefined) throw writeError;
    inflight = [];
    files += chunk.files;
    for (const t of chunk.configTasks) if (!configTasks.has(t.file)) configTasks.set(t.file, t);
    for (const [file, data] of Object.entries(chunk.lines)) {
      let h = handles.get(file);
      if (h === undefined) {
        handles.set(file, (h = await open(join(outDir, file), "w")));
        files++;
      }
      inflight.push(
        writeAll(h, data).then(
          () => releaseLines(data),
          (err: unknown) => {
            writeError ??= err;
          },
        ),
      );
      rows[file] = (rows[file] ?? 0) + (chunk.rows[file] ?? 0);
    }
  };
  try {
    if (useWorkers) {
      for await (const chunk of runChunksOnThreads(outDir, options, resolved.count, workers, format === "original" || images)) await consume(chunk);
    } else {
      const sink = useFileThread(resolved.count, format, images) ? await threadFileSink() : syncFileSink();
      try {
        for (let s = 0; s < resolved.count; s += CHUNK) await consume(await processRange(outDir, options, s, Math.min(resolved.count, s + CHUNK), sink));
        await sink.close();
      } finally {
        // After an error: stop the writer without replacing the error by a write failure.
        await sink.close().catch(() => {});
      }
    }
    await Promise.all(inflight);
    if (writeError !== undefined) throw writeError;
  } finally {
    await Promise.all(inflight);
    for (const h of handles.values()) await h.close();
  }

  if (format === "seahelm") {
    // Loaded here only: yaml is not needed to generate (nor by worker threads).
    const { seahelmConfigYaml } = await import("./seahelm-config.js");
    // Config tasks in upstream task order, text before image.
    const ordered = [...configTasks.values()].sort(
      (a, b) => TASK_NAMES.indexOf(a.task) - TASK_NAMES.indexOf(b.task) || Number(a.image) - Number(b.image),
    );
    await writeFile(
      join(outDir, "config.yaml"),
      seahelmConfigYaml(ordered, { seed: resolved.seed, mode: resolved.mode, shapes: resolved.shapes, fingerprint }),
    );
    files++;
  }
  const manifest = {
    generator: "@yardstick/spatial",
    format,
    fingerprint,
    options: { ...resolved, images },
    rows,
  };
  await writeFile(join(outDir, "spatial-manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  files++;
  return { outDir, format, canvases: resolved.count, files, rows, fingerprint };
}
