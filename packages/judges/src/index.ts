import type { JudgeV2, MetricV1 } from "@yardstick/core";
import { criteriaJudge } from "./criteria-judge.js";
import { healthbenchJudge } from "./healthbench-judge.js";
import { criteriaJudgeMetric, healthbenchJudgeMetric, lindseaJudgeMetric, mtBenchJudgeMetric } from "./metrics/criteria-metrics.js";
import { pairwiseJudgeMetric } from "./metrics/pairwise-metric.js";
import { rubricJudgeMetric } from "./metrics/rubric-metric.js";
import { aaLcrJudgeMetric, babyVisionJudgeMetric, mathVisionJudgeMetric } from "./metrics/verdict-metrics.js";
import { pairwiseJudge } from "./pairwise-judge.js";
import { rubricJudge } from "./rubric-judge.js";
import { verdictJudge } from "./verdict-judge.js";

export { JudgeInputError } from "./common.js";
export { CRITERIA_JUDGE_ID, criteriaJudge, readClassification } from "./criteria-judge.js";
export { HEALTHBENCH_JUDGE_ID, healthbenchJudge, readCriteriaMet } from "./healthbench-judge.js";
export { combineOrders } from "./metrics/pairwise-metric.js";
export { PAIRWISE_JUDGE_ID, pairwiseJudge, pairwiseRequestId } from "./pairwise-judge.js";
export { RUBRIC_JUDGE_ID, RUBRIC_TOOL_NAME, readTextChoice, rubricJudge } from "./rubric-judge.js";
export { lastBoxed, VERDICT_JUDGE_ID, verdictJudge } from "./verdict-judge.js";

/** Every built-in judge, by id. */
export const builtinJudges: Record<string, JudgeV2> = Object.fromEntries(
  [pairwiseJudge, criteriaJudge, healthbenchJudge, verdictJudge, rubricJudge].map((j) => [j.id, j]),
);

/** The metrics that score the built-in judges' judgements, by id. */
export const builtinJudgeMetrics: Record<string, MetricV1> = Object.fromEntries(
  [
    pairwiseJudgeMetric,
    criteriaJudgeMetric,
    lindseaJudgeMetric,
    mtBenchJudgeMetric,
    healthbenchJudgeMetric,
    aaLcrJudgeMetric,
    mathVisionJudgeMetric,
    babyVisionJudgeMetric,
    rubricJudgeMetric,
  ].map((m) => [m.id, m]),
);
