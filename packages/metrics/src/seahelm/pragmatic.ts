import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";
import { NULL_LABEL } from "./label-mapping.js";
import { seahelmLabelTaskOptionsSchema, mapLabelPredictions } from "./minimal-pairs.js";
import { parseOptions } from "./options.js";
import { countByPhenomenon, phenomenonOf } from "./phenomena.js";
import { requireSamples } from "./common.js";

export const PRAGMATIC_ID = "seahelm-pragmatic";

/** Per-phenomenon `[correct, total]`, the shape upstream stores under `subcategories`. */
export type PhenomenonCounts = Record<string, [number, number]>;

/**
 * SEA-HELM's PragmaticReasoningMetric (pragmatic-single / pragmatic-pair): upstream reports only
 * `[correct, n]` per phenomenon; the task scores come from {@link aggregatePragmatics} over both
 * tasks. For convenience `accuracy` (pooled, 0–100), `correct` and `total` are also reported.
 */
export function createSeahelmPragmaticMetric(): MetricV1 {
  return {
    specVersion: "v1",
    id: PRAGMATIC_ID,
    description: "SEA-HELM LINDSEA pragmatics: [correct, n] per linguistic phenomenon",
    compute(inputs: readonly MetricInput[], options: Record<string, unknown>, _ctx?: MetricContext): MetricResult {
      requireSamples(PRAGMATIC_ID, inputs);
      const opts = parseOptions(PRAGMATIC_ID, seahelmLabelTaskOptionsSchema, options);
      const phenomena = inputs.map((input) => phenomenonOf(PRAGMATIC_ID, input));
      const { gold, pred } = mapLabelPredictions(PRAGMATIC_ID, inputs, opts);
      const correct = pred.map((p, i) => p === gold[i]);
      const subcategories: PhenomenonCounts = Object.fromEntries(countByPhenomenon(phenomena, correct));
      const nCorrect = correct.filter(Boolean).length;
      return {
        scores: {
          correct: nCorrect,
          total: inputs.length,
          accuracy: (100 * nCorrect) / inputs.length,
          null_count: pred.filter((p) => p === NULL_LABEL).length,
        },
        perSample: inputs.map((input, i) => ({ sampleId: input.sampleId, scores: { normalized_accuracy: correct[i] ? 1 : 0 } })),
        details: { subcategories },
      };
    },
  };
}
