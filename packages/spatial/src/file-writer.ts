import { existsSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Writes many small files on a dedicated thread. Creating a file costs about 50 µs of system time
 * here whatever its size, as much as generating a canvas, so the `original` layout (one file per
 * canvas) spends half its time in open/write/close when it does them inline. One writer thread
 * overlaps them with generation (a single thread: several threads creating files in one directory
 * contend on it and were measured slower). Files are batched to keep messages few.
 */
export interface FileSink {
  write(path: string, data: string | Uint8Array): void;
  /** undefined, or a promise to await before producing more (bounds the memory held by queued files). */
  room(): Promise<void> | undefined;
  /** Waits for every write; throws the first failure. Idempotent. */
  close(): Promise<void>;
}

const WORKER_URL = new URL("./file-writer-worker.js", import.meta.url);
/** Batch size (files, bytes) and how many batches may be queued before the producer waits. */
const BATCH_FILES = 64;
const BATCH_BYTES = 1 << 20;
const MAX_QUEUED = 8;

/** Writes inline: for small runs, or when the worker script is not built (tests run the sources). */
export function syncFileSink(): FileSink {
  return { write: (path, data) => writeFileSync(path, data), room: () => undefined, close: async () => {} };
}

export function threadFileSinkAvailable(): boolean {
  return existsSync(fileURLToPath(WORKER_URL));
}

export async function threadFileSink(): Promise<FileSink> {
  const { Worker } = await import("node:worker_threads");
  const worker = new Worker(WORKER_URL);
  let paths: string[] = [];
  let datas: (string | Uint8Array)[] = [];
  let bytes = 0;
  let queued = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  let closing: Promise<void> | undefined;
  worker.on("message", (msg: { ok: true } | { ok: false; message: string; code?: string }) => {
    queued--;
    if (!msg.ok && failure === undefined) failure = Object.assign(new Error(msg.message), msg.code ? { code: msg.code } : {});
    wake?.();
  });
  worker.on("error", (err) => {
    failure ??= err;
    wake?.();
  });
  const flush = () => {
    if (paths.length === 0) return;
    worker.postMessage({ paths, datas });
    queued++;
    paths = [];
    datas = [];
    bytes = 0;
  };
  const waitBelow = async (limit: number) => {
    while (queued > limit && failure === undefined) await new Promise<void>((r) => (wake = r));
    if (failure) throw failure;
  };
  return {
    write(path, data) {
      paths.push(path);
      datas.push(data);
      bytes += data.length;
      if (paths.length >= BATCH_FILES || bytes >= BATCH_BYTES) flush();
    },
    room: () => (queued > MAX_QUEUED || failure !== undefined ? waitBelow(MAX_QUEUED) : undefined),
    close() {
      // Idempotent, so an error path can always call it to stop the thread.
      closing ??= (async () => {
        try {
          flush();
          await waitBelow(0);
        } finally {
          await worker.terminate();
        }
      })();
      return closing;
    },
  };
}
