import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type CliCommandSpec, ConfigError, defineFlags } from "@yardstick/core";
import { RunStore } from "@yardstick/engine";
import { compareRuns, formatComparisonTable, type RunItems } from "@yardstick/metrics";
import { z } from "zod";
import { UsageError, checkFlag, intFlag, parseFlags } from "./args.js";
import type { CliIO } from "./io.js";

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
  json: { type: "boolean", description: "print the comparison as JSON instead of a table" },
});

export const COMPARE_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick compare",
    summary:
      "Paired comparison of two finished run stores on the tasks they share (same task, same main score), sample by sample: each task's difference with its interval and p-value, corrected across tasks.",
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
}

/** Reads the per-sample scores of a finished run store into `compareRuns` input. */
async function readRunItems(dir: string): Promise<{ items: RunItems; tasks: StoredTask[] }> {
  const resultsPath = join(dir, "results.json");
  if (!existsSync(resultsPath)) {
    throw new ConfigError(`${dir} is not a finished run store (no results.json); finish the run first`, { file: dir });
  }
  const results = JSON.parse(readFileSync(resultsPath, "utf8")) as {
    meta?: { tasks?: Record<string, { perSampleKey?: string; summary?: { key?: string } | null }> };
  };
  const store = new RunStore(dir);
  const tasks: StoredTask[] = Object.entries(results.meta?.tasks ?? {}).map(([key, t]) => ({ key, scoreKey: t.perSampleKey ?? t.summary?.key }));
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
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ ...result, metrics: Object.fromEntries(shared.map((t) => [t.key, t.scoreKey])) }, null, 2)}\n`);
    return 0;
  }
  // Name what is compared: the per-sample score of each task (its mean is the table's meanA/meanB).
  const compared = shared.map((t) => `${t.key}: ${t.scoreKey}`).join(", ");
  io.stdout.write(`A: ${dirA}\nB: ${dirB}\nper-sample score compared: ${compared}\n\n${formatComparisonTable(result)}\n`);
  return 0;
}
