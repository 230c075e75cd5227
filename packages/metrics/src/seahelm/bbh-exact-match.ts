import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";
import { normalizeScore, predictionText, referenceLabel, requireSamples } from "./common.js";

export const BBH_EXACT_MATCH_ID = "seahelm-bbh-exact-match";

/** SEA-HELM BBHExactMatch: the extracted answer must equal the label string exactly (0–100). */
export function createSeahelmBbhExactMatchMetric(): MetricV1 {
  return {
    specVersion: "v1",
    id: BBH_EXACT_MATCH_ID,
    description: "SEA-HELM BBH free-form tasks: exact string match",
    textPairs: true,
    compute(inputs: readonly MetricInput[], _options: Record<string, unknown>, _ctx?: MetricContext): MetricResult {
      requireSamples(BBH_EXACT_MATCH_ID, inputs);
      const hits = inputs.map((input) =>
        predictionText(BBH_EXACT_MATCH_ID, input) === referenceLabel(BBH_EXACT_MATCH_ID, input) ? 1 : 0,
      );
      const em = hits.reduce((a: number, b) => a + b, 0) / inputs.length;
      return {
        scores: { exact_match: 100 * em, normalized_exact_match: 100 * normalizeScore(em, 0, 1) },
        perSample: inputs.map((input, i) => ({
          sampleId: input.sampleId,
          scores: { normalized_exact_match: 100 * normalizeScore(hits[i]!, 0, 1) },
        })),
      };
    },
  };
}
