import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import type { TaskSpec } from "@yardstick/core";
import { RunStore } from "@yardstick/engine";
import { type LeaderboardResult, type RunsTaskScores, leaderboardBootstrap } from "@yardstick/metrics";
import { stringify } from "yaml";
import type { CliIO } from "./io.js";
import { formatScore } from "./table.js";

/**
 * `yardstick run --runs N`: the same run N times, run i with seed `--seed + i` into `<out>/runs/<i>`
 * (each an ordinary run store, so a stopped repeat resumes run by run), then SEA-HELM's leaderboard
 * bootstrap over the runs' per-question scores, written as `<out>/<model>_scores.yaml`.
 */

/** What one of the repeated runs differs in; given to `runCommand` for each run. */
export interface RepeatedRun {
  /** 0-based run index (SEA-HELM's `--run`). */
  run: number;
  seed: number;
  out: string;
}

export type RunOnce = (repeat: RepeatedRun) => Promise<number>;

/** SEA-HELM's `max_n_runs`: a task sits out every run from this index on. */
export function taskMaxRuns(task: Pick<TaskSpec, "extra">): number | undefined {
  const value = task.extra?.max_n_runs;
  return typeof value === "number" ? value : undefined;
}

export function runsTask(task: Pick<TaskSpec, "extra">, run: number): boolean {
  const max = taskMaxRuns(task);
  return max === undefined || run < max;
}

export function runDir(out: string, run: number): string {
  return join(out, "runs", String(run));
}

export async function repeatRuns(settings: { runs: number; seed: number; out: string; model: string; io: CliIO; runOnce: RunOnce; quiet: boolean }): Promise<number> {
  const { runs, seed, io } = settings;
  const out = resolve(io.cwd, settings.out);
  let worst = 0;
  for (let run = 0; run < runs; run++) {
    if (!settings.quiet) io.stderr.write(`run ${run + 1} of ${runs} (seed ${seed + run}) into ${runDir(out, run)}\n`);
    const code = await settings.runOnce({ run, seed: seed + run, out: runDir(out, run) });
    // Stopped: the same command continues; later runs would only be interrupted too.
    if (code === 130) return code;
    worst = Math.max(worst, code);
  }
  const result = leaderboardBootstrap(await collectRunScores(out, runs));
  const modelName = basename(settings.model.replace(/^[^:]*:/, "")) || "model";
  const file = join(out, `${modelName}_scores.yaml`);
  await writeFile(file, stringify(result.scores));
  io.stdout.write(`${formatRepeatTable(result, runs)}\n`);
  if (!settings.quiet) {
    for (const t of result.incomplete) io.stderr.write(`task ${t} is missing from some runs (max_n_runs or a failed run); bootstrapped over the runs that have it\n`);
    io.stderr.write(`scores over ${runs} runs: ${file}\n`);
  }
  return worst;
}

/** Every task's per-question scores from every run store, in the first store's task order. */
export async function collectRunScores(out: string, runs: number): Promise<RunsTaskScores[]> {
  const byKey = new Map<string, RunsTaskScores>();
  for (let run = 0; run < runs; run++) {
    const dir = runDir(out, run);
    if (!existsSync(join(dir, "run.json"))) continue;
    const store = new RunStore(dir);
    const { manifest } = await store.readManifest();
    for (const task of manifest.tasks as unknown as TaskSpec[]) {
      let entry = byKey.get(task.key);
      if (!entry) {
        entry = {
          name: task.name,
          language: task.language,
          competency: task.competency,
          ...(task.aggregationGroup ? { aggregationGroup: task.aggregationGroup } : {}),
          ...(taskMaxRuns(task) !== undefined ? { maxNRuns: taskMaxRuns(task) } : {}),
          runs: Array.from({ length: runs }, () => []),
          labels: [],
        };
        byKey.set(task.key, entry);
      }
      entry.runs[run] = await questionScores(store, task.key);
      // Upstream reads the labels of the first run only.
      if (run === 0) entry.labels = await sampleLabels(store, task.key);
    }
  }
  return [...byKey.values()];
}

/** One score per question: the first score a row records (SEA-HELM's first individual score); none counts 0. */
async function questionScores(store: RunStore, taskKey: string): Promise<number[]> {
  if (!existsSync(store.scoresPath(taskKey))) return [];
  const rows = await store.readScores(taskKey);
  const key = rows[0] ? Object.keys(rows[0].scores)[0] : undefined;
  return rows.map((r) => {
    const v = key === undefined ? undefined : r.scores[key];
    return typeof v === "number" && Number.isFinite(v) ? v : 0;
  });
}

async function sampleLabels(store: RunStore, taskKey: string): Promise<unknown[]> {
  if (!existsSync(store.samplesPath(taskKey))) return [];
  const records = [];
  for await (const r of store.readSamples(taskKey)) records.push(r);
  records.sort((a, b) => a.index - b.index);
  return records.map((r) => (r.labelInRaw ? r.raw.label : r.label));
}

type Level = { mean?: number; stderr?: number };

/** Mean ± stderr at every level of the scores tree: tasks, groups, competencies, languages, overall, SEA. */
export function formatRepeatTable(result: LeaderboardResult, runs: number): string {
  const rows: string[][] = [];
  const cell = (node: Level): string[] => [formatScore(node.mean ?? Number.NaN), formatScore(node.stderr ?? Number.NaN)];
  const tree = result.scores as Record<string, unknown>;
  for (const [lang, langValue] of Object.entries(tree)) {
    if (!langValue || typeof langValue !== "object" || Array.isArray(langValue)) continue;
    const langNode = langValue as Record<string, unknown>;
    for (const [comp, compValue] of Object.entries(langNode)) {
      if (!compValue || typeof compValue !== "object" || Array.isArray(compValue)) continue;
      const compNode = compValue as { tasks: Record<string, Level & { ignore?: boolean }>; aggregation_groups: Record<string, Level> };
      for (const [task, node] of Object.entries(compNode.tasks)) rows.push([task, lang, comp, ...cell(node)]);
      for (const [group, node] of Object.entries(compNode.aggregation_groups)) rows.push([`${group} (group)`, lang, comp, ...cell(node)]);
      rows.push(["competency", lang, comp, ...cell(compNode as Level)]);
    }
    rows.push(["language", lang, "", ...cell(langNode as Level)]);
  }
  rows.push(["overall", "", "", ...cell(tree as Level)]);
  if (tree.sea_mean !== undefined) rows.push(["sea", "", "", ...cell({ mean: tree.sea_mean as number, stderr: tree.sea_stderr as number })]);
  const header = ["task", "lang", "competency", "mean", "± stderr"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i >= 3 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const title = `SEA-HELM bootstrap over ${runs} run${runs === 1 ? "" : "s"} (30 resamples of one run per question)`;
  return [title, line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
