import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";

/**
 * The request cache: one SQLite database (WAL) shared by every run on the machine, keyed by a hash of
 * the canonical request and the model identity. Writes are buffered and committed in one transaction
 * per batch so a busy run does not pay a synchronous commit per response.
 */
export interface RequestCache {
  get(key: string): unknown | undefined;
  put(key: string, modelIdentity: string, value: unknown): void;
  /** Commits buffered writes. Called on a timer, at the end of a run and on shutdown. */
  flush(): void;
  close(): void;
  readonly path: string;
}

export interface RequestCacheSettings {
  path: string;
  /** Buffered writes are committed after this many milliseconds (default 200). */
  flushIntervalMs?: number;
  /** ... or once this many are buffered (default 500). */
  maxBuffered?: number;
}

export function openRequestCache(settings: RequestCacheSettings): RequestCache {
  if (settings.path !== ":memory:") mkdirSync(dirname(settings.path), { recursive: true });
  const db = new Database(settings.path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.exec(
    `CREATE TABLE IF NOT EXISTS responses (
       key TEXT PRIMARY KEY,
       model TEXT NOT NULL,
       value TEXT NOT NULL,
       created_at INTEGER NOT NULL
     )`,
  );
  const select = db.prepare<[string], { value: string }>("SELECT value FROM responses WHERE key = ?");
  const insert = db.prepare("INSERT OR REPLACE INTO responses (key, model, value, created_at) VALUES (?, ?, ?, ?)");
  const pending = new Map<string, [string, string]>();
  const insertAll = db.transaction((rows: [string, [string, string]][]) => {
    const now = Date.now();
    for (const [key, [model, value]] of rows) insert.run(key, model, value, now);
  });
  const maxBuffered = settings.maxBuffered ?? 500;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = (): void => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.size === 0 || closed) return;
    const rows = [...pending.entries()];
    pending.clear();
    insertAll(rows);
  };

  return {
    path: settings.path,
    get(key) {
      const buffered = pending.get(key);
      if (buffered) return JSON.parse(buffered[1]);
      const row = select.get(key);
      return row ? JSON.parse(row.value) : undefined;
    },
    put(key, modelIdentity, value) {
      pending.set(key, [modelIdentity, JSON.stringify(value)]);
      if (pending.size >= maxBuffered) flush();
      else if (!timer) {
        timer = setTimeout(flush, settings.flushIntervalMs ?? 200);
        timer.unref();
      }
    },
    flush,
    close() {
      flush();
      closed = true;
      db.close();
    },
  };
}
