import { resolve } from "node:path";
import type { TaskSpec } from "@yardstick/core";
import { RunStore, mergeRunStores, scoreStore } from "@yardstick/engine";
import { lindseaRollup, summarize } from "@yardstick/metrics";
import { UsageError, parseFlags } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, loadPluginPackages } from "./builtins.js";
import { cacheRoot } from "./cache-paths.js";
import type { CliIO } from "./io.js";
import { formatResultsTable } from "./table.js";
import { writeRunUltraEvalOutputs } from "./ultraeval-outputs.js";

export const MERGE_USAGE = `usage: yardstick merge SHARD_DIR... --out DIR [--plugin PACKAGE ...] [--quiet]

Joins the run stores of the shards of one run (yardstick run ... --shard i/n, i = 1..n) into a new
store at DIR and scores it; the scores equal those of the same run unsharded. Refuses stores of
different runs or format versions and a missing or repeated shard.`;

export async function mergeCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    out: { type: "string" },
    plugin: { type: "string", multiple: true },
    quiet: { type: "boolean" },
  });
  if (positionals.length === 0) throw new UsageError("merge: give the shard run folders");
  if (!values.out) throw new UsageError("merge: --out DIR is required (a new folder for the merged store)");
  const log = (m: string): void => {
    io.stderr.write(`${m}\n`);
  };
  const merged = await mergeRunStores(
    positionals.map((p) => resolve(io.cwd, p)),
    resolve(io.cwd, values.out),
  );
  if (!values.quiet) log(`merged ${positionals.length} shard(s): ${merged.samples} samples, ${merged.responses} response records → ${resolve(io.cwd, values.out)}`);
  let registry = createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
  const tasks = merged.manifest.tasks as unknown as TaskSpec[];
  const plugins = [...new Set([...(values.plugin ?? []), ...tasks.flatMap((t) => t.plugins ?? [])])];
  if (plugins.length > 0) registry = registry.extend(await loadPluginPackages(plugins, io.cwd));
  const store = new RunStore(resolve(io.cwd, values.out));
  const scored = await scoreStore({
    store,
    registry,
    summarize: (scores, s) => summarize(scores, { seed: s }),
    competencyRollups: { "linguistic-diagnostics": lindseaRollup },
    log,
  });
  io.stdout.write(`${formatResultsTable(scored.tasks, scored.results.total)}\n`);
  if (!values.quiet) log(`results: ${store.resultsPath}`);
  const ultraeval = await writeRunUltraEvalOutputs(store.dir);
  if (ultraeval && !values.quiet) log(`UltraEval outputs: ${ultraeval.dir}`);
  const failed = scored.tasks.filter((t) => t.failure);
  for (const t of failed) log(`task ${t.key} could not be scored: ${t.failure}`);
  return failed.length > 0 ? 1 : 0;
}
