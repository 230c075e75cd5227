import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";
import { z } from "zod";
import { balancedAccuracy, macroF1 } from "./classification.js";
import { normalizeScore, predictionText, referenceLabel, requireSamples } from "./common.js";
import { createLabelMapper, extractLabelAfterTag, NULL_LABEL } from "./label-mapping.js";
import { parseOptions } from "./options.js";

export const F1ACC_ID = "seahelm-f1acc";

export const seahelmF1AccOptionsSchema = z.object({
  /** The label set; defaults to the gold labels seen in the inputs. */
  labels: z.array(z.string()).min(1).optional(),
  /** When set and `rawResponse` is present, re-extract the answer from the raw response as upstream does. */
  answerTag: z.string().optional(),
  /** Key labels by `label.lower()` like upstream instead of by their normalised form. */
  upstreamLabelKeys: z.boolean().default(false),
  nullLabel: z.string().default(NULL_LABEL),
});

/**
 * SEA-HELM's F1AccMetric: maps each prediction to a label (or "null"), then reports balanced
 * accuracy, macro F1, null-weighted F1 and chance-normalised accuracy, all on a 0–100 scale.
 */
export function createSeahelmF1AccMetric(): MetricV1 {
  return {
    specVersion: "v1",
    id: F1ACC_ID,
    description: "SEA-HELM multiple-choice/classification: balanced accuracy, macro F1, normalized accuracy",
    textPairs: true,
    compute(inputs: readonly MetricInput[], options: Record<string, unknown>, _ctx?: MetricContext): MetricResult {
      requireSamples(F1ACC_ID, inputs);
      const opts = parseOptions(F1ACC_ID, seahelmF1AccOptionsSchema, options);
      const gold = inputs.map((input) => referenceLabel(F1ACC_ID, input));
      const labels = opts.labels ?? [...new Set(gold)];
      const mapper = createLabelMapper(labels, { upstreamKeys: opts.upstreamLabelKeys, nullLabel: opts.nullLabel });
      const pred = inputs.map((input) => {
        const text =
          opts.answerTag !== undefined && typeof input.rawResponse === "string"
            ? extractLabelAfterTag(input.rawResponse, opts.answerTag, labels)
            : predictionText(F1ACC_ID, input);
        return mapper.map(text);
      });
      return f1AccScores(inputs, gold, pred, labels.length, opts.nullLabel);
    },
  };
}

/** The score block shared by F1Acc-style metrics, given mapped predictions. */
export function f1AccScores(
  inputs: readonly MetricInput[],
  gold: readonly string[],
  pred: readonly string[],
  labelCount: number,
  nullLabel: string = NULL_LABEL,
): MetricResult {
  const n = gold.length;
  const nullCount = pred.filter((p) => p === nullLabel).length;
  const balAcc = balancedAccuracy(gold, pred);
  // Upstream's null-weighted F1 restricts the average to the gold classes; its reported macro F1
  // uses sklearn's default label set (gold ∪ predicted, so "null" counts as a class scoring 0).
  const goldLabels = [...new Set(gold)];
  const f1OnGold = macroF1(gold, pred, goldLabels);
  const f1Default = macroF1(gold, pred);
  const correct = pred.map((p, i) => (p === gold[i] ? 1 : 0));
  return {
    scores: {
      accuracy: 100 * balAcc,
      macro_f1: 100 * f1Default,
      null_weighted_f1: 100 * f1OnGold * (1 - nullCount / n),
      normalized_accuracy: 100 * normalizeScore(balAcc, 1 / labelCount, 1),
      null_count: nullCount,
    },
    perSample: inputs.map((input, i) => ({ sampleId: input.sampleId, scores: { correct: correct[i] ?? 0 } })),
    details: { labelCount, goldLabels },
  };
}
