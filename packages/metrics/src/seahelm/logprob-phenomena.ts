import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";
import { requireSamples } from "./common.js";
import { cumulativeLogprobOf, logprobSummary } from "./logprob.js";
import { phenomenonOf } from "./phenomena.js";

export const MINIMAL_PAIRS_LOGPROB_ID = "seahelm-minimal-pairs-logprob";
export const PRAGMATIC_LOGPROB_ID = "seahelm-pragmatic-logprob";

type Summary = ReturnType<typeof logprobSummary>;

/** Each sample's cumulative log-probability and phenomenon, and the summary statistics per phenomenon (first-seen order). */
function byPhenomenon(metricId: string, inputs: readonly MetricInput[]): { values: (number | null)[]; perPhenomenon: Map<string, Summary> } {
  const values = inputs.map((input) => cumulativeLogprobOf(input, metricId));
  const groups = new Map<string, (number | null)[]>();
  inputs.forEach((input, i) => {
    const phenomenon = phenomenonOf(metricId, input);
    const group = groups.get(phenomenon) ?? [];
    group.push(values[i]!);
    groups.set(phenomenon, group);
  });
  const perPhenomenon = new Map<string, Summary>();
  for (const [phenomenon, group] of groups) perPhenomenon.set(phenomenon, logprobSummary(group));
  return { values, perPhenomenon };
}

function subcategoriesOf(perPhenomenon: Map<string, Summary>): Record<string, Record<string, number>> {
  return Object.fromEntries([...perPhenomenon].map(([p, s]) => [p, s.scores]));
}

/**
 * SEA-HELM's MinimalPairsLogProbMetric (LINDSEA mp-r-logprobs): the LogProbMetric statistics over all
 * rows (mean 100·exp(log-probability of the gold label), nulls as 0) and the same statistics per
 * linguistic phenomenon under `details.subcategories`.
 */
export function createSeahelmMinimalPairsLogprobMetric(): MetricV1 {
  return {
    specVersion: "v1",
    id: MINIMAL_PAIRS_LOGPROB_ID,
    description: "SEA-HELM LINDSEA minimal pairs (logprobs): mean probability (×100) of the gold label, overall and per phenomenon",
    compute(inputs: readonly MetricInput[], _options: Record<string, unknown>, _ctx?: MetricContext): MetricResult {
      requireSamples(MINIMAL_PAIRS_LOGPROB_ID, inputs);
      const { values, perPhenomenon } = byPhenomenon(MINIMAL_PAIRS_LOGPROB_ID, inputs);
      const { scores, probabilities } = logprobSummary(values);
      return {
        scores,
        perSample: inputs.map((input, i) => ({ sampleId: input.sampleId, scores: { probabilities_accuracy: probabilities[i]! } })),
        details: { subcategories: subcategoriesOf(perPhenomenon) },
      };
    },
  };
}

/**
 * SEA-HELM's PragmaticReasoningLogProbMetric (pragmatic-single/pair-logprobs). Upstream reports only
 * the LogProbMetric statistics per phenomenon (`details.subcategories` here); the task score comes from
 * the pragmatics-logprobs roll-up (`aggregatePragmaticsLogprobs`). So that the configured
 * `average_cumulative_probabilities` exists for this task alone, it is scored the way that roll-up
 * scores one task: the mean over phenomena of their average probabilities. Per-sample scores are in
 * row order (upstream lists them grouped by phenomenon, which misaligns them with interleaved rows).
 */
export function createSeahelmPragmaticLogprobMetric(): MetricV1 {
  return {
    specVersion: "v1",
    id: PRAGMATIC_LOGPROB_ID,
    description: "SEA-HELM LINDSEA pragmatics (logprobs): mean probability (×100) of the gold label per phenomenon",
    compute(inputs: readonly MetricInput[], _options: Record<string, unknown>, _ctx?: MetricContext): MetricResult {
      requireSamples(PRAGMATIC_LOGPROB_ID, inputs);
      const { values, perPhenomenon } = byPhenomenon(PRAGMATIC_LOGPROB_ID, inputs);
      const averages = [...perPhenomenon.values()].map((s) => s.scores.average_cumulative_probabilities!);
      const { probabilities } = logprobSummary(values);
      return {
        scores: {
          average_cumulative_probabilities: averages.reduce((a, b) => a + b, 0) / averages.length,
          null_count: values.filter((v) => v === null).length,
        },
        perSample: inputs.map((input, i) => ({ sampleId: input.sampleId, scores: { probabilities_accuracy: probabilities[i]! } })),
        details: { subcategories: subcategoriesOf(perPhenomenon) },
      };
    },
  };
}
