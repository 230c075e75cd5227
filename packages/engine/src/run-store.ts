import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync, type WriteStream } from "node:fs";
import { mkdir, open, readFile, rename, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ConfigError, type ModelErrorRecord } from "@yardstick/core";

/** One line of `responses.jsonl`: the outcome of one request for one turn of one sample. */
export interface ResponseRecord {
  task: string;
  sample: string;
  turn: number;
  /** Cache key of the request (hash of canonical request + model identity). */
  key: string;
  /** Hash of the prompt alone (what the dev server's /stats counts). */
  promptHash: string;
  cached: boolean;
  text?: string;
  finishReason?: string;
  reasoningContent?: string;
  usage?: { promptTokens: number; completionTokens: number; totalTokens: number };
  latencyMs?: number;
  /** Loglikelihood tasks: the log-probability of each candidate continuation. */
  choiceLogprobs?: number[];
  error?: ModelErrorRecord;
  time: string;
}

export interface RunManifest {
  fingerprint: string;
  createdAt: string;
  updatedAt?: string;
  yardstick: { versions: Record<string, string> };
  model: { provider: string; modelId: string; identity: string; baseURLs?: string[] };
  options: Record<string, unknown>;
  tasks: unknown[];
  dataHashes: Record<string, string>;
}

/**
 * A run store is a folder: `run.json` (resolved config + fingerprint), `responses.jsonl`
 * (append-only), `scores/<task>.jsonl` (per-sample scores, derived) and `results.json` (derived).
 * Derived files are replaced atomically (write then rename), so a crash never leaves half a file.
 */
export class RunStore {
  readonly dir: string;
  private out: WriteStream | undefined;
  private pending = "";
  private flushTimer: NodeJS.Immediate | undefined;

  constructor(dir: string) {
    this.dir = dir;
  }

  get manifestPath(): string {
    return join(this.dir, "run.json");
  }
  get responsesPath(): string {
    return join(this.dir, "responses.jsonl");
  }
  get resultsPath(): string {
    return join(this.dir, "results.json");
  }

  /** Creates the folder, or checks that an existing one holds the same run (same fingerprint). */
  async open(manifest: RunManifest): Promise<{ resumed: boolean }> {
    await mkdir(join(this.dir, "scores"), { recursive: true });
    let resumed = false;
    if (existsSync(this.manifestPath)) {
      const existing = JSON.parse(await readFile(this.manifestPath, "utf8")) as RunManifest;
      if (existing.fingerprint !== manifest.fingerprint) {
        throw new ConfigError(
          `${this.dir} already holds a different run (fingerprint ${existing.fingerprint.slice(0, 12)}, this run is ${manifest.fingerprint.slice(0, 12)}): the config, data or model changed; choose another --out folder`,
          { file: this.manifestPath },
        );
      }
      resumed = true;
      manifest = { ...manifest, createdAt: existing.createdAt, updatedAt: new Date().toISOString() };
    }
    await writeAtomic(this.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    await this.repairTail();
    this.out = createWriteStream(this.responsesPath, { flags: "a" });
    return { resumed };
  }

  /** A process killed mid-write can leave a partial last line: cut it so appends start clean. */
  private async repairTail(): Promise<void> {
    if (!existsSync(this.responsesPath)) return;
    const { size } = await stat(this.responsesPath);
    if (size === 0) return;
    // Read backwards in chunks until the last newline: the file can be large, the torn tail is small.
    const fh = await open(this.responsesPath, "r");
    try {
      const chunk = Buffer.alloc(64 * 1024);
      let end = size;
      while (end > 0) {
        const start = Math.max(0, end - chunk.length);
        const { bytesRead } = await fh.read(chunk, 0, end - start, start);
        const view = chunk.subarray(0, bytesRead);
        if (end === size && view[view.length - 1] === 0x0a) return;
        const nl = view.lastIndexOf(0x0a);
        if (nl >= 0) {
          await truncate(this.responsesPath, start + nl + 1);
          return;
        }
        end = start;
      }
      await truncate(this.responsesPath, 0);
    } finally {
      await fh.close();
    }
  }

  /** Lines of responses.jsonl that were not valid records at the last `readResponses` (1-based). */
  readonly unreadableLines: number[] = [];

  /**
   * Streams the stored responses (a later record for the same turn wins). A line that is not a
   * record (hand-edited, disk trouble) is skipped and listed in `unreadableLines`, so its sample is
   * asked again rather than the run being lost.
   */
  async *readResponses(): AsyncGenerator<ResponseRecord> {
    this.unreadableLines.length = 0;
    if (!existsSync(this.responsesPath)) return;
    const rl = createInterface({ input: createReadStream(this.responsesPath, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
    let lineNumber = 0;
    for await (const line of rl) {
      lineNumber++;
      if (line.trim() === "") continue;
      let record: ResponseRecord;
      try {
        record = JSON.parse(line) as ResponseRecord;
      } catch {
        this.unreadableLines.push(lineNumber);
        continue;
      }
      yield record;
    }
  }

  /**
   * Queues one record. Lines queued in the same turn of the event loop go out in one write on the
   * next turn: a busy run then makes one write call per batch instead of one per response, and a
   * crash loses at most the lines of that one turn.
   */
  append(record: ResponseRecord): void {
    this.appendLine(JSON.stringify(record));
  }

  /** `append` for a record the caller has already serialised (one line of JSON, no newline). */
  appendLine(json: string): void {
    if (!this.out) throw new Error("run store is not open");
    this.pending += `${json}\n`;
    if (this.pending.length >= 1 << 20) this.flushPending();
    else this.flushTimer ??= setImmediate(() => this.flushPending());
  }

  private flushPending(): void {
    if (this.flushTimer) clearImmediate(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending === "" || !this.out) return;
    this.out.write(this.pending);
    this.pending = "";
  }

  /** Replaces a task's per-sample scores, streaming the lines (a task can have a million samples). */
  async writeScores(taskKey: string, lines: Iterable<unknown>): Promise<void> {
    const path = join(this.dir, "scores", `${slug(taskKey)}.jsonl`);
    const tmp = `${path}.tmp-${process.pid}`;
    const out = createWriteStream(tmp);
    let chunk = "";
    for (const line of lines) {
      chunk += `${JSON.stringify(line)}\n`;
      if (chunk.length >= 1 << 16) {
        if (!out.write(chunk)) await once(out, "drain");
        chunk = "";
      }
    }
    out.end(chunk);
    await once(out, "finish");
    await rename(tmp, path);
  }

  async readScores(taskKey: string): Promise<unknown[]> {
    const path = join(this.dir, "scores", `${slug(taskKey)}.jsonl`);
    if (!existsSync(path)) return [];
    return (await readFile(path, "utf8"))
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
  }

  async writeResults(results: unknown): Promise<void> {
    await writeAtomic(this.resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  }

  async close(): Promise<void> {
    this.flushPending();
    const out = this.out;
    this.out = undefined;
    if (out) await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}

export function slug(key: string): string {
  return key.replace(/[^A-Za-z0-9._-]+/g, "_");
}

async function writeAtomic(path: string, body: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, body);
  await rename(tmp, path);
}
