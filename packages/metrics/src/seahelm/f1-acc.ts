import { type MetricContext, type MetricInput, type MetricResult, type MetricV1, perSampleView } from "@yardstick/core";
import { z } from "zod";
import { classCounts, codedBalancedAccuracy, codedMacroF1, LabelCodes } from "./label-codes.js";
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
      const { codes, gold, pred, labels } = codedLabels(inputs, opts);
      return f1AccScores(inputs, codes, gold, pred, labels.length, opts.nullLabel);
    },
    resampleScores(inputs, options, key, resamples, nextIndex) {
      if (key !== "accuracy" && key !== "normalized_accuracy") return undefined;
      const opts = parseOptions(F1ACC_ID, seahelmF1AccOptionsSchema, options);
      const { gold, pred, labels } = codedLabels(inputs, opts);
      return resampledBalancedAccuracy(gold, pred, labels.length, key, resamples, nextIndex);
    },
  };
}

/**
 * Gold labels and mapped predictions as codes (gold labels first, in first-seen order), and the
 * label set the predictions are mapped to (the option's, else the gold labels).
 */
function codedLabels(
  inputs: readonly MetricInput[],
  opts: z.infer<typeof seahelmF1AccOptionsSchema>,
): { codes: LabelCodes; gold: Uint32Array; pred: Uint32Array; labels: readonly string[] } {
  const n = inputs.length;
  const codes = new LabelCodes();
  const gold = new Uint32Array(n);
  for (let i = 0; i < n; i++) gold[i] = codes.codeOf(referenceLabel(F1ACC_ID, inputs[i]!));
  const labels = opts.labels ?? codes.names.slice();
  const mapper = createLabelMapper(labels, { upstreamKeys: opts.upstreamLabelKeys, nullLabel: opts.nullLabel });
  const pred = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const input = inputs[i]!;
    const text =
      opts.answerTag !== undefined && typeof input.rawResponse === "string"
        ? extractLabelAfterTag(input.rawResponse, opts.answerTag, labels)
        : predictionText(F1ACC_ID, input);
    pred[i] = codes.codeOf(mapper.map(text));
  }
  return { codes, gold, pred, labels };
}

/**
 * Balanced accuracy (mean recall over the gold classes present) of each resample, from per-sample
 * class indices and hits, so a bootstrap of 1,000 resamples costs 1,000 passes over two typed arrays.
 */
export function resampledBalancedAccuracy(
  gold: Uint32Array,
  pred: Uint32Array,
  labelCount: number,
  key: "accuracy" | "normalized_accuracy",
  resamples: number,
  nextIndex: () => number,
): Float64Array {
  const n = gold.length;
  // Classes numbered by first appearance in gold (gold codes come first, so a gold code is its class).
  let classes = 0;
  // One code per sample, 2·class + hit, so each draw is one random read and one increment (the
  // draws dominate: resamples × n of them); counts[2c] are misses, counts[2c + 1] hits of class c.
  const code = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const c = gold[i]!;
    if (c >= classes) classes = c + 1;
    code[i] = 2 * c + (pred[i] === c ? 1 : 0);
  }
  const k = classes;
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

/** The score block shared by F1Acc-style metrics, given coded gold labels and mapped predictions. */
export function f1AccScores(
  inputs: readonly MetricInput[],
  codes: LabelCodes,
  gold: Uint32Array,
  pred: Uint32Array,
  labelCount: number,
  nullLabel: string = NULL_LABEL,
): MetricResult {
  const n = gold.length;
  const nullCode = codes.known(nullLabel);
  let nullCount = 0;
  const correct = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (pred[i] === nullCode) nullCount++;
    correct[i] = pred[i] === gold[i] ? 1 : 0;
  }
  const counts = classCounts(gold, pred, codes.names.length);
  const balAcc = codedBalancedAccuracy(counts);
  // Upstream's null-weighted F1 restricts the average to the gold classes; its reported macro F1
  // uses sklearn's default label set (gold ∪ predicted, sorted, so "null" counts as a class scoring 0).
  // Gold codes are the first ones: 0 up to the largest seen.
  let goldCount = 0;
  for (let i = 0; i < n; i++) if (gold[i]! >= goldCount) goldCount = gold[i]! + 1;
  const goldClasses = Array.from({ length: goldCount }, (_, k) => k);
  const goldLabels = goldClasses.map((k) => codes.names[k]!);
  const f1OnGold = codedMacroF1(counts, goldClasses);
  const sortedClasses = codes.names.map((_, k) => k).sort((a, b) => compareStrings(codes.names[a]!, codes.names[b]!));
  const f1Default = codedMacroF1(counts, sortedClasses);
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

/** Array.prototype.sort's default order for strings (UTF-16 code units). */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
