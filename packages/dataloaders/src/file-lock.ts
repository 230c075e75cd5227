/**
 * A lock file shared by processes on one cache folder (shards of a run, two runs at once), so one of
 * them downloads a file while the others wait, rather than all appending to the same partial file.
 * The lock is created exclusively (`wx`) and holds `<pid> <host>`; a lock whose process is gone (same
 * host) or that nobody has touched for an hour (another host, on a shared disk) is stale and taken
 * over. The holder touches it every 30 s.
 */
import { open, readFile, rm, stat, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import * as path from "node:path";
import { sleep } from "@yardstick/http";
import { makeDirectory } from "@yardstick/core";

export interface FileLockOptions {
  signal?: AbortSignal;
  /** How often a waiter looks again (default 200 ms). */
  pollMs?: number;
  /** Called once when the lock is held by someone else. */
  onWait?: (holder: string) => void;
}

const STALE_MS = 60 * 60 * 1000;
const TOUCH_MS = 30_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as { code?: string }).code === "EPERM";
  }
}

/** The holder's `<pid> <host>`, and whether the lock is stale. */
async function inspect(lock: string): Promise<{ holder: string; stale: boolean } | undefined> {
  let text: string;
  let mtime: number;
  try {
    text = (await readFile(lock, "utf8")).trim();
    mtime = (await stat(lock)).mtimeMs;
  } catch {
    return undefined;
  }
  const [pid, host] = text.split(" ");
  const old = Date.now() - mtime > STALE_MS;
  if (host === hostname() && pid !== undefined && /^\d+$/.test(pid)) return { holder: text, stale: !isAlive(Number(pid)) || old };
  // Being written this instant, or another host's: only age makes it stale.
  return { holder: text || "(unknown)", stale: old };
}

/** Runs `fn` holding the lock file `lock`. */
export async function withFileLock<T>(lock: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  await makeDirectory(path.dirname(lock));
  let told = false;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      const handle = await open(lock, "wx");
      try {
        await handle.writeFile(`${process.pid} ${hostname()}`);
      } finally {
        await handle.close();
      }
      break;
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST") throw e;
    }
    const state = await inspect(lock);
    if (state?.stale) {
      await rm(lock, { force: true });
      continue;
    }
    if (state && !told) {
      options.onWait?.(state.holder);
      told = true;
    }
    await sleep(options.pollMs ?? 200, options.signal);
  }
  const touch = setInterval(() => {
    const now = new Date();
    utimes(lock, now, now).catch(() => {});
  }, TOUCH_MS);
  touch.unref();
  try {
    return await fn();
  } finally {
    clearInterval(touch);
    await rm(lock, { force: true });
  }
}
