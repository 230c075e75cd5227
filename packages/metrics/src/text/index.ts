import type { MetricV1 } from "@yardstick/core";
import { createBleuMetric } from "./bleu-metric.js";
import { createChrfMetric, createChrfPlusPlusMetric } from "./chrf-metric.js";
import { createRougeMetric } from "./rouge-metric.js";
import { createAccuracyMetric, createExactMatchMetric, createTokenF1Metric } from "./simple-metrics.js";

export { type BleuScore, type BleuScorer, type BleuSettings, type BleuSmoothMethod, computeBleu, createBleuScorer } from "./bleu.js";
export { type BleuTokenizerName, BLEU_TOKENIZERS, getBleuTokenizer, isSacrebleuChineseChar } from "./bleu-tokenizers.js";
export { type ChrfScore, type ChrfScorer, type ChrfSettings, chrfWords, createChrfScorer } from "./chrf.js";
export { createPorterStemmer, porterStem } from "./porter-stemmer.js";
export {
  DEFAULT_ROUGE_TYPES,
  type RougeScorer,
  type RougeSettings,
  type RougeValue,
  createRougeScorer,
  rougeTokenize,
  summaryLevelLcs,
} from "./rouge.js";
export { squadNormalize, squadTokenF1 } from "./squad-normalize.js";
export { bleuSegmentStatistics, createBleuMetric, type BleuSummary } from "./bleu-metric.js";
export { type ChrfSummary, chrfSegmentStatistics, createChrfMetric, createChrfPlusPlusMetric } from "./chrf-metric.js";
export { type SegmentStatistics, sumColumns } from "./segment-statistics.js";
export { createRougeMetric } from "./rouge-metric.js";
export { createAccuracyMetric, createExactMatchMetric, createTokenF1Metric } from "./simple-metrics.js";

/** The text metrics, keyed by registry id. */
export const textMetrics: Record<string, MetricV1> = {
  bleu: createBleuMetric(),
  chrf: createChrfMetric(),
  "chrf++": createChrfPlusPlusMetric(),
  rouge: createRougeMetric(),
  "exact-match": createExactMatchMetric(),
  "token-f1": createTokenF1Metric(),
  accuracy: createAccuracyMetric(),
};
