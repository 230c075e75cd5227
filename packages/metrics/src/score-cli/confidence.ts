/**
 * `yardstick score --confidence`: sacrebleu's single-system bootstrap interval. Segments are
 * resampled with replacement `resamples` times, the corpus score is recomputed for each resample,
 * and the result is the mean of those scores with the half-width of their 95% interval.
 */
import { bootstrapMeans, mean } from "../stats/bootstrap.js";
import type { SegmentStatistics } from "../text/segment-statistics.js";

export interface BootstrapEstimate {
  /** Mean of the resampled corpus scores (sacrebleu's μ). */
  mean: number;
  /** Half the distance between the 2.5% and 97.5% resampled scores (sacrebleu's ±). */
  halfWidth: number;
}

/**
 * Corpus scores of bootstrap resamples of summed segment statistics. `bootstrapMeans` draws the
 * same index stream for a given seed and length, so resampling each statistic column with one seed
 * resamples whole segments; mean × n gives back the resampled column sum (rounded: counts are integers).
 */
export function resampledCorpusScores(stats: SegmentStatistics, resamples: number, seed: number): Float64Array {
  const n = stats.segments.length;
  const width = stats.segments[0]?.length ?? 0;
  const columns: Float64Array[] = [];
  for (let k = 0; k < width; k++) {
    const column = Float64Array.from(stats.segments, (row) => row[k]!);
    columns.push(bootstrapMeans(column, resamples, seed));
  }
  const scores = new Float64Array(resamples);
  const sum = new Array<number>(width);
  for (let r = 0; r < resamples; r++) {
    for (let k = 0; k < width; k++) sum[k] = Math.round(columns[k]![r]! * n);
    scores[r] = stats.corpusScore(sum);
  }
  return scores;
}

/** Resampled scores of a metric whose corpus score is the mean of its per-segment scores. */
export function resampledMeanScores(perSegment: readonly number[], resamples: number, seed: number): Float64Array {
  return bootstrapMeans(Float64Array.from(perSegment), resamples, seed);
}

/**
 * sacrebleu's estimate: sort the resampled scores, take the ones at index ⌊n/40⌋ from either end
 * (no interpolation) as the 95% bounds, report half their distance around the mean.
 */
export function bootstrapEstimate(scores: Float64Array): BootstrapEstimate {
  const sorted = Float64Array.from(scores).sort();
  const lowerIndex = Math.floor(sorted.length / 40);
  const upperIndex = sorted.length - lowerIndex - 1;
  return { mean: mean(sorted), halfWidth: 0.5 * (sorted[upperIndex]! - sorted[lowerIndex]!) };
}
