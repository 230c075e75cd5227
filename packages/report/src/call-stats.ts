import { IdNumbers } from "@yardstick/core";
import type { ResponseRecord } from "@yardstick/run-format";

/** The `call` of a loglikelihood row's first-pass generate record (the engine's FIRST_PASS_CALL). */
export const FIRST_PASS_CALL = "first-pass";

/** Counts over the latest answer of each sample of a task (history records count as calls only). */
export interface TaskStats {
  calls: number;
  answered: number;
  errors: number;
  cached: number;
  promptTokens: number;
  completionTokens: number;
  latencyMsTotal: number;
  latencyCount: number;
  /** Calls asked again after an earlier record of the same call (a failed attempt retried on resume). */
  retried: number;
  /** First and last record time (ISO), for the task's wall time. */
  firstTime?: string;
  lastTime?: string;
}

export function emptyTaskStats(): TaskStats {
  return { calls: 0, answered: 0, errors: 0, cached: 0, promptTokens: 0, completionTokens: 0, latencyMsTotal: 0, latencyCount: 0, retried: 0 };
}

const IS_ERROR = 1;
const IS_PENDING = 2;
const IS_CACHED = 4;
const IS_FIRST_PASS = 8;
const HAS_LATENCY = 16;

/** The latest generate record of each call, one row per call in typed columns (~25 bytes a row, besides its key's ~30 in `IdNumbers`). */
class CallColumns {
  size = 0;
  task = new Uint16Array(1024);
  turn = new Uint16Array(1024);
  flags = new Uint8Array(1024);
  promptTokens = new Uint32Array(1024);
  completionTokens = new Uint32Array(1024);
  latencyMs = new Float64Array(1024);

  /** Makes room for row `row`. */
  reserve(row: number): void {
    if (row < this.task.length) return;
    const size = this.task.length * 2;
    this.task = grown(this.task, size);
    this.turn = grown(this.turn, size);
    this.flags = grown(this.flags, size);
    this.promptTokens = grown(this.promptTokens, size);
    this.completionTokens = grown(this.completionTokens, size);
    this.latencyMs = grown(this.latencyMs, size);
  }
}

/**
 * The task counts of the report, over the latest generate record of every call (task, sample,
 * turn, call) at each sample's last turn. Calls are kept as rows of numbers, not record objects,
 * so the counts of a store of a million samples take tens of megabytes while the sample browser
 * shows only some of them. Samples get numbers of their own only once a store turns out to hold
 * a second turn (a single-turn store's calls are all at their sample's last turn).
 */
export class CallStats {
  private readonly calls = new IdNumbers();
  private readonly columns = new CallColumns();
  private readonly taskKeys: string[] = [];
  private readonly taskNumbers = new Map<string, number>();
  /** Multi-turn stores only: each call's sample and each sample's last turn. */
  private turns: { samples: IdNumbers; sampleOfCall: Uint32Array; lastTurn: Uint16Array } | undefined;

  /** Counts one generate record (in file order: a later record of the same call replaces the earlier). */
  add(r: ResponseRecord, stats: TaskStats): void {
    stats.calls++;
    if (!stats.firstTime || r.time < stats.firstTime) stats.firstTime = r.time;
    if (!stats.lastTime || r.time > stats.lastTime) stats.lastTime = r.time;
    const known = this.calls.size;
    const row = this.calls.number(callKey(r.task, r.sample, r.turn, r.call ?? ""));
    if (row < known) stats.retried++;
    let task = this.taskNumbers.get(r.task);
    if (task === undefined) {
      task = this.taskKeys.length;
      this.taskKeys.push(r.task);
      this.taskNumbers.set(r.task, task);
    }
    const c = this.columns;
    c.reserve(row);
    c.size = Math.max(c.size, row + 1);
    c.task[row] = task;
    c.turn[row] = r.turn;
    c.flags[row] =
      // An interrupted call (the run was stopped) has no answer yet, like a pending batch request: no error.
      (r.status === "pending" || r.error?.kind === "interrupted" ? IS_PENDING : r.status === "error" ? IS_ERROR : 0) |
      (r.cached ? IS_CACHED : 0) |
      (r.call === FIRST_PASS_CALL ? IS_FIRST_PASS : 0) |
      (r.latencyMs !== undefined ? HAS_LATENCY : 0);
    c.promptTokens[row] = r.usage?.promptTokens ?? 0;
    c.completionTokens[row] = r.usage?.completionTokens ?? 0;
    c.latencyMs[row] = r.latencyMs ?? 0;
    if (r.turn > 1 && !this.turns) this.numberSamples();
    if (this.turns) this.noteTurn(row, r.task, r.sample, r.turn);
  }

  /** The first record of a later turn: numbers the samples of every call so far. */
  private numberSamples(): void {
    this.turns = { samples: new IdNumbers(), sampleOfCall: new Uint32Array(this.columns.task.length), lastTurn: new Uint16Array(1024) };
    for (let row = 0; row < this.calls.size; row++) {
      const key = this.calls.at(row);
      const [task, sample] = key.split("\u0000");
      this.noteTurn(row, task!, sample!, this.columns.turn[row]!);
    }
  }

  private noteTurn(row: number, task: string, sample: string, turn: number): void {
    const t = this.turns!;
    const s = t.samples.number(`${task}\u0000${sample}`);
    if (row >= t.sampleOfCall.length) t.sampleOfCall = grown(t.sampleOfCall, this.columns.task.length);
    t.sampleOfCall[row] = s;
    if (s >= t.lastTurn.length) t.lastTurn = grown(t.lastTurn, t.lastTurn.length * 2);
    if (t.lastTurn[s]! < turn) t.lastTurn[s] = turn;
  }

  /** Adds the latest-answer counts (answered, errors, cached, tokens, latency) to each task's stats. */
  addTotals(statsOf: (task: string) => TaskStats): void {
    const c = this.columns;
    const t = this.turns;
    for (let row = 0; row < c.size; row++) {
      if (t && t.lastTurn[t.sampleOfCall[row]!] !== c.turn[row]) continue;
      const stats = statsOf(this.taskKeys[c.task[row]!]!);
      const flags = c.flags[row]!;
      stats.promptTokens += c.promptTokens[row]!;
      stats.completionTokens += c.completionTokens[row]!;
      // A loglikelihood row's first pass (SEA-HELM logprob tasks): its tokens count; the row's own record is the answer.
      if (flags & IS_FIRST_PASS) continue;
      if (flags & IS_CACHED) stats.cached++;
      if (flags & HAS_LATENCY) {
        stats.latencyMsTotal += c.latencyMs[row]!;
        stats.latencyCount++;
      }
      if (flags & IS_ERROR) stats.errors++;
      else if (!(flags & IS_PENDING)) stats.answered++;
    }
  }
}

function callKey(task: string, sample: string, turn: number, call: string): string {
  return `${task}\u0000${sample}\u0000${turn}\u0000${call}`;
}

type Column = Uint8Array | Uint16Array | Uint32Array | Float64Array;

function grown<T extends Column>(from: T, size: number): T {
  const into = new (from.constructor as new (n: number) => T)(Math.max(size, from.length));
  into.set(from);
  return into;
}
