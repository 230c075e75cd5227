import { join, resolve } from "node:path";
import { type CliCommandSpec, defineFlags } from "@yardstick/core";
import { compareRuns } from "@yardstick/metrics";
import { type CompareRuns, REPORT_SAMPLES_PER_TASK, writeReport } from "@yardstick/report";
import { z } from "zod";
import { UsageError, checkFlag, intFlag, parseFlags } from "./args.js";
import type { CliIO } from "./io.js";
import { requireSomeRun } from "./run-folders.js";

/** The sample browser's size, shared by `report` and `view`. */
export const SAMPLES_PER_TASK_FLAG = {
  "samples-per-task": {
    type: "string",
    value: "N|all",
    default: REPORT_SAMPLES_PER_TASK.toLocaleString("en-US"),
    description: "samples of each task in the sample browser: the first by dataset position (scores, counts and comparisons cover every sample)",
  },
} as const;

/** The --samples-per-task value as a number (Infinity for `all`). */
export function samplesPerTaskFlag(value: string | undefined): number {
  if (value === undefined) return REPORT_SAMPLES_PER_TASK;
  return checkFlag("samples-per-task", z.union([z.literal("all").transform(() => Number.POSITIVE_INFINITY), intFlag(1, Number.MAX_SAFE_INTEGER)]), value);
}

const REPORT_FLAGS = defineFlags({
  out: {
    type: "string",
    value: "FILE",
    default: "report.html in the run folder for one run, in the current folder for several",
    description: "the HTML file to write",
  },
  ...SAMPLES_PER_TASK_FLAG,
});

export const REPORT_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick report",
    summary:
      "Writes one self-contained HTML report (opens without a network) of one or several run stores: scores with confidence intervals, a language × competency heatmap, the runs side by side, and a sample browser with filters and search.",
    positionals: [{ name: "RUN [RUN...]", description: "run stores (several are shown side by side)" }],
    flags: REPORT_FLAGS,
  },
];

/** The paired test of `yardstick compare` with its defaults (seed 1234, Holm), for the report's comparison of runs. */
export const pairedCompare: CompareRuns = (a, b) => compareRuns(a, b, { seed: 1234 });

export async function reportCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, REPORT_FLAGS);
  if (positionals.length === 0) throw new UsageError("report: give at least one run folder");
  const runs = positionals.map((p) => resolve(io.cwd, p));
  requireSomeRun(runs, "report");
  const out = resolve(io.cwd, values.out ?? (runs.length === 1 ? join(runs[0] as string, "report.html") : "report.html"));
  const summary = await writeReport({ runs, out, compare: pairedCompare, samplesPerTask: samplesPerTaskFlag(values["samples-per-task"]) });
  for (const { run, problems } of summary.problems) {
    for (const problem of problems) io.stderr.write(`warning: ${run}: ${problem}\n`);
  }
  io.stdout.write(`wrote ${summary.out} (${summary.samples} samples, ${(summary.bytes / 1e6).toFixed(1)} MB)\n`);
  return 0;
}

/**
 * `yardstick run` writes report.html into the run store at the end of a finished run. A report
 * that cannot be written is a warning: the run and its results are complete without it.
 */
export async function writeRunReport(outDir: string, log: (message: string) => void, quiet: boolean): Promise<void> {
  try {
    const summary = await writeReport({ runs: [outDir], out: join(outDir, "report.html") });
    if (!quiet) log(`report: ${summary.out}`);
  } catch (err) {
    log(`warning: the HTML report could not be written (${err instanceof Error ? err.message : String(err)}); the run's results are complete, and "yardstick report ${outDir}" tries again`);
  }
}
