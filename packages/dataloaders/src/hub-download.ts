/**
 * One file downloaded from the Hugging Face Hub (`/datasets/<repo>/resolve/<commit>/<path>`), shared
 * by the parquet reader and the repository snapshots: the body is streamed to a partial file chunk
 * by chunk, an interrupted download continues with `Range: bytes=<have>-`, retryable statuses and
 * dropped connections are retried with the shared backoff, and the whole file is checked (size,
 * digest, the caller's own check) before it is renamed into place. A file failing a check is
 * deleted, never kept.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import * as path from "node:path";
import { DataLoadError, makeDirectory } from "@yardstick/core";
import { backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from "@yardstick/http";
import type { HubClientSettings } from "./huggingface-client.js";

export interface HubFileDownload {
  url: string;
  /** Where the checked file ends up. */
  target: string;
  /** Where the bytes collect meanwhile (default `<target>.partial`); kept across runs for the resume. */
  partial?: string;
  /** The file's path in the repo, for messages. */
  name: string;
  size: number;
  /** The expected digest: an LFS file's sha256, or a plain git file's blob id (sha1 of `blob <size>\0<bytes>`). */
  digest?: { kind: "sha256" | "git-blob"; hex: string };
  /** A further check of the whole file (throws with the reason), and what it checks ("a readable parquet file"). */
  check?: { what: string; run(file: string): Promise<void> };
  /** Where the file comes from, for the "not kept" message ("from the Hub's parquet branch"). */
  origin: string;
  token: string | undefined;
  settings: HubClientSettings;
  signal?: AbortSignal;
  fail(message: string, cause?: unknown): DataLoadError;
}

export const encodeRepoPath = (p: string): string => p.split("/").map(encodeURIComponent).join("/");

export async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

/** Writes the body chunk by chunk, so the bytes that arrived before a dropped connection stay for the resume. */
async function appendBody(body: ReadableStream<Uint8Array>, file: string, append: boolean): Promise<void> {
  const handle = await open(file, append ? "a" : "w");
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) await handle.write(chunk);
  } finally {
    await handle.close();
  }
}

/** The hex digest of a file: sha256, or git's blob id. */
export async function digestOfFile(file: string, kind: "sha256" | "git-blob"): Promise<string> {
  const hash = createHash(kind === "sha256" ? "sha256" : "sha1");
  if (kind === "git-blob") hash.update(`blob ${(await stat(file)).size}\0`);
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Downloads `d.url` to `d.target` (see the module comment). */
export async function downloadHubFile(d: HubFileDownload): Promise<void> {
  const retries = d.settings.retries ?? 5;
  const baseMs = d.settings.backoffBaseMs ?? 500;
  const maxMs = d.settings.backoffMaxMs ?? 20_000;
  const partial = d.partial ?? `${d.target}.partial`;
  await makeDirectory(path.dirname(d.target));
  await makeDirectory(path.dirname(partial));
  const headers: Record<string, string> = { "user-agent": "yardstick-dataloaders" };
  if (d.token) headers.authorization = `Bearer ${d.token}`;
  let lastProblem = "";
  for (let attempt = 1; ; attempt++) {
    d.signal?.throwIfAborted();
    let have = (await sizeOf(partial)) ?? 0;
    if (have > d.size) {
      await rm(partial, { force: true });
      have = 0;
    }
    if (have === d.size) break;
    let delay: number | undefined;
    try {
      const res = await fetch(d.url, {
        headers: have > 0 ? { ...headers, range: `bytes=${have}-` } : headers,
        ...(d.signal ? { signal: d.signal } : {}),
      });
      if (res.status === 200 || res.status === 206) {
        // A 200 to a range request is the whole file again: start over.
        const append = res.status === 206 && have > 0;
        if (!res.body) throw new Error("empty response body");
        await appendBody(res.body, partial, append);
        continue;
      }
      await res.body?.cancel();
      if (res.status === 416) {
        await rm(partial, { force: true });
        lastProblem = "HTTP 416 (the partial download is longer than the file)";
      } else if (isRetryableStatus(res.status)) {
        lastProblem = `HTTP ${res.status}`;
        delay = parseRetryAfter(res.headers.get("retry-after") ?? undefined);
      } else {
        const advice =
          res.status === 401 ? "; set HF_TOKEN to a token that can read the dataset" : res.status === 403 ? "; check HF_TOKEN, and accept the dataset's conditions on huggingface.co with its account" : "";
        throw d.fail(`downloading ${d.name} from the Hub failed: HTTP ${res.status}${advice}`);
      }
    } catch (e) {
      if (DataLoadError.isInstance(e)) throw e;
      if (d.signal?.aborted) throw d.signal.reason ?? e;
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      lastProblem = `${cause?.code ?? (e as Error).message}${cause?.message ? `: ${cause.message}` : ""}`;
    }
    if (attempt > retries) {
      const got = (await sizeOf(partial)) ?? 0;
      throw d.fail(`downloading ${d.name} stopped at ${got} of ${d.size} bytes after ${attempt} attempt(s) (last: ${lastProblem}); run again to resume from ${partial}`);
    }
    await sleep(delay !== undefined ? Math.min(delay, maxMs) : backoffDelay(attempt, baseMs, maxMs), d.signal);
  }
  const reject = async (why: string, cause?: unknown): Promise<never> => {
    await rm(partial, { force: true });
    throw d.fail(`${d.name} ${d.origin} ${why}; it was not cached`, cause);
  };
  if (d.digest && (await digestOfFile(partial, d.digest.kind)) !== d.digest.hex) {
    await reject(`does not match its ${d.digest.kind === "sha256" ? "sha256" : "git blob id"} ${d.digest.hex} (corrupted in transit)`);
  }
  if (d.check) {
    try {
      await d.check.run(partial);
    } catch (e) {
      await reject(`is not ${d.check.what}: ${(e as Error).message}`, e);
    }
  }
  await rename(partial, d.target);
}
