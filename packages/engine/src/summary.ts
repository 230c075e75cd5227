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

export type Summarize = (scores: number[], seed: number) => ScoreSummary;

/** n, mean and standard error (sample sd / √n) without resampling; the runner injects a bootstrap. */
export const simpleSummary: Summarize = (scores) => {
  const n = scores.length;
  const mean = scores.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  return { n, mean, stderr: Math.sqrt(variance / n) };
};
