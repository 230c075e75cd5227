import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError, makeDirectorySync } from "@yardstick/core";
import Database from "better-sqlite3";
import { notACache, prepareCacheSchema, REQUEST_CACHE_FORMAT } from "./request-cache-format.js";
import { decodeValue, encodeValue } from "./request-cache-values.js";
import { requestCacheError } from "./storage-error.js";

/**
 * The request cache: one SQLite database (WAL) shared by every run on the machine, keyed by a hash of
 * the canonical request and the model identity (see `resolveModelIdentity`). Writes are buffered and
 * committed in one transaction per batch so a busy run does not pay a synchronous commit per
 * response. The file carries a format version (see request-cache-format.ts).
 */
export interface RequestCache {
  get(key: string): unknown | undefined;
  /**
   * Looks these keys up in one query and keeps what it found (and what it did not) for the `get`s
   * that follow: one statement per batch instead of one per request, which is most of what a cached
   * re-run costs. Optional: a cache without it is asked key by key.
   */
  prefetch?(keys: readonly string[]): void;
  put(key: string, modelIdentity: string, value: unknown): void;
  /** Commits buffered writes. Called on a timer, at the end of a run and on shutdown. */
  flush(): void;
  /** What the cache holds (buffered writes are committed first). */
  info(): RequestCacheInfo;
  /** Removes every entry, or those of model identities starting with `model`; returns how many. */
  clear(options?: { model?: string }): number;
  /** Removes entries older than `olderThanDays` and/or of identities starting with `model`; returns how many. */
  prune(options: { olderThanDays?: number; model?: string }): number;
  close(): void;
  readonly path: string;
}

export interface RequestCacheSettings {
  path: string;
  /** Buffered writes are committed after this many milliseconds (default 200). */
  flushIntervalMs?: number;
  /** ... or once this many are buffered (default 500). */
  maxBuffered?: number;
  /** Refuse to create the file when it does not exist (maintenance commands). */
  mustExist?: boolean;
  /**
   * The most pages (of 4 KiB) the file may grow to; SQLite then answers SQLITE_FULL as on a full
   * disk. Unset: no bound of its own.
   */
  maxPages?: number;
  /** The time entries are stamped with and ages are measured from (default Date.now). */
  clock?: () => number;
}

export interface RequestCacheModelInfo {
  model: string;
  entries: number;
  /** Times in milliseconds since the epoch. */
  oldest: number;
  newest: number;
}

export interface RequestCacheInfo {
  path: string;
  formatVersion: number;
  /** Bytes on disk: the database file plus its WAL and shared-memory files. */
  sizeBytes: number;
  entries: number;
  /** Per model identity, most entries first. */
  models: RequestCacheModelInfo[];
  oldest?: number;
  newest?: number;
}

const DAY_MS = 86_400_000;
/** Keys per prefetch query (SQLite allows 32,766 parameters). */
const PREFETCH_BATCH = 256;
/** Prefetched answers not asked for yet are dropped beyond this many, oldest first. */
const PREFETCH_KEEP = 4096;

