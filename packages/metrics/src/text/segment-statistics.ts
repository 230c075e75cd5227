/**
 * Corpus metrics such as BLEU and chrF are not means of sentence scores: their corpus score comes
 * from summed per-segment counts. Bootstrap resampling (sacrebleu's `--confidence`) therefore
 * resamples segments, sums their counts and rescores the sum.
 */
export interface SegmentStatistics {
  /** One row of sufficient statistics (integer counts) per segment, all of the same length. */
  readonly segments: readonly (readonly number[])[];
  /** The corpus score of summed statistics (a row of the same length). */
  corpusScore(sum: readonly number[]): number;
}

/** Column sums of rows of `width` numbers. */
export function sumColumns(rows: readonly (readonly number[])[], width: number): number[] {
  const sum = new Array<number>(width).fill(0);
  for (const row of rows) for (let k = 0; k < width; k++) sum[k]! += row[k]!;
  return sum;
}
