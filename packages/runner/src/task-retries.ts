import { RunStore, readRunStats } from "@yardstick/engine";
import type { RunResults } from "@yardstick/run-format";

/**
 * Adds to results.json, next to each task's `errors`, the extra attempts its requests took over every
 * run of the store (run-stats.json's sessions summed: a resumed run's earlier sessions and, merged,
 * every shard's), and returns them for the results table. Scoring itself leaves them out, so that
 * its results.json stays a function of the answers; a store without run statistics (written through
 * the library rather than the CLI) keeps results.json as it is and gets undefined.
 */
export async function recordTaskRetries(dir: string): Promise<{ results: RunResults; retries?: Map<string, number> }> {
  const store = new RunStore(dir);
  const results = await store.readResults();
  const { stats } = await readRunStats(dir);
  if (stats.sessions.length === 0) return { results };
  const retries = new Map<string, number>();
  for (const session of stats.sessions) {
    for (const [task, totals] of Object.entries(session.byTask)) retries.set(task, (retries.get(task) ?? 0) + totals.retries);
  }
  for (const [task, meta] of Object.entries(results.meta.tasks)) meta.retries = retries.get(task) ?? 0;
  await store.writeResults(results);
  return { results, retries };
}
