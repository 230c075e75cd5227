import { type MetricContext, type MetricInput, type MetricResult, type MetricV1, perSampleView } from "@yardstick/core";
import { z } from "zod";
import { balancedAccuracy, macroF1 } from "./classification.js";
import { normalizeScore, predictionText, referenceLabel, requireSamples } from "./common.js";
import { createLabelMapper, extractLabelAfterTag, NULL_LABEL } from "./label-mapping.js";
import { schemaOptionsCheck } from "../options-check.js";
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
    checkOptions: schemaOptionsCheck(F1ACC_ID, seahelmF1AccOptionsSchema),
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
    resampleScores(inputs, options, key, resamples, nextIndex) {
      if (key !== "accuracy" && key !== "normalized_accuracy") return undefined;
      const opts = parseOptions(F1ACC_ID, seahelmF1AccOptionsSchema, options);
      const gold = inputs.map((input) => referenceLabel(F1ACC_ID, input));
      const labels = opts.labels ?? [...new Set(gold)];
      const mapper = createLabelMapper(labels, { upstreamKeys: opts.upstreamLabelKeys, nullLabel: opts.nullLabel });
      const pred = inputs.map((input) =>
        mapper.map(
          opts.answerTag !== undefined && typeof input.rawResponse === "string"
            ? extractLabelAfterTag(input.rawResponse, opts.answerTag, labels)
            : predictionText(F1ACC_ID, input),
        ),
      );
      return resampledBalancedAccuracy(gold, pred, labels.length, key, resamples, nextIndex);
    },
  };
}

/**
 * Balanced accuracy (mean recall over the gold classes present) of each resample, from per-sample
 * class indices and hits, so a bootstrap of 1,000 resamples costs 1,000 passes over two typed arrays.
 */
export function resampledBalancedAccuracy(
  gold: readonly string[],
  pred: readonly string[],
  labelCount: number,
  key: "accuracy" | "normalized_accuracy",
  resamples: number,
  nextIndex: () => number,
): Float64Array {
  const n = gold.length;
  const classOf = new Map<string, number>();
  // One code per sample, 2·class + hit, so each draw is one random read and one increment (the
  // draws dominate: resamples × n of them); counts[2c] are misses, counts[2c + 1] hits of class c.
  const code = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const g = gold[i]!;
    let c = classOf.get(g);
    if (c === undefined) classOf.set(g, (c = classOf.size));
    code[i] = 2 * c + (pred[i] === g ? 1 : 0);
  }
  const k = classOf.size;
  const counts = new Uint32Array(2 * k);
  const out = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[code[nextIndex()]!]!++;
    let sum = 0;
    let present = 0;
    for (let c = 0; c < k; c++) {
      const hits = counts[2 * c + 1]!;
      const total = counts[2 * c]! + hits;
      if (total === 0) continue;
      sum += hits / total;
      present++;
    }
    const balAcc = present === 0 ? 0 : sum / present;
    out[r] = key === "accuracy" ? 100 * balAcc : 100 * normalizeScore(balAcc, 1 / labelCount, 1);
  }
  return out;
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
  let nullCount = 0;
  for (const p of pred) if (p === nullLabel) nullCount++;
  const balAcc = balancedAccuracy(gold, pred);
  // Upstream's null-weighted F1 restricts the average to the gold classes; its reported macro F1
  // uses sklearn's default label set (gold ∪ predicted, so "null" counts as a class scoring 0).
  const goldLabels = [...new Set(gold)];
  const f1OnGold = macroF1(gold, pred, goldLabels);
  const f1Default = macroF1(gold, pred);
  const correct = new Float64Array(n);
  for (let i = 0; i < n; i++) correct[i] = pred[i] === gold[i] ? 1 : 0;
  const perSampleColumns = { scores: { correct } };
  return {
    scores: {
      accuracy: 100 * balAcc,
      macro_f1: 100 * f1Default,
      null_weighted_f1: 100 * f1OnGold * (1 - nullCount / n),
      normalized_accuracy: 100 * normalizeScore(balAcc, 1 / labelCount, 1),
      null_count: nullCount,
    },
    // Columns, with `perSample` a view made from them: no object per sample (a million: ~70 MB).
    perSample: perSampleView(inputs, perSampleColumns),
    perSampleColumns,
    details: { labelCount, goldLabels },
  };
}
