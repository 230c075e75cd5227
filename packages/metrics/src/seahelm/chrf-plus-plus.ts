import { MetricError } from "@yardstick/core";
import { createChrfScorer } from "../text/chrf.js";
import { normalizeScore } from "./common.js";

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

/** `chrf_score` and `normalized_chrf_score` as upstream reports them. */
export function chrfScores(
  metricId: string,
  settings: SeahelmMetricSettings,
  preds: readonly string[],
  refs: readonly string[],
): Record<string, number> {
  const chrf = settings.chrf ?? sacrebleuChrfPlusPlus;
  const score = chrf(preds, refs);
  if (!Number.isFinite(score)) throw new MetricError(`chrF++ returned a non-finite score (${String(score)})`, { metricId });
  // Upstream normalises the 0–100 chrF score against [0, 1], so this is chrF × 1 (not clamped).
  return { chrf_score: score, normalized_chrf_score: normalizeScore(score, 0, 1) };
}
