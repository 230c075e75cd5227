import { join } from "node:path";
import Database from "better-sqlite3";
import { hashToken, newToken } from "./tokens.js";

export interface Labeler {
  id: number;
  name: string;
}

export interface DoneRow {
  item: number;
  labeler: string;
  feedback: string;
  clientTime: string | null;
  serverTime: string;
}

export interface LabelerProgress {
  labeler: string;
  done: number;
  skipped: number;
}

/** One assignment row as the open region of a task keeps it in memory. */
interface RegionRow {
  labeler: number;
  state: "assigned" | "done" | "skipped";
  at: number;
}

/**
 * A task's open region: `start` (the frontier) is the index into the task's lines before which
 * every line has all its labels; `rows` holds every assignment row of the lines from `start` on,
 * the same rows SQLite has. `next` reads it instead of querying, so finding a labeler's next
 * sample costs a few map lookups, not a query returning every row of the open lines.
 */
interface Region {
  lines: readonly number[];
  indexOf: Map<number, number>;
  start: number;
  rows: Map<number, RegionRow[]>;
}

export class LabelStoreError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS labelers(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
-- One row per (task, item, labeler): the UNIQUE key is what guarantees nobody gets a sample twice.
CREATE TABLE IF NOT EXISTS assignments(
  id INTEGER PRIMARY KEY,
  task TEXT NOT NULL,
  item INTEGER NOT NULL,
  labeler_id INTEGER NOT NULL REFERENCES labelers(id),
  state TEXT NOT NULL CHECK (state IN ('assigned', 'done', 'skipped')),
  assigned_at INTEGER NOT NULL,
  seq INTEGER,
  feedback TEXT,
  client_time TEXT,
  server_time TEXT,
  UNIQUE (task, item, labeler_id)
);
CREATE INDEX IF NOT EXISTS assignments_by_task ON assignments(task, state);
CREATE INDEX IF NOT EXISTS assignments_by_labeler ON assignments(task, labeler_id, state);
CREATE INDEX IF NOT EXISTS assignments_by_seq ON assignments(seq);
`;

/**
 * The labels database (`labels.sqlite` in the data folder), the source of truth: WAL, by default
 * with synchronous=FULL, so a submission is on disk before it is acknowledged. better-sqlite3 is
 * synchronous, so every method runs as one transaction with nothing interleaved.
 */
export class LabelStore {
  private readonly db: Database.Database;
  /**
   * Per task, the index (into the task's lines) before which every line has all its labels. Lines
   * only fill up, except by undo, which resets it; so `next` looks at the open part of the task
   * alone and stays fast however many labels are stored. Valid while this process is the only
   * writer, which the server is.
   */
  private readonly frontier = new Map<string, number>();
  /** Per task: the open region (see `Region`), built from SQLite on first use. */
  private readonly regions = new Map<string, Region>();
  /** Per task: stored labels and lines with all their labels, kept in step by submit and undo. */
  private readonly counters = new Map<string, { labels: number; completeItems: number }>();
  /** Per task, per labeler: their done and skipped counts, kept in step like `counters`. */
  private readonly labelerCounts = new Map<string, Map<number, { done: number; skipped: number }>>();
  /** Labelers found by token hash (labelers are never renamed or removed while serving). */
  private readonly labelersByHash = new Map<string, Labeler>();
  private readonly labelerNames = new Map<number, string>();
  /**
   * Set when the in-memory views (frontier, regions, counters) change inside the current unit of
   * work (one batched call, or one direct call). If that unit then fails, SQLite rolls its writes
   * back and the views are dropped, to be rebuilt from SQLite; failures that changed nothing (a
   * 409 on a line not assigned to the caller) keep them.
   */
  private viewsChanged = false;
  private readonly commitListeners: ((committed: boolean) => void)[] = [];

  /**
   * `fsync` (default true): every commit is synced to disk before it is acknowledged, so not even
   * a power cut loses a label. false (WAL `synchronous=NORMAL`): a killed process still loses
   * nothing, an operating-system crash may lose the last commits; about twice the throughput.
   */
  constructor(dataDir: string, options: { fsync?: boolean } = {}) {
    this.db = new Database(join(dataDir, "labels.sqlite"));
    this.db.pragma("journal_mode = WAL");
    this.db.pragma(options.fsync === false ? "synchronous = NORMAL" : "synchronous = FULL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(SCHEMA);
    // One wrapper for every transaction: better-sqlite3 builds four functions per `transaction()`.
    this.inTransaction = this.db.transaction((fn: () => unknown) => fn());
  }

  /** Runs `fn` in a transaction, or in a savepoint when one is open. */
  private readonly inTransaction: (fn: () => unknown) => unknown;

  close(): void {
    this.db.close();
  }

  private queue: { fn: () => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];

  /**
   * Group commit: runs `fn` with the other calls queued in the same event-loop turn in one
   * transaction (one disk sync for all of them), each in its own savepoint so one refused call
   * (a 409) does not undo the others. Resolves after the commit, so an acknowledged label is stored.
   */
  batched<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
    });
  }

  /**
   * `listener(true)` runs after each group commit (batched or direct), before any of its callers
   * is answered; `listener(false)` after a group whose commit failed. The server appends the
   * group's lines to the results files there, in one write per file.
   */
  onCommit(listener: (committed: boolean) => void): void {
    this.commitListeners.push(listener);
  }

  private flush(): void {
    const jobs = this.queue;
    this.queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.inTransaction(() => {
        for (const job of jobs) {
          this.viewsChanged = false;
          try {
            outcomes.push({ ok: true, value: this.inTransaction(job.fn) });
          } catch (error) {
            if (this.viewsChanged) this.dropViews();
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of the batch is stored, and the in-memory view is stale.
      this.dropViews();
      for (const listener of this.commitListeners) listener(false);
      for (const job of jobs) job.reject(error);
      return;
    }
    for (const listener of this.commitListeners) listener(true);
    jobs.forEach((job, i) => {
      const o = outcomes[i];
      if (o?.ok) job.resolve(o.value);
      else job.reject(o?.error);
    });
  }

  /** Creates a labeler and returns the token, shown once; only its hash is stored. */
  addLabeler(name: string): string {
    const token = newToken("ylb");
    try {
      this.sql("INSERT INTO labelers(name, token_hash, created_at) VALUES (?, ?, ?)")
        .run(name, hashToken(token), new Date().toISOString());
    } catch (err) {
      if ((err as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") {
        throw new LabelStoreError(409, `a labeler named "${name}" already exists`);
      }
      throw err;
    }
    return token;
  }

  labelerByToken(token: string): Labeler | undefined {
    const hash = hashToken(token);
    const known = this.labelersByHash.get(hash);
    if (known) return known;
    // Not cached when unknown: `label add-labeler` may add it from another process meanwhile.
    const found = this.sql("SELECT id, name FROM labelers WHERE token_hash = ?").get(hash) as Labeler | undefined;
    if (found) this.labelersByHash.set(hash, found);
    return found;
  }

  private labelerName(id: number): string {
    let name = this.labelerNames.get(id);
    if (name === undefined) {
      name = (this.sql("SELECT name FROM labelers WHERE id = ?").get(id) as { name: string }).name;
      this.labelerNames.set(id, name);
    }
    return name;
  }

  /**
   * Runs `fn` as one transaction (inside a batched call, as part of the call's savepoint). A
   * direct call outside any transaction is its own unit of work: if it fails after changing the in-memory views, they are
   * dropped (SQLite rolled back what they describe); after it commits, the commit listeners run.
   */
  private write<T>(fn: () => T): T {
    // Inside a batched call the call's own savepoint already undoes everything if it fails.
    if (this.db.inTransaction) return fn();
    this.viewsChanged = false;
    let value: T;
    try {
      value = this.inTransaction(fn) as T;
    } catch (error) {
      if (this.viewsChanged) this.dropViews();
      for (const listener of this.commitListeners) listener(false);
      throw error;
    }
    for (const listener of this.commitListeners) listener(true);
    return value;
  }

  private dropViews(task?: string): void {
    for (const map of [this.frontier, this.regions, this.counters, this.labelerCounts]) {
      if (task === undefined) map.clear();
      else map.delete(task);
    }
  }

  /** The task's open region, built from SQLite (the rows of lines from the frontier on) when missing. */
  private region(task: string, lines: readonly number[]): Region {
    let region = this.regions.get(task);
    if (region && region.lines === lines) return region;
    const start = this.frontier.get(task) ?? 0;
    const indexOf = new Map(lines.map((line, i) => [line, i]));
    region = { lines, indexOf, start, rows: new Map() };
    if (start < lines.length) {
      const rows = this.sql("SELECT item, labeler_id AS labeler, state, assigned_at AS at FROM assignments WHERE task = ? AND item >= ?")
        .all(task, lines[start]) as ({ item: number } & RegionRow)[];
      for (const { item, labeler, state, at } of rows) {
        if ((indexOf.get(item) ?? -1) < start) continue;
        const list = region.rows.get(item);
        if (list) list.push({ labeler, state, at });
        else region.rows.set(item, [{ labeler, state, at }]);
      }
    }
    this.regions.set(task, region);
    return region;
  }

  /** The region's rows of `item`, or undefined when the item lies before the frontier. */
  private regionRows(task: string, item: number): RegionRow[] | undefined {
    const region = this.regions.get(task);
    if (!region) return undefined;
    const i = region.indexOf.get(item);
    if (i === undefined || i < region.start) return undefined;
    let list = region.rows.get(item);
    if (!list) {
      list = [];
      region.rows.set(item, list);
    }
    return list;
  }

  /**
   * The item this labeler works on: the open one if any, else the first item (in file order) they
   * have never been given whose finished labels plus live assignments are below `perItem`.
   * Assignments older than `leaseMs` stop holding a slot, so an abandoned tab blocks nobody.
   */
  next(task: string, labelerId: number, lines: readonly number[], perItem: number, leaseMs: number): number | undefined {
    return this.write(() => {
      const open = this.sql("SELECT item FROM assignments WHERE task = ? AND labeler_id = ? AND state = 'assigned'")
        .get(task, labelerId) as { item: number } | undefined;
      if (open) return open.item;
      const region = this.region(task, lines);
      this.viewsChanged = true;
      while (region.start < lines.length && countDone(region.rows.get(lines[region.start] as number)) >= perItem) {
        region.rows.delete(lines[region.start] as number);
        region.start++;
      }
      this.frontier.set(task, region.start);
      const now = Date.now();
      let line: number | undefined;
      for (let i = region.start; i < lines.length; i++) {
        const candidate = lines[i] as number;
        const rows = region.rows.get(candidate);
        if (!rows) {
          line = candidate;
          break;
        }
        let load = 0;
        let taken = false;
        for (const r of rows) {
          if (r.labeler === labelerId) taken = true;
          if (r.state === "done" || (r.state === "assigned" && r.at > now - leaseMs)) load++;
        }
        if (!taken && load < perItem) {
          line = candidate;
          break;
        }
      }
      if (line === undefined) return undefined;
      this.sql("INSERT INTO assignments(task, item, labeler_id, state, assigned_at) VALUES (?, ?, ?, 'assigned', ?)")
        .run(task, line, labelerId, now);
      this.regionRows(task, line)?.push({ labeler: labelerId, state: "assigned", at: now });
      return line;
    });
  }

  /** Records a label for the labeler's open assignment of `item`; refuses anything else with 409. */
  submit(task: string, labelerId: number, item: number, feedback: string, clientTime: string | null, perItem: number): DoneRow {
    return this.write(() => {
      const row = this.openRow(task, labelerId, item);
      // `+state` keeps SQLite on the (task, item, labeler) key instead of scanning every done row of the task.
      const done = this.sql("SELECT COUNT(*) AS n FROM assignments WHERE task = ? AND item = ? AND +state = 'done'")
        .get(task, item) as { n: number };
      if (done.n >= perItem) {
        this.sql("DELETE FROM assignments WHERE id = ?").run(row.id);
        this.setRegionState(task, item, labelerId, undefined);
        throw new LabelStoreError(409, `line ${item} already has its ${perItem} label(s); ask for the next sample`);
      }
      const serverTime = new Date().toISOString();
      this.sql("UPDATE assignments SET state = 'done', seq = ?, feedback = ?, client_time = ?, server_time = ? WHERE id = ?")
        .run(this.nextSeq(), feedback, clientTime, serverTime, row.id);
      this.setRegionState(task, item, labelerId, "done");
      const counts = this.counters.get(task);
      if (counts) {
        counts.labels++;
        if (done.n + 1 === perItem) counts.completeItems++;
      }
      const mine = this.labelerCounts.get(task)?.get(labelerId);
      if (mine) mine.done++;
      return { item, labeler: this.labelerName(labelerId), feedback, clientTime, serverTime };
    });
  }

  /** Keeps the open region in step with a row's new state (undefined: the row was deleted). */
  private setRegionState(task: string, item: number, labelerId: number, state: RegionRow["state"] | undefined): void {
    this.viewsChanged = true;
    const rows = this.regionRows(task, item);
    const i = rows?.findIndex((r) => r.labeler === labelerId) ?? -1;
    if (!rows || i < 0) return;
    if (state === undefined) rows.splice(i, 1);
    else (rows[i] as RegionRow).state = state;
  }

  skip(task: string, labelerId: number, item: number): void {
    this.write(() => {
      const row = this.openRow(task, labelerId, item);
      this.sql("UPDATE assignments SET state = 'skipped', seq = ?, server_time = ? WHERE id = ?").run(this.nextSeq(), new Date().toISOString(), row.id);
      this.setRegionState(task, item, labelerId, "skipped");
      const mine = this.labelerCounts.get(task)?.get(labelerId);
      if (mine) mine.skipped++;
    });
  }

  /**
   * Reopens the labeler's last submitted or skipped item (its label is removed) and releases the
   * item they had open, so the undone one is what they see next. Returns it, and whether a label
   * was removed (the results file then has to be rewritten).
   */
  undo(task: string, labelerId: number): { item: number; removedLabel: boolean } {
    return this.write(() => {
      const last = this.sql(
          "SELECT id, item, state FROM assignments WHERE task = ? AND labeler_id = ? AND state IN ('done', 'skipped') ORDER BY seq DESC LIMIT 1",
        )
        .get(task, labelerId) as { id: number; item: number; state: string } | undefined;
      if (!last) throw new LabelStoreError(409, "nothing to undo in this task");
      // The line may drop below its label count: counters, frontier and region are recomputed.
      this.viewsChanged = true;
      this.dropViews(task);
      this.sql("DELETE FROM assignments WHERE task = ? AND labeler_id = ? AND state = 'assigned'").run(task, labelerId);
      this.sql(
          "UPDATE assignments SET state = 'assigned', seq = NULL, feedback = NULL, client_time = NULL, server_time = NULL, assigned_at = ? WHERE id = ?",
        )
        .run(Date.now(), last.id);
      return { item: last.item, removedLabel: last.state === "done" };
    });
  }

  doneRows(task: string): DoneRow[] {
    return this.sql(
        `SELECT a.item AS item, l.name AS labeler, a.feedback AS feedback, a.client_time AS clientTime, a.server_time AS serverTime
         FROM assignments a JOIN labelers l ON l.id = a.labeler_id
         WHERE a.task = ? AND a.state = 'done' ORDER BY a.seq`,
      )
      .all(task) as DoneRow[];
  }

  /** Every labeler's counts in a task (the admin's view). */
  progress(task: string): LabelerProgress[] {
    return this.sql(
        `SELECT l.name AS labeler, SUM(a.state = 'done') AS done, SUM(a.state = 'skipped') AS skipped
         FROM assignments a JOIN labelers l ON l.id = a.labeler_id
         WHERE a.task = ? GROUP BY l.name ORDER BY l.name`,
      )
      .all(task) as LabelerProgress[];
  }

  /** One labeler's counts in a task (counted once, then kept in step by submit, skip and undo). */
  labelerProgress(task: string, labeler: Labeler): LabelerProgress {
    let perLabeler = this.labelerCounts.get(task);
    if (!perLabeler) {
      perLabeler = new Map();
      this.labelerCounts.set(task, perLabeler);
    }
    let counts = perLabeler.get(labeler.id);
    if (!counts) {
      counts = this.sql("SELECT COALESCE(SUM(state = 'done'), 0) AS done, COALESCE(SUM(state = 'skipped'), 0) AS skipped FROM assignments WHERE task = ? AND labeler_id = ?")
        .get(task, labeler.id) as { done: number; skipped: number };
      perLabeler.set(labeler.id, counts);
    }
    return { labeler: labeler.name, ...counts };
  }

  /** Stored labels and lines that have all `perItem` labels (counted once, then kept in step). */
  totals(task: string, perItem: number): { labels: number; completeItems: number } {
    let counts = this.counters.get(task);
    if (!counts) {
      const labels = this.sql("SELECT COUNT(*) AS n FROM assignments WHERE task = ? AND state = 'done'").get(task) as { n: number };
      const complete = this.sql("SELECT COUNT(*) AS n FROM (SELECT item FROM assignments WHERE task = ? AND state = 'done' GROUP BY item HAVING COUNT(*) >= ?)")
        .get(task, perItem) as { n: number };
      counts = { labels: labels.n, completeItems: complete.n };
      this.counters.set(task, counts);
    }
    return { ...counts };
  }

  private openRow(task: string, labelerId: number, item: number): { id: number } {
    const row = this.sql("SELECT id FROM assignments WHERE task = ? AND labeler_id = ? AND item = ? AND state = 'assigned'")
      .get(task, labelerId, item) as { id: number } | undefined;
    if (!row) throw new LabelStoreError(409, `line ${item} is not assigned to you (ask for the next sample first)`);
    return row;
  }

  private nextSeq(): number {
    // A bare MAX() so SQLite answers it from the seq index instead of scanning the table.
    const r = this.sql("SELECT MAX(seq) AS n FROM assignments").get() as { n: number | null };
    return (r.n ?? 0) + 1;
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** Prepared once per SQL text: preparing costs more than running these small statements. */
  private sql(text: string): Database.Statement {
    let st = this.statements.get(text);
    if (!st) {
      st = this.db.prepare(text);
      this.statements.set(text, st);
    }
    return st;
  }
}

function countDone(rows: readonly RegionRow[] | undefined): number {
  let n = 0;
  for (const r of rows ?? []) if (r.state === "done") n++;
  return n;
}