export function openRequestCache(settings: RequestCacheSettings): RequestCache {
  const path = settings.path;
  const inMemory = path === ":memory:";
  if (!inMemory && settings.mustExist && !existsSync(path)) throw new ConfigError("no request cache here (nothing has been cached yet)", { file: path });
  if (!inMemory) makeDirectorySync(dirname(path));
  const db = openDatabase(path, settings.mustExist === true);
  if (settings.maxPages !== undefined) db.pragma(`max_page_count = ${Math.max(1, Math.floor(settings.maxPages))}`);
  const clock = settings.clock ?? Date.now;
  const select = db.prepare<[string], { value: string; shape: number }>("SELECT value, shape FROM responses WHERE key = ?");
  const insert = db.prepare("INSERT OR REPLACE INTO responses (key, model, value, created_at, shape) VALUES (?, ?, ?, ?, ?)");
  const selectMany = db.prepare<[string[]], { key: string; value: string; shape: number }>(
    `SELECT key, value, shape FROM responses WHERE key IN (${Array.from({ length: PREFETCH_BATCH }, () => "?").join(",")})`,
  );
  const pending = new Map<string, { model: string; text: string; shape: number }>();
  // Answers of prefetched keys until their `get`; `null`: the key was looked up and not found.
  const prefetched = new Map<string, { value: string; shape: number } | null>();
  const insertAll = db.transaction((rows: [string, { model: string; text: string; shape: number }][]) => {
    const now = clock();
    for (const [key, r] of rows) insert.run(key, r.model, r.text, now, r.shape);
  });
  const maxBuffered = settings.maxBuffered ?? 500;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // A full disk or a damaged page: kept, and raised by every later call (a flush on the timer has
  // no caller to raise it to). `raised`: whether some caller has seen it already.
  let failure: unknown;
  let raised = false;

  /** Runs a database operation; SQLite's disk and corruption errors become one message naming the file. */
  const guard = <T>(op: () => T): T => {
    if (failure !== undefined) {
      raised = true;
      throw failure;
    }
    try {
      return op();
    } catch (err) {
      const translated = requestCacheError(err, path);
      if (translated === err) throw err;
      failure = translated;
      raised = true;
      throw translated;
    }
  };

  const flush = (): void => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (closed) return;
    guard(() => {
      if (pending.size === 0) return;
      const rows = [...pending.entries()];
      pending.clear();
      insertAll(rows);
    });
  };

  const flushOnTimer = (): void => {
    try {
      flush();
    } catch {
      raised = false; // nobody has seen it yet: the next call raises it
    }
  };

  /** `model LIKE prefix%` without LIKE's wildcards and case folding. */
  const modelFilter = (model: string | undefined): { sql: string; params: string[] } =>
    model === undefined ? { sql: "1", params: [] } : { sql: "substr(model, 1, length(?)) = ?", params: [model, model] };

  /** Gives the space of deleted rows back to the file system. */
  const reclaim = (): void => {
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.exec("VACUUM");
    db.pragma("wal_checkpoint(TRUNCATE)");
  };

  const remove = (where: string, params: (string | number)[]): number => {
    flush();
    prefetched.clear();
    return guard(() => {
      const removed = db.prepare(`DELETE FROM responses WHERE ${where}`).run(...params).changes;
      if (removed > 0 && !inMemory) reclaim();
      return removed;
    });
  };

  const sizeOnDisk = (): number => {
    if (inMemory) return 0;
    let total = 0;
    for (const f of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(f)) total += statSync(f).size;
    return total;
  };

  return {
    path,
    get(key) {
      const buffered = pending.get(key);
      if (buffered && failure === undefined) return decodeValue(buffered.text, buffered.shape);
      const known = prefetched.get(key);
      if (known !== undefined && failure === undefined) {
        prefetched.delete(key);
        return known === null ? undefined : decodeValue(known.value, known.shape);
      }
      const row = guard(() => select.get(key));
      return row ? decodeValue(row.value, row.shape) : undefined;
    },
    prefetch(keys) {
      guard(() => {
        for (let start = 0; start < keys.length; start += PREFETCH_BATCH) {
          const batch = keys.slice(start, start + PREFETCH_BATCH);
          for (const key of batch) prefetched.set(key, null);
          // Unused parameters are bound to "", which no key is.
          const params = batch.length === PREFETCH_BATCH ? batch : [...batch, ...Array.from({ length: PREFETCH_BATCH - batch.length }, () => "")];
          for (const row of selectMany.all(params)) prefetched.set(row.key, { value: row.value, shape: row.shape });
        }
      });
      for (const key of prefetched.keys()) {
        if (prefetched.size <= PREFETCH_KEEP) break;
        prefetched.delete(key);
      }
    },
    put(key, modelIdentity, value) {
      if (failure !== undefined) guard(() => undefined); // raises it: the run stops at the first failure
      const { text, shape } = encodeValue(value);
      pending.set(key, { model: modelIdentity, text, shape });
      prefetched.delete(key); // a miss looked up before this answer came is no longer one
      if (pending.size >= maxBuffered) flush();
      else if (!timer) {
        timer = setTimeout(flushOnTimer, settings.flushIntervalMs ?? 200);
        timer.unref();
      }
    },
    flush,
    info() {
      flush();
      const models = guard(() =>
        db
          .prepare<[], RequestCacheModelInfo>(
            "SELECT model, count(*) AS entries, min(created_at) AS oldest, max(created_at) AS newest FROM responses GROUP BY model ORDER BY entries DESC, model",
          )
          .all(),
      );
      const entries = models.reduce((n, m) => n + m.entries, 0);
      const info: RequestCacheInfo = { path, formatVersion: REQUEST_CACHE_FORMAT, sizeBytes: sizeOnDisk(), entries, models };
      if (models.length > 0) {
        info.oldest = Math.min(...models.map((m) => m.oldest));
        info.newest = Math.max(...models.map((m) => m.newest));
      }
      return info;
    },
    clear(options = {}) {
      const f = modelFilter(options.model);
      return remove(f.sql, f.params);
    },
    prune(options) {
      const { olderThanDays, model } = options;
      if (olderThanDays === undefined && model === undefined) {
        throw new ConfigError("prune needs an age (olderThanDays) or a model; clear removes everything");
      }
      if (olderThanDays !== undefined && !(Number.isFinite(olderThanDays) && olderThanDays >= 0)) {
        throw new ConfigError(`olderThanDays must be a number of days >= 0, got ${olderThanDays}`);
      }
      const f = modelFilter(model);
      if (olderThanDays === undefined) return remove(f.sql, f.params);
      return remove(`created_at < ? AND ${f.sql}`, [clock() - olderThanDays * DAY_MS, ...f.params]);
    },
    close() {
      if (closed) return;
      try {
        if (failure === undefined) flush();
      } finally {
        closed = true;
        db.close();
      }
      // A failure only the timer saw is raised here, once; one a caller saw already is not raised again.
      if (failure !== undefined && !raised) {
        raised = true;
        throw failure;
      }
    },
  };
}

/** Opens (or creates) the database and brings its schema to the current format. */
function openDatabase(path: string, mustExist: boolean): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: mustExist });
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    prepareCacheSchema(db, path);
    return db;
  } catch (err) {
    db?.close();
    if (ConfigError.isInstance(err)) throw err;
    // A full disk or a damaged page says so; a file that is no database at all is "not a cache".
    if ((err as { code?: unknown }).code !== "SQLITE_NOTADB") {
      const translated = requestCacheError(err, path);
      if (translated !== err) throw translated;
    }
    // Anything else: a file we cannot use. Name it; do not touch it.
    throw notACache(path, `SQLite says: ${(err as Error).message}`, err);
  }
}
