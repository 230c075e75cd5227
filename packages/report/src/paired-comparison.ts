import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseScoreLine } from "@yardstick/run-format";
import { readLines, taskFileName } from "./jsonl.js";
import type { RunData } from "./read-run.js";

/** Per-sample scores of one run, by task and sample id (the input of `compareRuns` in @yardstick/metrics). */
export interface PairedItems {
  tasks: Record<string, { items: Record<string, number> }>;
}

export interface PairedComparisonRow {
  task: string;
  n: number;
  meanA: number;
  meanB: number;
  diff: number;
  ci: [number, number];
  pValue: number;
  pAdjusted: number;
  test: string;
  significant: boolean;
}

export interface PairedComparisonResult {
  rows: PairedComparisonRow[];
  correction: string;
  alpha: number;
}

/**
 * The paired test of `yardstick compare`, injected (the runner passes `compareRuns` from
 * @yardstick/metrics), so the report depends on no plugin package.
 */
export type CompareRuns = (a: PairedItems, b: PairedItems) => PairedComparisonResult;

/** One run against the first run of the report. */
export interface EmbeddedComparison {
  a: number;
  b: number;
  correction: string;
  alpha: number;
  rows: PairedComparisonRow[];
}

/**
 * The per-sample scores `compare` pairs: each task's `perSampleKey` score from results.json, read
 * from the run's scores/ files (every sample, also those the report's sample browser leaves out).
 */
export async function pairedItems(run: RunData): Promise<PairedItems> {
  const out: PairedItems = { tasks: {} };
  for (const [task, meta] of Object.entries(run.results?.meta.tasks ?? {})) {
    const key = meta.perSampleKey;
    const path = join(run.dir, "scores", taskFileName(task));
    if (!key || !existsSync(path)) continue;
    for await (const { text } of readLines(path)) {
      const parsed = parseScoreLine(text);
      const v = parsed.ok ? parsed.record.scores[key] : undefined;
      if (!parsed.ok || typeof v !== "number" || !Number.isFinite(v)) continue;
      (out.tasks[task] ??= { items: {} }).items[parsed.record.sample] = v;
    }
  }
  return out;
}

/** Every run after the first compared with the first, task by task; runs without scores are left out. */
export async function compareWithFirst(runs: RunData[], compare: CompareRuns): Promise<EmbeddedComparison[]> {
  const first = runs[0];
  if (!first || runs.length < 2) return [];
  const base = await pairedItems(first);
  if (Object.keys(base.tasks).length === 0) return [];
  const out: EmbeddedComparison[] = [];
  for (let b = 1; b < runs.length; b++) {
    const items = await pairedItems(runs[b]!);
    if (Object.keys(items.tasks).length === 0) continue;
    const result = compare(base, items);
    out.push({ a: 0, b, correction: result.correction, alpha: result.alpha, rows: result.rows });
  }
  return out;
}
