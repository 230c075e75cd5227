import { resolve } from "node:path";
import { type CliCommandSpec, defineFlags, type TaskSpec } from "@yardstick/core";
import { RunStore, mergeRunStores, scoreStore } from "@yardstick/engine";
import { lindseaRollup, summarize } from "@yardstick/metrics";
import { UsageError, parseFlags } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, loadPluginPackages } from "./builtins.js";
import { cacheRoot } from "./cache-paths.js";
import type { CliIO } from "./io.js";
import { loadNamedMetricPackages } from "./metric-packages.js";
import { formatResultsTable } from "./table.js";
import { recordTaskRetries } from "./task-retries.js";
import { writeRunUltraEvalOutputs } from "./ultraeval-outputs.js";
import { tuneHeapForStage } from "./heap-tuning.js";

const MERGE_FLAGS = defineFlags({
  out: { type: "string", value: "DIR", required: true, description: "a new folder for the merged store" },
  plugin: { type: "string", multiple: true, value: "PACKAGE", description: "load a plugin package first (the run's own plugins are loaded too)" },
  partial: { type: "boolean", description: "merge shards that did not finish too (stopped or killed): the scores cover only the samples they hold" },
  quiet: { type: "boolean", description: "do not print what was merged and where results were written" },
});

export const MERGE_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick merge",
    summary:
      "Joins the run stores of the shards of one run (yardstick run ... --shard i/n, i = 1..n) into a new store at DIR and scores it; the scores equal those of the same run unsharded. Refuses stores of different runs or format versions, a missing or repeated shard, and a shard that did not finish (unless --partial).",
    positionals: [{ name: "SHARD_DIR...", description: "the run stores of the shards" }],
    flags: MERGE_FLAGS,
  },
];

export async function mergeCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, MERGE_FLAGS);
  if (positionals.length === 0) throw new UsageError("merge: give the shard run folders");
  if (!values.out) throw new UsageError("merge: --out DIR is required (a new folder for the merged store)");
  const log = (m: string): void => {
    io.stderr.write(`${m}\n`);
  };
  const merged = await mergeRunStores(
    positionals.map((p) => resolve(io.cwd, p)),
    resolve(io.cwd, values.out),
    { partial: values.partial === true },
  );
  for (const dir of merged.unfinished) log(`warning: ${dir} did not finish; its samples without an answer are not in the scores (--partial)`);
  if (!values.quiet) {
    log(
      `merged ${positionals.length} shard(s): ${merged.samples} samples, ${merged.responses} response records, ${merged.sessions} run session(s) → ${resolve(io.cwd, values.out)}`,
    );
    for (const dir of merged.unreadableStats) log(`warning: ${dir}/run-stats.json does not parse; its sessions are left out of the merged run-stats.json`);
  }
  let registry = createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
  const tasks = merged.manifest.tasks as unknown as TaskSpec[];
  const plugins = [...new Set([...(values.plugin ?? []), ...tasks.flatMap((t) => t.plugins ?? [])])];
  if (plugins.length > 0) registry = registry.extend(await loadPluginPackages(plugins, io.cwd));
  registry = (await loadNamedMetricPackages(tasks, registry, [io.cwd])).registry;
  const store = new RunStore(resolve(io.cwd, values.out));
  tuneHeapForStage("score");
  const scored = await scoreStore({
    store,
    registry,
    summarize: (scores, s) => summarize(scores, { seed: s }),
    competencyRollups: { "linguistic-diagnostics": lindseaRollup },
    log,
  });
  const { retries } = await recordTaskRetries(store.dir);
  io.stdout.write(`${formatResultsTable(scored.tasks, scored.results.total, retries)}\n`);
  const unanswered = scored.tasks.reduce((a, t) => a + t.unanswered, 0);
  if (unanswered > 0) log(`${unanswered} sample(s) of the merged store have no final answer (a shard was stopped) and were not scored`);
  if (!values.quiet) log(`results: ${store.resultsPath}`);
  const ultraeval = await writeRunUltraEvalOutputs(store.dir);
  if (ultraeval && !values.quiet) log(`UltraEval outputs: ${ultraeval.dir}`);
  const failed = scored.tasks.filter((t) => t.failure);
  for (const t of failed) log(`task ${t.key} could not be scored: ${t.failure}`);
  return failed.length > 0 ? 1 : 0;
}
