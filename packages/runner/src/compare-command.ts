import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type CliCommandSpec, ConfigError, defineFlags } from "@yardstick/core";
import { RunStore } from "@yardstick/engine";
import { compareRuns, formatComparisonTable, type RunItems } from "@yardstick/metrics";
import { z } from "zod";
import { UsageError, checkFlag, intFlag, parseFlags } from "./args.js";
import type { CliIO } from "./io.js";
import { formatScore } from "./table.js";

const COMPARE_FLAGS = defineFlags({
  test: {
    type: "string",
    value: "auto|mcnemar|paired-bootstrap",
    default: "auto",
    description: "the paired test; auto is McNemar when every shared score on both sides is 0 or 1, else the paired bootstrap",
  },
  correction: {
    type: "string",
    value: "holm|benjamini-hochberg|none",
    default: "holm",
    description: "the multiple-comparison correction across tasks",
  },
  resamples: { type: "string", value: "N", default: "1000", description: "paired-bootstrap resamples, 100 to 1000000" },
  seed: { type: "string", value: "N", default: "1234", description: "seed of the bootstrap resampling" },
  json: { type: "boolean", description: 'print the comparison as JSON instead of a table ("scores": each task\'s main score in A and B; "metrics": the per-sample score paired)' },
});

export const COMPARE_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick compare",
    summary:
      "Paired comparison of two finished run stores on the tasks they share (same task, same main score): first each task's main score in A and B, named and written as the run table writes it, then the paired test sample by sample on the per-sample score it names: each task's difference with its interval and p-value, corrected across tasks.",
    positionals: [
      { name: "RUN_A", description: "a finished run store (the baseline)" },
      { name: "RUN_B", description: "a finished run store compared with it" },
    ],
    flags: COMPARE_FLAGS,
  },
];

interface StoredTask {
  key: string;
  scoreKey: string | undefined;
  /** The task's main score as the run table shows it: its name and value (results.json). */
  mainScore: string | undefined;
  main: number | undefined;
}

interface ManifestTask {
  key: string;
  name?: string;
  language?: string;
  competency?: string;
  mainScore?: string;
}

/** The main score of each task from results.json, found as the run table's rows are: language, competency, task name, score key. */
function mainScores(tasks: readonly ManifestTask[], results: Record<string, unknown>): Map<string, { mainScore: string; main: number | undefined }> {
  const out = new Map<string, { mainScore: string; main: number | undefined }>();
  for (const t of tasks) {
    if (!t.mainScore || !t.name) continue;
    const lang = results[t.language || "all"] as Record<string, Record<string, Record<string, unknown>>> | undefined;
    const value = lang?.[t.competency || "general"]?.[t.name]?.[t.mainScore];
    out.set(t.key, { mainScore: t.mainScore, main: typeof value === "number" ? value : undefined });
  }
  return out;
}

/** Reads the per-sample scores of a finished run store into `compareRuns` input. */
async function readRunItems(dir: string): Promise<{ items: RunItems; tasks: StoredTask[] }> {
  if (!existsSync(dir)) throw new ConfigError("does not exist (give a folder `yardstick run` wrote)", { file: dir });
  const resultsPath = join(dir, "results.json");
  if (!existsSync(resultsPath)) {
    throw new ConfigError(`${dir} is not a finished run store (no results.json); finish the run first`, { file: dir });
  }
  const store = new RunStore(dir);
  const results = (await store.readResults()) as {
    meta?: { tasks?: Record<string, { perSampleKey?: string; summary?: { key?: string } | null }> };
  };
  const { manifest } = await store.readManifest();
  const mains = mainScores(manifest.tasks as unknown as ManifestTask[], results as Record<string, unknown>);
  const tasks: StoredTask[] = Object.entries(results.meta?.tasks ?? {}).map(([key, t]) => ({
    key,
    scoreKey: t.perSampleKey ?? t.summary?.key,
    mainScore: mains.get(key)?.mainScore,
    main: mains.get(key)?.main,
  }));
  const items: RunItems = { tasks: {} };
  for (const task of tasks) {
    if (!task.scoreKey) continue;
    const byId: Record<string, number> = {};
    for (const line of (await store.readScores(task.key)) as { sample: string; scores: Record<string, number> }[]) {
      const v = line.scores[task.scoreKey];
      if (typeof v === "number" && Number.isFinite(v)) byId[line.sample] = v;
    }
    items.tasks[task.key] = { items: byId };
  }
  return { items, tasks };
}

/** One task's main score in both runs, named, as the run table shows it. */
interface MainScoreRow {
  task: string;
  metric: string;
  a: number | null;
  b: number | null;
}

function mainScoreRows(shared: readonly StoredTask[], tasksB: readonly StoredTask[]): MainScoreRow[] {
  return shared.map((t) => {
    const other = tasksB.find((u) => u.key === t.key);
    return { task: t.key, metric: t.mainScore ?? t.scoreKey ?? "-", a: t.main ?? null, b: other?.main ?? null };
  });
}

/** The main-score table: the metric's name and both runs' values with the run table's scale and rounding. */
function formatMainScores(rows: readonly MainScoreRow[]): string {
  const header = ["task", "metric", "A", "B"];
  const cells = rows.map((r) => [r.task, r.metric, r.a === null ? "-" : formatScore(r.a), r.b === null ? "-" : formatScore(r.b)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: readonly string[]): string =>
    c
      .map((v, i) => (i >= 2 ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}

export async function compareCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, COMPARE_FLAGS);
  if (positionals.length !== 2) throw new UsageError("compare: give exactly two run folders");
  const test = checkFlag("test", z.enum(["auto", "mcnemar", "paired-bootstrap"]), values.test ?? COMPARE_FLAGS.test.default);
  const correction = checkFlag("correction", z.enum(["holm", "benjamini-hochberg", "none"]), values.correction ?? COMPARE_FLAGS.correction.default);
  const resamples = checkFlag("resamples", intFlag(100, 1_000_000), values.resamples ?? COMPARE_FLAGS.resamples.default);
  const seed = checkFlag("seed", intFlag(0, 2 ** 32 - 1), values.seed ?? COMPARE_FLAGS.seed.default);
  const [dirA, dirB] = positionals.map((p) => resolve(io.cwd, p)) as [string, string];
  const a = await readRunItems(dirA);
  const b = await readRunItems(dirB);
  const shared = a.tasks.filter((t) => t.scoreKey && b.tasks.some((u) => u.key === t.key && u.scoreKey === t.scoreKey));
  if (shared.length === 0) {
    const list = (tasks: StoredTask[]) => tasks.map((t) => `${t.key}${t.scoreKey ? ` (${t.scoreKey})` : ""}`).join(", ") || "none";
    io.stderr.write(`error: the two runs share no task scored with the same per-sample score; A has ${list(a.tasks)}; B has ${list(b.tasks)}\n`);
    return 1;
  }
  const result = compareRuns(a.items, b.items, { test, correction, resamples, seed });
  const scores = mainScoreRows(shared, b.tasks);
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ ...result, metrics: Object.fromEntries(shared.map((t) => [t.key, t.scoreKey])), scores }, null, 2)}\n`);
    return 0;
  }
  // Name what is compared: the per-sample score of each task (its mean is the table's meanA/meanB).
  const compared = shared.map((t) => `${t.key}: ${t.scoreKey}`).join(", ");
  io.stdout.write(
    `A: ${dirA}\nB: ${dirB}\n\nmain scores (as in each run's table):\n${formatMainScores(scores)}\n\n` +
      `paired test on the per-sample score (${compared}):\n${formatComparisonTable(result)}\n`,
  );
  return 0;
}
