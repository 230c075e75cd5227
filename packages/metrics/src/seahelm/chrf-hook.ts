/**
 * Corpus-level chrF++ (sacrebleu `CHRF(word_order=2).corpus_score(hyps, [refs]).score`, 0–100).
 * SEA-HELM only uses it when a config sets `use_chrf_metric: true` (no shipped config does), so the
 * SEA-HELM metrics take it as an injected function rather than carrying their own implementation.
 */
export type ChrfPlusPlus = (hypotheses: readonly string[], references: readonly string[]) => number;

export interface SeahelmMetricSettings {
  /** Enables the `useChrf` option of seahelm-translation and seahelm-summarization. */
  chrf?: ChrfPlusPlus;
}
