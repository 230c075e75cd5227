import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";
import { MetricError } from "@yardstick/core";
import { describe, mean, requireSamples } from "./common.js";

export const LOGPROB_ID = "seahelm-logprob";

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A sample's cumulative log-probability of the gold continuation: a number, a numeric string, the
 * engine's loglikelihood answer (a list with the one scored continuation's value), or
 * null/undefined/blank for a missing value (counted as probability 0; a failed request reaches the
 * metric as ""). NaN, ±Infinity, positive values and non-decimal strings are rejected rather than
 * silently scored.
 */
export function cumulativeLogprobOf(input: MetricInput, metricId: string = LOGPROB_ID): number | null {
  let v = input.prediction;
  if (Array.isArray(v)) {
    if (v.length !== 1) {
      throw new MetricError(`prediction must be the log-probability of the one gold continuation, got ${describe(v)}`, {
        metricId,
        sampleId: input.sampleId,
      });
    }
    v = v[0];
  }
  if (v === null || v === undefined || (typeof v === "string" && v.trim() === "")) return null;
  // Strings must be plain decimals ("0x10", "Infinity" are not log-probabilities); a log-probability
  // is finite and at most 0 (a tiny positive rounding error is tolerated).
  const x = typeof v === "string" ? (DECIMAL.test(v.trim()) ? Number(v.trim()) : Number.NaN) : v;
  if (typeof x !== "number" || !Number.isFinite(x) || x > 1e-9) {
    throw new MetricError(`prediction must be a cumulative log-probability (number ≤ 0) or null, got ${describe(v)}`, {
      metricId,
      sampleId: input.sampleId,
    });
  }
  return x;
}

function stderr(values: readonly number[]): number {
  if (values.length <= 1) return 0;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return Math.sqrt(ss / (values.length - 1) / values.length);
}

/** Per-sample 100·exp(logprob), missing values as 0, plus upstream's summary statistics. */
export function logprobSummary(values: readonly (number | null)[]): { scores: Record<string, number>; probabilities: number[] } {
  const valid = values.filter((v): v is number => v !== null);
  const probabilities = values.map((v) => (v === null ? 0 : 100 * Math.exp(v)));
  const enough = valid.length > 1;
  return {
    scores: {
      null_count: values.length - valid.length,
      // Upstream reports 0 for the log-prob mean and its stderr when fewer than 2 values are valid.
      average_cumulative_logprobs: enough ? mean(valid) : 0,
      clt_se_cumulative_logprobs: enough ? stderr(valid) : 0,
      average_cumulative_probabilities: mean(probabilities),
      clt_se_cumulative_probabilities: stderr(probabilities),
    },
    probabilities,
  };
}

/** SEA-HELM's LogProbMetric: mean of 100·exp(cumulative log-probability of the gold answer). */
export function createSeahelmLogprobMetric(): MetricV1 {
  return {
    specVersion: "v1",
    id: LOGPROB_ID,
    description: "SEA-HELM *-logprobs tasks: mean probability (×100) of the gold continuation",
    compute(inputs: readonly MetricInput[], _options: Record<string, unknown>, _ctx?: MetricContext): MetricResult {
      requireSamples(LOGPROB_ID, inputs);
      const { scores, probabilities } = logprobSummary(inputs.map((input) => cumulativeLogprobOf(input)));
      return {
        scores,
        perSample: inputs.map((input, i) => ({ sampleId: input.sampleId, scores: { probabilities_accuracy: probabilities[i]! } })),
      };
    },
  };
}
