import { createChrfScorer } from "../text/chrf.js";

/**
 * Corpus-level chrF++ (sacrebleu `CHRF(word_order=2).corpus_score(hyps, [refs]).score`, 0–100).
 * SEA-HELM only uses it when a config sets `use_chrf_metric: true` (no shipped config does).
 */
export type ChrfPlusPlus = (hypotheses: readonly string[], references: readonly string[]) => number;

export interface SeahelmMetricSettings {
  /** Overrides the chrF++ used by the `useChrf` option of seahelm-translation and seahelm-summarization. */
  chrf?: ChrfPlusPlus;
}

const chrfPlusPlusScorer = createChrfScorer({ wordOrder: 2 });

/** The default: the package's sacrebleu-compatible chrF++, one reference per hypothesis. */
export const sacrebleuChrfPlusPlus: ChrfPlusPlus = (hypotheses, references) =>
  chrfPlusPlusScorer.corpusScore(
    hypotheses,
    references.map((r) => [r]),
  ).score;
