import { resolve } from "node:path";
import { type CliCommandSpec, defineFlags, type PluginRef, type TaskSpec } from "@yardstick/core";
import { RunStore, scoreStore } from "@yardstick/engine";
import { lindseaRollup, summarize } from "@yardstick/metrics";
import { z } from "zod";
import { UsageError, checkFlag, intFlag, listFlag, parseFlags } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, loadPluginPackages } from "./builtins.js";
import { cacheRoot } from "./cache-paths.js";
import type { CliIO } from "./io.js";
import { loadNamedMetricPackages } from "./metric-packages.js";
import { withScoringUrls } from "./scoring-settings.js";
import { recordTaskRetries } from "./task-retries.js";
import { formatResultsTable, notComputedLines } from "./table.js";
import { checkFlagMetrics, checkTasksRunnable } from "./tasks.js";
import { writeRunUltraEvalOutputs } from "./ultraeval-outputs.js";
import { tuneHeapForStage } from "./heap-tuning.js";

const SCORE_RUN_FLAGS = defineFlags({
  metric: { type: "string", multiple: true, value: "ID", default: "each task's own", description: "score every task with this metric instead of its own" },
  "add-metric": { type: "string", multiple: true, value: "ID", description: "score with this metric as well as the task's own" },
  "metric-options": { type: "string", value: "JSON", default: "{}", description: "JSON options given to the --metric/--add-metric metrics" },
  main: { type: "string", value: "KEY", default: "the task's own", description: "the score that represents each task" },
  tasks: { type: "string", value: "KEY,...", default: "every task", description: "only these task keys (e.g. sentiment/id)" },
  seed: { type: "string", value: "N", default: "the run's --seed", description: "bootstrap seed of the intervals" },
  plugin: { type: "string", multiple: true, value: "PACKAGE", description: "load a plugin package first (the run's own plugins are loaded too)" },
  json: { type: "boolean", description: "print the scores written as JSON instead of the table" },
  quiet: { type: "boolean", description: "do not print where results and UltraEval outputs were written" },
  "metricx-url": {
    type: "string",
    value: "URL",
    default: "YARDSTICK_METRICX_URL, else none",
    description: "a MetricX-24 scoring endpoint for translation tasks (the only requests score-run sends)",
  },
  "refclipscore-url": {
    type: "string",
    value: "URL",
    default: "YARDSTICK_REFCLIPSCORE_URL, else none",
    description: "a RefCLIPScore scoring endpoint for SEA-HELM's xm3600 captioning",
  },
});

export const SCORE_RUN_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick score-run",
    summary: "Re-scores a stored run from its run store alone: no request is sent. Rewrites scores/ and results.json of RUN_DIR (its answers are not touched).",
    positionals: [{ name: "RUN_DIR", description: "the run store (a run folder)" }],
    flags: SCORE_RUN_FLAGS,
  },
];

export async function scoreRunCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, SCORE_RUN_FLAGS);
  if (positionals.length !== 1) throw new UsageError("score-run: give exactly one run folder");
  const store = new RunStore(resolve(io.cwd, positionals[0]!));
  const { manifest } = await store.readManifest();
  let metricOptions: Record<string, unknown> = {};
  if (values["metric-options"] !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(values["metric-options"]);
    } catch {
      throw new UsageError(`--metric-options: expected a JSON object, e.g. '{"average":"macro"}'`);
    }
    metricOptions = checkFlag("metric-options", z.record(z.string(), z.unknown(), { message: "expected a JSON object" }), parsed);
  }
  const refs = (ids: string[] | undefined): PluginRef[] | undefined => ids?.map((id) => ({ id, options: metricOptions }));
  const metrics = refs(values.metric);
  const addMetrics = refs(values["add-metric"]);
  const seed = values.seed === undefined ? undefined : checkFlag("seed", intFlag(0, 2 ** 32 - 1), values.seed);

  let registry = createBuiltinRegistry(withScoringUrls(builtinSettingsFromEnv(io.env, cacheRoot(io.env)), { metricx: values["metricx-url"], refclipscore: values["refclipscore-url"] }));
  const tasks = manifest.tasks as unknown as TaskSpec[];
  const plugins = [...new Set([...(values.plugin ?? []), ...tasks.flatMap((t) => t.plugins ?? [])])];
  if (plugins.length > 0) registry = registry.extend(await loadPluginPackages(plugins, io.cwd));
  // Scoring reads stored judgements and never calls a judge, so the judge plugin need not be installed.
  const scoring = tasks.map((t) => ({ ...t, judge: undefined, metrics: [...(metrics ?? t.metrics), ...(addMetrics ?? [])] }));
  registry = (await loadNamedMetricPackages(scoring, registry, [io.cwd])).registry;
  checkFlagMetrics("metric", metrics, registry);
  checkFlagMetrics("add-metric", addMetrics, registry);
  // Every metric that will be asked for must exist (and take its options) before anything is rewritten.
  checkTasksRunnable(scoring, registry);

  const log = (m: string): void => {
    io.stderr.write(`${m}\n`);
  };
  tuneHeapForStage("score");
  // Refused while a run writes this store: its results would be rewritten under the run's feet.
  await store.lockForRewrite();
  let scored: Awaited<ReturnType<typeof scoreStore>>;
  try {
    scored = await scoreStore({
      store,
      registry,
      summarize: (scores, s) => summarize(scores, { seed: s }),
      competencyRollups: { "linguistic-diagnostics": lindseaRollup },
      ...(seed !== undefined ? { seed } : {}),
      ...(values.tasks ? { taskKeys: listFlag(values.tasks) } : {}),
      ...(metrics ? { metrics } : {}),
      ...(addMetrics ? { addMetrics } : {}),
      ...(values.main ? { mainScore: values.main } : {}),
      log,
    });
    const { results, retries } = await recordTaskRetries(store.dir);
    if (values.json) io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    else io.stdout.write(`${formatResultsTable(scored.tasks, scored.results.total, retries)}\n`);
    for (const line of notComputedLines(scored.tasks)) log(line);
    if (!values.quiet) log(`results: ${store.resultsPath} (${values["metricx-url"] || io.env.YARDSTICK_METRICX_URL ? "no request sent but to the MetricX endpoint" : "no request sent"})`);
    const ultraeval = await writeRunUltraEvalOutputs(store.dir);
    if (ultraeval && !values.quiet) log(`UltraEval outputs: ${ultraeval.dir}`);
  } finally {
    await store.close();
  }
  const unanswered = scored.tasks.reduce((a, t) => a + t.unanswered, 0);
  if (unanswered > 0) log(`${unanswered} sample(s) of this store have no final answer yet (a stopped run) and were not scored`);
  const failed = scored.tasks.filter((t) => t.failure);
  for (const t of failed) log(`task ${t.key} could not be scored: ${t.failure}`);
  return failed.length > 0 ? 1 : 0;
}
