import { once } from "node:events";
import { createWriteStream, existsSync, type WriteStream } from "node:fs";
import { open, readdir, readFile, rename, rm, stat, truncate, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { ConfigError, makeDirectory } from "@yardstick/core";
import {
  type ParsedLine,
  parseManifest,
  parseResponseLine,
  parseSampleLine,
  RUN_FORMAT_VERSION,
  type ReadManifest,
  readJsonlLines,
  type ResponseLineOptions,
  type ResponseRecord,
  type RunManifest,
  type RunResults,
  type SampleRecord,
  type ScoreRecord,
  type Shard,
} from "@yardstick/run-format";
import { describeRunDifference } from "./run-difference.js";
import { RUN_STATS_FILE } from "./run-stats-file.js";
import { runStoreWriteError } from "./storage-error.js";

export type { ResponseRecord, RunManifest, SampleRecord, ScoreRecord };

/** A line of a store's JSONL file that is not a valid record, with why. */
export interface UnreadableLine {
  file: string;
  line: number;
  problem: string;
}

/**
 * A run store is a folder in the run-store format (`@yardstick/run-format`, documented in
 * docs/run-format.md): `run.json`, append-only `responses.jsonl` and `samples/<task>.jsonl`, and the
 * derived `scores/<task>.jsonl` and `results.json`. Appends are batched per event-loop turn; derived
 * files are replaced atomically (write, then rename), so a crash never leaves half a file.
 *
 * A failed write (a full disk) is one `StorageError` naming the file: raised by `written()` and the
 * next append, or by `close()` if nothing raised it before. Records written before it stay; a line
 * the failure tore is cut when the store is next opened.
 */
export class RunStore {
  readonly dir: string;
  private out: WriteStream | undefined;
  private pending = "";
  private readonly sampleOut = new Map<string, { stream: WriteStream; pending: string }>();
  private flushTimer: NodeJS.Immediate | undefined;
  private writable = false;
  /** The first failed write, as a StorageError; `failureRaised`: whether a caller has been given it. */
  private failure: unknown;
  private failureRaised = false;

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
  samplesPath(taskKey: string): string {
    return join(this.dir, "samples", `${slug(taskKey)}.jsonl`);
  }
  scoresPath(taskKey: string): string {
    return join(this.dir, "scores", `${slug(taskKey)}.jsonl`);
  }

  /** Reads and checks run.json (refusing a newer format); a folder without one is not a run store. */
  async readManifest(): Promise<ReadManifest> {
    if (!existsSync(this.dir)) throw new ConfigError("does not exist (give a folder `yardstick run` wrote)", { file: this.dir });
    if (!existsSync(this.manifestPath)) {
      throw new ConfigError("not a run store: run.json is missing (give the folder a `yardstick run` wrote)", { file: this.manifestPath });
    }
    return parseManifest(await readFile(this.manifestPath, "utf8"), this.manifestPath);
  }

  /**
   * Opens the store for a run: creates the folder, or checks that an existing one holds the same
   * run (same fingerprint and shard) in a format this yardstick reads. An older store is upgraded
   * (its manifest rewritten in the current format; old records stay and are read as they are).
   */
  async open(manifest: RunManifest): Promise<{ resumed: boolean; previousFormatVersion?: number }> {
    await this.refuseForeignFolder();
    await makeDirectory(join(this.dir, "scores"));
    await makeDirectory(join(this.dir, "samples"));
    await this.lock();
    try {
      return await this.openLocked(manifest);
    } catch (err) {
      await this.unlock();
      throw err;
    }
  }

  /**
   * Refuses a folder with files of its own and no trace of a run store (`--out .` in a project):
   * the run would write results.json, report.html and the rest among them, replacing any of the
   * same name. A store whose run.json was deleted still has its records, and one killed before its
   * run.json its samples/ and scores/ folders.
   */
  private async refuseForeignFolder(): Promise<void> {
    if (!existsSync(this.dir) || !(await stat(this.dir)).isDirectory()) return;
    const names = await readdir(this.dir);
    if (names.length === 0 || names.some((name) => STORE_TRACES.has(name))) return;
    throw new ConfigError(
      `is not empty and holds no run store (no run.json, responses.jsonl, samples/ or scores/): a run would write its files (results.json, report.html, ...) among yours; choose a new or empty folder (nothing was written)`,
      { file: this.dir },
    );
  }

  get lockPath(): string {
    return join(this.dir, "run.lock");
  }

  private locked = false;

  /**
   * Takes the store's lock to rewrite what is derived from its records (scores, results) outside a
   * run, as `score-run` does: refused while a run writes to the store, since scoring a half-answered
   * store beside it would leave results the run then overwrites, or overwrite the run's. Released
   * by `close()`.
   */
  async lockForRewrite(): Promise<void> {
    await this.lock("wait for it to finish");
  }

  /**
   * Takes the store's lock file (`run.lock`: pid, host, start time), so two runs never write one
   * store. A lock left by a process that is gone (kill -9) on this host is taken over.
   */
  private async lock(whatToDo = "wait for it to finish or choose another --out"): Promise<void> {
    if (this.locked) return;
    const mine = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(this.lockPath, `${mine}\n`, { flag: "wx" });
        this.locked = true;
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") {
          await rm(this.lockPath, { force: true }); // a lock file the disk had no room for
          throw runStoreWriteError(err, this.lockPath, this.dir);
        }
      }
      const holder = await readLock(this.lockPath);
      if (holder && holder.host === hostname() && !processAlive(holder.pid)) {
        await rm(this.lockPath, { force: true }); // left by a run that was killed
        continue;
      }
      const who = holder ? `pid ${holder.pid} on ${holder.host}, since ${holder.since}` : "a process whose lock file is unreadable";
      throw new ConfigError(
        `another yardstick run is writing to this run store (${who}); ${whatToDo} (if no run is using it, delete run.lock)`,
        { file: this.lockPath },
      );
    }
    throw new ConfigError("cannot take the run store's lock", { file: this.lockPath });
  }

  private async unlock(): Promise<void> {
    if (!this.locked) return;
    this.locked = false;
    await rm(this.lockPath, { force: true });
  }

  private async openLocked(manifest: RunManifest): Promise<{ resumed: boolean; previousFormatVersion?: number }> {
    let resumed = false;
    let previousFormatVersion: number | undefined;
    if (existsSync(this.manifestPath)) {
      const { manifest: existing, formatVersion } = await this.readManifest();
      const sameRun = existing.fingerprint === manifest.fingerprint && shardText(existing.shard) === shardText(manifest.shard);
      if (!sameRun && !(await this.holdsResponses())) {
        // A run stopped before its first answer (a row its check refused, a Ctrl-C) left nothing
        // worth keeping: the corrected run takes the folder over instead of being sent elsewhere.
        await this.clearDerivedFiles();
        return this.startWriting(manifest, { resumed: false });
      }
      if (existing.fingerprint !== manifest.fingerprint) {
        throw new ConfigError(
          `${this.dir} already holds a different run (fingerprint ${existing.fingerprint.slice(0, 12)}, this run is ${manifest.fingerprint.slice(0, 12)}): ${describeRunDifference(existing, manifest)}; choose another --out folder, or put the setting back to continue the stored run`,
          { file: this.manifestPath },
        );
      }
      if (shardText(existing.shard) !== shardText(manifest.shard)) {
        throw new ConfigError(
          `${this.dir} holds ${shardText(existing.shard)} of this run, not ${shardText(manifest.shard)}; give each shard its own --out folder`,
          { file: this.manifestPath, keyPath: ["shard"] },
        );
      }
      resumed = true;
      previousFormatVersion = formatVersion;
      manifest = { ...manifest, createdAt: existing.createdAt, updatedAt: new Date().toISOString() };
    }
    return this.startWriting(manifest, { resumed, ...(previousFormatVersion !== undefined && previousFormatVersion !== RUN_FORMAT_VERSION ? { previousFormatVersion } : {}) });
  }

  private async startWriting<T>(manifest: RunManifest, opened: T): Promise<T> {
    await writeAtomic(this.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, this.dir);
    await repairTail(this.responsesPath);
    this.failure = undefined;
    this.failureRaised = false;
    this.out = this.appendStream(this.responsesPath);
    this.writable = true;
    return opened;
  }

  /** Whether responses.jsonl holds at least one record (a torn first line is none). */
  private async holdsResponses(): Promise<boolean> {
    if (!existsSync(this.responsesPath)) return false;
    const fh = await open(this.responsesPath, "r");
    try {
      const head = Buffer.alloc(64 * 1024);
      for (let at = 0; ; ) {
        const { bytesRead } = await fh.read(head, 0, head.length, at);
        if (bytesRead === 0) return false;
        if (head.subarray(0, bytesRead).includes(0x0a)) return true;
        at += bytesRead;
      }
    } finally {
      await fh.close();
    }
  }

  /** Removes what a previous run derived from its records: sample records, scores, results, stats, report. */
  private async clearDerivedFiles(): Promise<void> {
    for (const sub of ["samples", "scores"]) {
      const dir = join(this.dir, sub);
      for (const name of await readdir(dir)) if (name.endsWith(".jsonl")) await rm(join(dir, name), { force: true });
    }
    for (const name of ["responses.jsonl", "results.json", RUN_STATS_FILE, "report.html"]) await rm(join(this.dir, name), { force: true });
  }

  /** Lines of the last file read that were not valid records (1-based), with why. */
  readonly unreadableLines: UnreadableLine[] = [];

  /**
   * Streams the stored responses, upgrading older records. A line that is not a valid record
   * (hand-edited, disk trouble) is skipped and listed in `unreadableLines`, so its sample is asked
   * again rather than the run being lost.
   */
  async *readResponses(options: ResponseLineOptions = {}): AsyncGenerator<ResponseRecord> {
    this.unreadableLines.length = 0;
    yield* readJsonl(this.responsesPath, (line) => parseResponseLine(line, options), this.unreadableLines);
  }

  /** Streams the sample records of a task, in the order they were written. */
  async *readSamples(taskKey: string): AsyncGenerator<SampleRecord> {
    this.unreadableLines.length = 0;
    const path = this.samplesPath(taskKey);
    await repairTail(path, !this.writable);
    yield* readJsonl(path, parseSampleLine, this.unreadableLines);
  }

  /** Queues one response record (see `appendLine`). */
  append(record: ResponseRecord): void {
    this.appendLine(JSON.stringify(record));
  }

  /**
   * Queues a record the caller has already serialised (one line of JSON, no newline). Lines queued
   * in the same turn of the event loop go out in one write on the next turn: a busy run makes one
   * write call per batch instead of one per response, and a crash loses at most that one turn.
   */
  appendLine(json: string): void {
    this.raiseFailure();
    if (!this.out) throw new Error("run store is not open: call open(manifest) before appending");
    this.pending += `${json}\n`;
    if (this.pending.length >= 1 << 20) this.flushPending();
    else this.flushTimer ??= setImmediate(() => this.flushPending());
  }

  /** Queues a sample record of a task (samples/<task>.jsonl). */
  appendSample(record: SampleRecord): void {
    this.raiseFailure();
    if (!this.writable) throw new Error("run store is not open: call open(manifest) before appending");
    let out = this.sampleOut.get(record.task);
    if (!out) {
      out = { stream: this.appendStream(this.samplesPath(record.task)), pending: "" };
      this.sampleOut.set(record.task, out);
    }
    out.pending += `${JSON.stringify(record)}\n`;
    this.flushTimer ??= setImmediate(() => this.flushPending());
  }

  /** An append-only stream whose failure (a full disk) becomes the store's failure instead of a crash. */
  private appendStream(path: string): WriteStream {
    const stream = createWriteStream(path, { flags: "a" });
    stream.on("error", (err) => this.fail(err, path));
    return stream;
  }

  /** Records the first failed write and gives it to everyone waiting for their lines to be written. */
  private fail(err: unknown, path: string): void {
    if (this.failure !== undefined) return;
    this.failure = runStoreWriteError(err, path, this.dir);
    const waiters = this.waiters;
    this.waiters = [];
    if (waiters.length > 0) this.failureRaised = true;
    for (const w of waiters) w.reject(this.failure);
  }

  private raiseFailure(): void {
    if (this.failure === undefined) return;
    this.failureRaised = true;
    throw this.failure;
  }

  /** Callers of `written()` waiting for the lines queued so far to reach the operating system. */
  private waiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];

  /**
   * Resolves once every line queued so far has been handed to the operating system. The engine
   * awaits it before a worker takes its next sample, so a process killed at any moment loses only
   * the answers of samples still in flight (which it then asks again), never more.
   */
  written(): Promise<void> {
    if (this.failure !== undefined) {
      this.failureRaised = true;
      return Promise.reject(this.failure);
    }
    if (this.pending === "" && this.inFlightWrites === 0 && !this.samplesPending()) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private inFlightWrites = 0;

  private samplesPending(): boolean {
    for (const out of this.sampleOut.values()) if (out.pending !== "") return true;
    return false;
  }

  private flushPending(): void {
    if (this.flushTimer) clearImmediate(this.flushTimer);
    this.flushTimer = undefined;
    const waiters = this.waiters;
    this.waiters = [];
    const writes: { stream: WriteStream; path: string }[] = [];
    const chunks: string[] = [];
    if (this.pending !== "" && this.out) {
      writes.push({ stream: this.out, path: this.responsesPath });
      chunks.push(this.pending);
      this.pending = "";
    }
    for (const [task, out] of this.sampleOut) {
      if (out.pending === "") continue;
      writes.push({ stream: out.stream, path: this.samplesPath(task) });
      chunks.push(out.pending);
      out.pending = "";
    }
    let left = writes.length;
    if (left === 0) {
      // Nothing new to write, but earlier writes may still be under way: wait for them.
      if (waiters.length > 0) this.waiters.unshift(...waiters);
      return;
    }
    this.inFlightWrites += left;
    const settle = (list: typeof waiters): void => {
      if (this.failure !== undefined && list.length > 0) this.failureRaised = true;
      for (const w of list) {
        if (this.failure !== undefined) w.reject(this.failure);
        else w.resolve();
      }
    };
    const done = (): void => {
      this.inFlightWrites--;
      if (--left > 0) return;
      settle(waiters);
      if (this.inFlightWrites === 0 && this.pending === "") {
        const rest = this.waiters;
        this.waiters = [];
        settle(rest);
      }
    };
    for (let i = 0; i < writes.length; i++) {
      const { stream, path } = writes[i]!;
      stream.write(chunks[i]!, (err) => {
        if (err) this.fail(err, path);
        done();
      });
    }
  }

  /** Replaces a task's per-sample scores, streaming the lines (a task can have a million samples). */
  async writeScores(taskKey: string, lines: Iterable<ScoreRecord>): Promise<void> {
    await makeDirectory(join(this.dir, "scores"));
    const path = this.scoresPath(taskKey);
    const tmp = `${path}.tmp-${process.pid}`;
    const out = createWriteStream(tmp);
    try {
      let chunk = "";
      for (const line of lines) {
        chunk += `${JSON.stringify(line)}\n`;
        if (chunk.length >= 1 << 16) {
          if (!out.write(chunk)) await once(out, "drain"); // rejects on the stream's error
          chunk = "";
        }
      }
      out.end(chunk);
      await once(out, "finish");
      await rename(tmp, path);
    } catch (err) {
      out.destroy();
      await rm(tmp, { force: true }); // the scores before stay as they were
      throw runStoreWriteError(err, path, this.dir);
    }
  }

  /** A task's per-sample scores; a line that is not JSON is an error naming it and how to rewrite the file. */
  async readScores(taskKey: string): Promise<ScoreRecord[]> {
    const path = this.scoresPath(taskKey);
    if (!existsSync(path)) return [];
    const lines = (await readFile(path, "utf8")).split("\n");
    const out: ScoreRecord[] = [];
    for (const [i, text] of lines.entries()) {
      if (text !== "") out.push(this.parseDerived(text, path, i + 1) as ScoreRecord);
    }
    return out;
  }

  /** results.json as scoring wrote it; missing or not JSON is an error naming it and how to rewrite it. */
  async readResults(): Promise<RunResults> {
    if (!existsSync(this.resultsPath)) {
      throw new ConfigError(`${this.dir} has no results.json: it was not scored yet (run its command again to finish it, or \`yardstick score-run ${this.dir}\`)`, { file: this.resultsPath });
    }
    return this.parseDerived(await readFile(this.resultsPath, "utf8"), this.resultsPath) as RunResults;
  }

  /** Parses a file scoring derives from the records: damage to it loses nothing, `score-run` rewrites it. */
  private parseDerived(text: string, file: string, line?: number): unknown {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new ConfigError(`not valid JSON (${(err as Error).message}); the answers are intact: \`yardstick score-run ${this.dir}\` rewrites the scores`, {
        file,
        ...(line !== undefined ? { line } : {}),
      });
    }
  }

  async writeResults(results: unknown): Promise<void> {
    await writeAtomic(this.resultsPath, `${JSON.stringify(results, null, 2)}\n`, this.dir);
  }

  /** Writes run.json as given (merge and re-scoring write manifests they have checked themselves). */
  async writeManifest(manifest: RunManifest): Promise<void> {
    await makeDirectory(this.dir);
    await writeAtomic(this.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, this.dir);
  }

  /** Closes the store and releases its lock: `finishAppending`, then the lock file is removed. */
  async close(): Promise<void> {
    try {
      await this.finishAppending();
    } finally {
      await this.unlock();
    }
  }

  /**
   * Writes out and closes the append streams, keeping the lock: a run scores its store under the
   * same lock it answered under, so no other run or `score-run` rewrites it meanwhile.
   */
  async finishAppending(): Promise<void> {
    this.flushPending();
    const streams = [this.out, ...[...this.sampleOut.values()].map((o) => o.stream)].filter((s): s is WriteStream => s !== undefined);
    this.out = undefined;
    this.sampleOut.clear();
    this.writable = false;
    await Promise.all(
      streams.map(
        (s) =>
          new Promise<void>((resolve) =>
            s.end((err?: Error | null) => {
              if (err) this.fail(err, String(s.path));
              resolve();
            }),
          ),
      ),
    );
    // A failure nobody was given yet (the last lines' write) is raised here; one already raised is not raised twice.
    if (this.failure !== undefined && !this.failureRaised) this.raiseFailure();
  }
}

