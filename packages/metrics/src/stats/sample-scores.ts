import type { SampleScore } from "@yardstick/core";
import type { RunItems } from "./compare-runs.js";
import type { BootstrapOptions } from "./options.js";
import { type ScoreSummary, summarize } from "./summarize.js";
import { statsError } from "./validate.js";

/**
 * Summarises every score key found in a metric's per-sample output (`MetricResult.perSample`): for
 * each key, the samples that carry it are summarised with `summarize`. Keys are processed in sorted
 * order and share the seed, so each key's interval is reproducible on its own.
 */
export function summarizePerSample(
  perSample: readonly SampleScore[],
  options: BootstrapOptions = {},
): Record<string, ScoreSummary> {
  if (!Array.isArray(perSample)) throw statsError("summarizePerSample", "perSample must be an array of sample scores");
  const byKey = new Map<string, number[]>();
  perSample.forEach((s, i) => {
    if (s === null || typeof s !== "object" || s.scores === null || typeof s.scores !== "object") {
      throw statsError("summarizePerSample", `perSample[${i}] has no scores object`);
    }
    for (const [key, value] of Object.entries(s.scores as Record<string, number>)) {
      let list = byKey.get(key);
      if (!list) byKey.set(key, (list = []));
      list.push(value);
    }
  });
  const out: Record<string, ScoreSummary> = {};
  for (const key of [...byKey.keys()].sort()) {
    try {
      out[key] = summarize(byKey.get(key)!, options);
    } catch (error) {
      throw statsError("summarizePerSample", `score "${key}": ${(error as Error).message}`);
    }
  }
  return out;
}

/**
 * Builds `compareRuns` input from per-task sample scores (e.g. read back from a run store), taking
 * one score key. Samples without that key are left out; a repeated sample id is an error, because
 * pairing would be ambiguous (average repeated epochs first).
 */
export function runItemsFromSampleScores(
  byTask: Readonly<Record<string, readonly SampleScore[]>>,
  scoreKey: string,
): RunItems {
  const fn = "runItemsFromSampleScores";
  if (byTask === null || typeof byTask !== "object") throw statsError(fn, "byTask must map task keys to sample scores");
  const tasks: Record<string, { items: Record<string, number> }> = {};
  for (const [task, samples] of Object.entries(byTask)) {
    if (!Array.isArray(samples)) throw statsError(fn, `task "${task}" must map to an array of sample scores`);
    const items: Record<string, number> = Object.create(null);
    for (const s of samples) {
      const value = s?.scores?.[scoreKey];
      if (value === undefined) continue;
      if (Object.hasOwn(items, s.sampleId)) {
        throw statsError(fn, `task "${task}" has sample id "${s.sampleId}" twice (expected one score per sample)`);
      }
      items[s.sampleId] = value;
    }
    tasks[task] = { items };
  }
  return { tasks };
}
