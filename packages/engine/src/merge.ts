import { once } from "node:events";
import { createWriteStream, existsSync, readdirSync, type WriteStream } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError, makeDirectory } from "@yardstick/core";
import { RUN_FORMAT_VERSION, type ReadManifest, type RunManifest } from "@yardstick/run-format";
import { RunStore } from "./run-store.js";
import { RUN_STATS_FILE, RUN_STATS_FORMAT_VERSION, readRunStats, writeRunStats } from "./run-stats-file.js";
import { describeRunDifference } from "./run-difference.js";

export interface MergeOptions {
  /** Merge shards that did not finish too: the scores then cover only the samples the shards hold. */
  partial?: boolean;
}

export interface MergeResult {
  manifest: RunManifest;
  /** The shard stores that did not finish (merged only with `partial`). */
  unfinished: string[];
  /** Response records and sample records copied. */
  responses: number;
  samples: number;
  /** Sessions copied from the shards' run-stats.json, and the shard stores whose file did not parse (left out). */
  sessions: number;
  unreadableStats: string[];
}

/**
 * Joins the shard stores of one run (`--shard i/n`, i = 1..n) into one store at `outDir`, which is
 * then scored like an unsharded run. Refuses stores of different runs (fingerprints) or format
 * versions, a missing or repeated shard, a sample found in two shards, and (unless `partial`) a
 * shard that did not finish, naming the stores; the inputs are only read, and `outDir` must be new
 * or empty.
 */
export async function mergeRunStores(dirs: readonly string[], outDir: string, options: MergeOptions = {}): Promise<MergeResult> {
  if (dirs.length === 0) throw new ConfigError("merge needs the shard stores to join");
  const stores = dirs.map((d) => new RunStore(resolve(d)));
  const read: ({ store: RunStore } & ReadManifest)[] = [];
  for (const store of stores) read.push({ store, ...(await store.readManifest()) });

  const first = read[0]!;
  for (const r of read) {
    if (r.formatVersion !== RUN_FORMAT_VERSION) {
      throw new ConfigError(
        `${r.store.dir} is in run-store format ${r.formatVersion}, which has no sample records to merge; run its command again with this yardstick to bring it to format ${RUN_FORMAT_VERSION} (no request is re-sent)`,
        { file: r.store.manifestPath },
      );
    }
    if (r.manifest.fingerprint !== first.manifest.fingerprint) {
      throw new ConfigError(
        `${r.store.dir} is a shard of another run than ${first.store.dir} (fingerprint ${r.manifest.fingerprint.slice(0, 12)} vs ${first.manifest.fingerprint.slice(0, 12)}: ${describeRunDifference(first.manifest, r.manifest)})`,
        { file: r.store.manifestPath },
      );
    }
    if (!r.manifest.shard) {
      throw new ConfigError(`${r.store.dir} holds a whole run, not a shard (it was not run with --shard i/n)`, { file: r.store.manifestPath });
    }
  }
  const count = first.manifest.shard!.count;
  const byIndex = new Map<number, string>();
  for (const r of read) {
    const shard = r.manifest.shard!;
    if (shard.count !== count) {
      throw new ConfigError(`${r.store.dir} is shard ${shard.index}/${shard.count}, but ${first.store.dir} is one of ${count} shards`, {
        file: r.store.manifestPath,
      });
    }
    const other = byIndex.get(shard.index);
    if (other) throw new ConfigError(`shard ${shard.index}/${count} is given twice: ${other} and ${r.store.dir}`, { file: r.store.manifestPath });
    byIndex.set(shard.index, r.store.dir);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    throw new ConfigError(`shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} of this run ${missing.length > 1 ? "are" : "is"} missing; given: ${[...byIndex.keys()].sort((a, b) => a - b).map((i) => `${i}/${count}`).join(", ")}`);
  }

  // A shard whose last run was stopped or killed lacks samples: merged, the scores would cover part of the run.
  const unfinished: string[] = [];
  for (const r of read) {
    const why = await whyUnfinished(r.store);
    if (why === undefined) continue;
    if (!options.partial) {
      throw new ConfigError(
        `shard ${r.manifest.shard!.index}/${count} did not finish: ${why}; run its command again to finish it (only what has no answer is sent) and merge again, or merge with --partial to score what the shards hold`,
        { file: r.store.dir },
      );
    }
    unfinished.push(r.store.dir);
  }

  const outAbs = resolve(outDir);
  if (stores.some((s) => s.dir === outAbs)) throw new ConfigError(`--out ${outDir} is one of the stores being merged; choose a new folder`);
  if (existsSync(outAbs) && readdirSync(outAbs).length > 0) {
    throw new ConfigError(`--out ${outDir} is not empty; merge writes a new store, choose a new folder`, { file: outAbs });
  }
  const out = new RunStore(outAbs);
  const { shard: _shard, ...whole } = first.manifest;
  const manifest: RunManifest = {
    ...whole,
    createdAt: new Date().toISOString(),
    mergedFrom: read.sort((a, b) => a.manifest.shard!.index - b.manifest.shard!.index).map((r) => ({ dir: r.store.dir, shard: r.manifest.shard! })),
  };
  await makeDirectory(`${outAbs}/samples`);
  await makeDirectory(`${outAbs}/scores`);

  // Samples: each sample must come from exactly one shard.
  let samples = 0;
  for (const task of manifest.tasks) {
    const owner = new Map<string, string>();
    await writeLines(out.samplesPath(task.key), async function* () {
      for (const r of read) {
        for await (const rec of r.store.readSamples(task.key)) {
          const prev = owner.get(rec.sample);
          if (prev === r.store.dir) continue; // written twice by a resumed run
          if (prev !== undefined) {
            throw new ConfigError(`sample ${rec.sample} of task ${task.key} is in two shards (${prev} and ${r.store.dir}); these are not shards of one run`);
          }
          owner.set(rec.sample, r.store.dir);
          samples++;
          yield JSON.stringify(rec);
        }
        failOnUnreadable(r.store);
      }
    });
  }

  let responses = 0;
  await writeLines(out.responsesPath, async function* () {
    for (const r of read) {
      for await (const rec of r.store.readResponses()) {
        responses++;
        yield JSON.stringify(rec);
      }
      failOnUnreadable(r.store);
    }
  });
  // Every shard's sessions, tagged with their shard, so the merged store tells how all its answers came.
  const sessions = [];
  const unreadableStats: string[] = [];
  for (const r of read) {
    const { stats, unreadable } = await readRunStats(r.store.dir);
    if (unreadable) unreadableStats.push(r.store.dir);
    for (const session of stats.sessions) sessions.push({ ...session, shard: r.manifest.shard! });
  }
  if (sessions.length > 0) await writeRunStats(outAbs, { formatVersion: RUN_STATS_FORMAT_VERSION, sessions });
  // The manifest last: a store without one is not a store, so an interrupted merge is never mistaken for a finished one.
  await out.writeManifest(manifest);
  return { manifest, unfinished, responses, samples, sessions: sessions.length, unreadableStats };
}

