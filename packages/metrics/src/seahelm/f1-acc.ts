import { type CountedScore, type MetricContext, type MetricInput, type MetricResult, type MetricV1, perSampleView } from "@yardstick/core";
import { z } from "zod";
import { type ClassCounts, classCounts, codedBalancedAccuracy, codedMacroF1, LabelCodes } from "./label-codes.js";
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
  // The engine asks compute, then resampleByCounts, of the same inputs: compute's label coding is
  // handed over once (compute itself always codes afresh, so a caller's reused array is never stale).
  const handedOver = new WeakMap<readonly MetricInput[], { options: string; labels: ReturnType<typeof codedLabels> }>();
  const takeCoding = (inputs: readonly MetricInput[], opts: z.infer<typeof seahelmF1AccOptionsSchema>) => {
    const kept = handedOver.get(inputs);
    handedOver.delete(inputs);
    return kept?.options === JSON.stringify(opts) ? kept.labels : codedLabels(inputs, opts);
  };
  return {
    specVersion: "v1",
    id: F1ACC_ID,
    checkOptions: schemaOptionsCheck(F1ACC_ID, seahelmF1AccOptionsSchema),
    description: "SEA-HELM multiple-choice/classification: balanced accuracy, macro F1, normalized accuracy",
    textPairs: true,
    compute(inputs: readonly MetricInput[], options: Record<string, unknown>, _ctx?: MetricContext): MetricResult {
      requireSamples(F1ACC_ID, inputs);
      const opts = parseOptions(F1ACC_ID, seahelmF1AccOptionsSchema, options);
      const coded = codedLabels(inputs, opts);
      handedOver.set(inputs, { options: JSON.stringify(opts), labels: coded });
      const { codes, gold, pred, labels } = coded;
      return f1AccScores(inputs, codes, gold, pred, labels.length, opts.nullLabel);
    },
    resampleByCounts(inputs, options, key) {
      if (!RESAMPLED_KEYS.has(key)) return undefined;
      const opts = parseOptions(F1ACC_ID, seahelmF1AccOptionsSchema, options);
      const { codes, gold, pred, labels } = takeCoding(inputs, opts);
      return countedF1AccScore(codes, gold, pred, labels.length, opts.nullLabel, key);
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
  const classes = scoredClasses(codes, gold);
  const perSampleColumns = { scores: { correct } };
  return {
    scores: { ...scoresOfCounts(classCounts(gold, pred, codes.names.length), nullCount, n, classes, labelCount), null_count: nullCount },
    // Columns, with `perSample` a view made from them: no object per sample (a million: ~70 MB).
    perSample: perSampleView(inputs, perSampleColumns),
    perSampleColumns,
    details: { labelCount, goldLabels: classes.gold.map((k) => codes.names[k]!) },
  };
}

/** The task scores `resampleByCounts` offers: every one computed from the confusion matrix. */
const RESAMPLED_KEYS = new Set(["accuracy", "normalized_accuracy", "macro_f1", "null_weighted_f1"]);

/**
 * Score `key` as a function of confusion-matrix cell counts (category gold·K + predicted, K codes),
 * by the same formulas as `compute`, with the classes of the full inputs.
 */
function countedF1AccScore(
  codes: LabelCodes,
  gold: Uint32Array,
  pred: Uint32Array,
  labelCount: number,
  nullLabel: string,
  key: string,
): CountedScore {
  const k = codes.names.length;
  const categories = new Uint32Array(gold.length);
  for (let i = 0; i < gold.length; i++) categories[i] = gold[i]! * k + pred[i]!;
  const classes = scoredClasses(codes, gold);
  const nullCode = codes.known(nullLabel);
  return {
    categories,
    categoryCount: k * k,
    scoreOf(cells) {
      const counts: ClassCounts = {
        support: new Uint32Array(k),
        truePositives: new Uint32Array(k),
        falsePositives: new Uint32Array(k),
        falseNegatives: new Uint32Array(k),
      };
      let n = 0;
      let nullCount = 0;
      for (let g = 0; g < k; g++) {
        for (let p = 0; p < k; p++) {
          const c = cells[g * k + p]!;
          if (c === 0) continue;
          n += c;
          if (p === nullCode) nullCount += c;
          counts.support[g]! += c;
          if (p === g) counts.truePositives[g]! += c;
          else {
            counts.falsePositives[p]! += c;
            counts.falseNegatives[g]! += c;
          }
        }
      }
      return scoresOfCounts(counts, nullCount, n, classes, labelCount)[key as keyof ReturnType<typeof scoresOfCounts>];
    },
  };
}

/**
 * The classes each F1 averages over. Upstream's null-weighted F1 restricts the average to the gold
 * classes; its reported macro F1 uses sklearn's default label set (gold ∪ predicted, sorted, so
 * "null" counts as a class scoring 0). Gold codes are the first ones: 0 up to the largest seen.
 */
function scoredClasses(codes: LabelCodes, gold: Uint32Array): { gold: number[]; sorted: number[] } {
  let goldCount = 0;
  for (let i = 0; i < gold.length; i++) if (gold[i]! >= goldCount) goldCount = gold[i]! + 1;
  return {
    gold: Array.from({ length: goldCount }, (_, k) => k),
    sorted: codes.names.map((_, k) => k).sort((a, b) => compareStrings(codes.names[a]!, codes.names[b]!)),
  };
}

function scoresOfCounts(counts: ClassCounts, nullCount: number, n: number, classes: { gold: number[]; sorted: number[] }, labelCount: number) {
  const balAcc = codedBalancedAccuracy(counts);
  return {
    accuracy: 100 * balAcc,
    macro_f1: 100 * codedMacroF1(counts, classes.sorted),
    null_weighted_f1: 100 * codedMacroF1(counts, classes.gold) * (1 - nullCount / n),
    normalized_accuracy: 100 * normalizeScore(balAcc, 1 / labelCount, 1),
  };
}

/** Array.prototype.sort's default order for strings (UTF-16 code units). */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