async function readLock(path: string): Promise<{ pid: number; host: string; since: string } | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as { pid?: unknown; host?: unknown; since?: unknown };
    if (typeof parsed.pid !== "number" || typeof parsed.host !== "string") return undefined;
    return { pid: parsed.pid, host: parsed.host, since: String(parsed.since ?? "?") };
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists here (EPERM: it exists but is someone else's). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Names only a run store has: a folder holding one of them is a store, or the start of one. */
const STORE_TRACES = new Set(["run.json", "responses.jsonl", "samples", "scores", "run.lock"]);

export function shardText(shard: Shard | undefined): string {
  return shard ? `shard ${shard.index}/${shard.count}` : "the whole run";
}

async function* readJsonl<T>(path: string, parse: (line: string) => ParsedLine<T>, unreadable: UnreadableLine[]): AsyncGenerator<T> {
  if (!existsSync(path)) return;
  for await (const batch of readJsonlLines(path)) {
    for (const { text, line } of batch) {
      const parsed = parse(text);
      if (parsed.ok) yield parsed.record;
      else unreadable.push({ file: path, line, problem: parsed.problem });
    }
  }
}

/**
 * A process killed mid-write can leave a partial last line: cut it so appends start clean. With
 * `readOnly` the file is left alone (the torn line is then reported as unreadable by the reader).
 */
async function repairTail(path: string, readOnly = false): Promise<void> {
  if (readOnly || !existsSync(path)) return;
  const { size } = await stat(path);
  if (size === 0) return;
  // Read backwards in chunks until the last newline: the file can be large, the torn tail is small.
  const fh = await open(path, "r");
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
        await truncate(path, start + nl + 1);
        return;
      }
      end = start;
    }
    await truncate(path, 0);
  } finally {
    await fh.close();
  }
}

export function slug(key: string): string {
  return key.replace(/[^A-Za-z0-9._-]+/g, "_");
}

/** Writes a file whole or not at all: on a full disk the file before stays as it was. */
async function writeAtomic(path: string, body: string, storeDir: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, body);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw runStoreWriteError(err, path, storeDir);
  }
}