/**
 * Why a store's run did not finish, or undefined when it did: its last session in run-stats.json says
 * whether it was stopped; a store without sessions (killed before its first ended, or still running)
 * has not finished, unless it has no readable run-stats.json at all, where results.json decides.
 */
async function whyUnfinished(store: RunStore): Promise<string | undefined> {
  const { stats, unreadable } = await readRunStats(store.dir);
  const last = stats.sessions.at(-1);
  if (last) return last.aborted ? "its last run was stopped" : undefined;
  if (existsSync(store.resultsPath) && (unreadable || !existsSync(join(store.dir, RUN_STATS_FILE)))) return undefined;
  return "no run of it has finished (killed, or still running)";
}

function failOnUnreadable(store: RunStore): void {
  const first = store.unreadableLines[0];
  if (first) {
    throw new ConfigError(`line ${first.line} is not a valid record (${first.problem}); fix or remove it, then merge again`, { file: first.file });
  }
}

async function writeLines(path: string, lines: () => AsyncGenerator<string>): Promise<void> {
  const stream: WriteStream = createWriteStream(path);
  try {
    let chunk = "";
    for await (const line of lines()) {
      chunk += `${line}\n`;
      if (chunk.length >= 1 << 16) {
        if (!stream.write(chunk)) await once(stream, "drain");
        chunk = "";
      }
    }
    stream.end(chunk);
    await once(stream, "finish");
  } catch (err) {
    stream.destroy();
    throw err;
  }
}
