/**
 * `rubric-judge`: the rubric judge's choices. `mean_score` is the mean of the chosen choices' scores
 * over the rows judged without error, on the rubric's own scale; `normalized_score` puts it on 0-100
 * like every other judged metric (100 × (mean − lowest choice score) / (highest − lowest)); `label_counts` (in details, and `count:<label>` in the scores)
 * counts each label; rows without a usable judgement are `judge_errors` and have no score.
 * `details.categories`: the mean score per `metadata.category` (option `category_field`).
 */
import type { MetricResult, MetricV1, SampleScore } from "@yardstick/core";
import { z } from "zod";
import { categoryMeans, categoryOf, type JudgeErrorDetail, judgeCalls, mean, NO_JUDGEMENT, parseMetricOptions } from "./common.js";

export const RUBRIC_METRIC_ID = "rubric-judge";

const optionsSchema = z.strictObject({
  /** The metadata field of the per-category mean scores (default `category`). */
  category_field: z.string().min(1).optional(),
});

function compute(inputs: Parameters<MetricV1["compute"]>[0], options: Record<string, unknown>): MetricResult {
  const o = parseMetricOptions(RUBRIC_METRIC_ID, optionsSchema, options);
  const field = o.category_field ?? "category";
  const rows: { category: string; value: number }[] = [];
  const perSample: SampleScore[] = [];
  const errors: JudgeErrorDetail[] = [];
  const scores: number[] = [];
  const labelCounts: Record<string, number> = {};
  const scales = new Set<string>();
  for (const input of inputs) {
    const calls = judgeCalls(input);
    const j = calls.get("rubric") ?? [...calls.values()].find((x) => x.error !== undefined);
    if (!j || j.error !== undefined || typeof j.score !== "number" || j.label === undefined) {
      errors.push({ sampleId: input.sampleId, call: "rubric", error: j?.error ?? NO_JUDGEMENT });
      perSample.push({ sampleId: input.sampleId, scores: { judge_errors: 1 } });
      continue;
    }
    scores.push(j.score);
    const scale = j.data?.scale;
    if (Array.isArray(scale) && scale.length === 2) scales.add(JSON.stringify(scale));
    rows.push({ category: categoryOf(input, field), value: j.score });
    labelCounts[j.label] = (labelCounts[j.label] ?? 0) + 1;
    perSample.push({ sampleId: input.sampleId, scores: { mean_score: j.score, judge_errors: 0 } });
  }
  const taskScores: Record<string, number> = { mean_score: mean(scores), judged: scores.length, judge_errors: errors.length };
  // Only when every judgement used one scale (a single rubric): mixed scales have no common 0-100.
  const [only] = scales;
  if (scales.size === 1 && only !== undefined) {
    const [lo, hi] = JSON.parse(only) as [number, number];
    if (hi > lo) taskScores.normalized_score = (100 * (taskScores.mean_score! - lo)) / (hi - lo);
  }
  for (const [label, n] of Object.entries(labelCounts).sort(([a], [b]) => (a < b ? -1 : 1))) taskScores[`count:${label}`] = n;
  return { scores: taskScores, perSample, details: { label_counts: labelCounts, categories: categoryMeans(rows, 1), errors } };
}

export const rubricJudgeMetric: MetricV1 = {
  specVersion: "v1",
  id: RUBRIC_METRIC_ID,
  description: "Rubric judge: mean score of the chosen choices, count per label, judge errors",
  compute,
  checkOptions(options) {
    parseMetricOptions(RUBRIC_METRIC_ID, optionsSchema, options);
  },
};
