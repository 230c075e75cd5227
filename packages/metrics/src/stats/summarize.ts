import { resampledMeans, mean, percentileInterval, sampleSd } from "./bootstrap.js";
import { type BootstrapOptions, bootstrapOptionsSchema } from "./options.js";
import { parseWith, toFiniteFloat64 } from "./validate.js";

export interface ScoreSummary {
  n: number;
  mean: number;
  /** Standard error of the mean: sample sd (n − 1) / √n. NaN when n = 1 (undefined). */
  stderr: number;
  /** Percentile bootstrap interval for the mean at `confidence`. */
  ci: [number, number];
  confidence: number;
  resamples: number;
  seed: number;
}

/** Sample count, mean, standard error and a seeded percentile-bootstrap CI for a task's scores. */
export function summarize(scores: Float64Array | readonly number[], options: BootstrapOptions = {}): ScoreSummary {
  const opts = parseWith("summarize", bootstrapOptionsSchema, options, "options");
  // Read only: a Float64Array of finite scores is used as it is (a million scores: no 8 MB copy).
  const x = scores instanceof Float64Array && scores.length > 0 && scores.every(Number.isFinite) ? scores : toFiniteFloat64("summarize", "scores", scores);
  const n = x.length;
  const mu = mean(x);
  const stderr = sampleSd(x, mu) / Math.sqrt(n);
  const ci = percentileInterval(resampledMeans(x, opts.resamples, opts.seed), opts.confidence);
  return { n, mean: mu, stderr, ci, confidence: opts.confidence, resamples: opts.resamples, seed: opts.seed };
}
