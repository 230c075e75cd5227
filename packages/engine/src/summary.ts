/** Uncertainty of a task score computed from its per-sample scores. */
export interface ScoreSummary {
  n: number;
  mean: number;
  stderr: number;
  /** Confidence interval, when the summariser computes one. */
  ci?: [number, number];
  /** The per-sample score key the summary was computed from. */
  key?: string;
}

/** `scores` may be a task's score column itself: a summariser must not modify it. */
export type Summarize = (scores: Float64Array, seed: number) => ScoreSummary;

/** n, mean and standard error (sample sd / √n) without resampling; the runner injects a bootstrap. */
export const simpleSummary: Summarize = (scores) => {
  const n = scores.length;
  let sum = 0;
  for (const v of scores) sum += v;
  const mean = sum / n;
  let squares = 0;
  for (const v of scores) squares += (v - mean) ** 2;
  const variance = n > 1 ? squares / (n - 1) : 0;
  return { n, mean, stderr: Math.sqrt(variance / n) };
};
