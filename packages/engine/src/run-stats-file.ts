import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type RunSession, type RunStats, runStatsSchema } from "@yardstick/run-format";

/** The statistics file of a run store, beside results.json (see docs/run-format.md). */
export const RUN_STATS_FILE = "run-stats.json";
export const RUN_STATS_FORMAT_VERSION = 1;

/**
 * Appends a session to `<dir>/run-stats.json` (replaced atomically). A file that does not parse
 * (hand-edited, from a newer yardstick) is replaced rather than failing the run at its very end:
 * the statistics are a record of how the answers came, not part of the results.
 */
export async function appendRunSession(dir: string, session: RunSession): Promise<{ path: string; replacedUnreadable: boolean }> {
  const { stats, unreadable } = await readRunStats(dir);
  stats.sessions.push(session);
  return { path: await writeRunStats(dir, stats), replacedUnreadable: unreadable };
}

/** The store's run-stats.json; empty when there is none, and `unreadable` when it does not parse in this format version. */
export async function readRunStats(dir: string): Promise<{ stats: RunStats; unreadable: boolean }> {
  const path = join(dir, RUN_STATS_FILE);
  const empty: RunStats = { formatVersion: RUN_STATS_FORMAT_VERSION, sessions: [] };
  if (!existsSync(path)) return { stats: empty, unreadable: false };
  const parsed = runStatsSchema.safeParse(parseJson(await readFile(path, "utf8")));
  if (parsed.success && parsed.data.formatVersion === RUN_STATS_FORMAT_VERSION) return { stats: parsed.data, unreadable: false };
  return { stats: empty, unreadable: true };
}

/** Writes `<dir>/run-stats.json`, replaced atomically; returns its path. */
export async function writeRunStats(dir: string, stats: RunStats): Promise<string> {
  const path = join(dir, RUN_STATS_FILE);
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, `${JSON.stringify(stats, null, 2)}\n`);
  await rename(tmp, path);
  return path;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
