/**
 * The verdict metrics (AALCRJudgeMetric, MathVisionJudgeMetric, BabyVisionJudgeMetric):
 * `accuracy_score` = 100 × the mean of the per-row verdict scores (1 for the positive verdict, 0
 * otherwise). A reply naming both verdict words scores 0, as upstream, and is counted in
 * `ambiguous_verdicts`; a reply naming neither (or a failed call) scores 0 and is counted in `judge_errors`.
 */
import type { MetricResult, MetricV1, SampleScore } from "@yardstick/core";
import { z } from "zod";
import { categoryMeans, categoryOf, type JudgeErrorDetail, judgeCalls, mean, NO_JUDGEMENT, parseMetricOptions } from "./common.js";

const optionsSchema = z.object({
  /** The metadata field of the per-category accuracies; the default depends on the task. */
  category_field: z.string().min(1).optional(),
});

/** `defaultCategoryField`: BabyVision's `type` as upstream; AA-LCR's `document_category` and MathVision's `subject` are extra (upstream reports no categories for them). */
function verdictMetric(id: string, description: string, defaultCategoryField: string): MetricV1 {
  const parse = (options: Record<string, unknown>) => parseMetricOptions(id, optionsSchema, options);
  return {
    specVersion: "v1",
    id,
    description,
    compute(inputs, options): MetricResult {
      const o = parse(options);
      const field = o.category_field ?? defaultCategoryField;
      const perSample: SampleScore[] = [];
      const errors: JudgeErrorDetail[] = [];
      const rows: { category: string; value: number }[] = [];
      let ambiguous = 0;
      for (const input of inputs) {
        const calls = judgeCalls(input);
        const j = calls.get("verdict") ?? [...calls.values()].find((x) => x.error !== undefined);
        let score = 0;
        let error = 0;
        if (!j || j.error !== undefined || typeof j.score !== "number") {
          error = 1;
          errors.push({ sampleId: input.sampleId, call: "verdict", error: j?.error ?? NO_JUDGEMENT });
        } else {
          score = j.score;
          if (j.data?.ambiguous === true) ambiguous++;
        }
        perSample.push({ sampleId: input.sampleId, scores: { accuracy_score: score, judge_errors: error } });
        rows.push({ category: categoryOf(input, field), value: score });
      }
      return {
        scores: { accuracy_score: 100 * mean(rows.map((r) => r.value)), judge_errors: errors.length, ambiguous_verdicts: ambiguous },
        perSample,
        details: { categories: categoryMeans(rows, 100), errors },
      };
    },
    checkOptions(options) {
      parse(options);
    },
  };
}

export const aaLcrJudgeMetric = verdictMetric("seahelm-aa-lcr-judge", "SEA-HELM AA-LCR judge: accuracy of CORRECT/INCORRECT verdicts", "document_category");
export const mathVisionJudgeMetric = verdictMetric("seahelm-mathvision-judge", "SEA-HELM MathVision judge: accuracy of CORRECT/INCORRECT verdicts", "subject");
export const babyVisionJudgeMetric = verdictMetric("seahelm-babyvision-judge", "SEA-HELM BabyVision judge: accuracy of TRUE/FALSE verdicts, per type", "type");
