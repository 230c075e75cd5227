import { bootstrapMeans, mean, percentileInterval, sampleSd } from "./bootstrap.js";
import { bootstrapMeansInBackground } from "./bootstrap-worker.js";
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
  const { x, opts, n, mu, stderr } = prepare(scores, options);
  const ci = percentileInterval(bootstrapMeans(x, opts.resamples, opts.seed), opts.confidence);
  return { n, mean: mu, stderr, ci, confidence: opts.confidence, resamples: opts.resamples, seed: opts.seed };
}

/**
 * `summarize` with the bootstrap on a worker thread when the input is large (bootstrap-worker.ts):
 * the same summary, while the caller's thread does other work (a task's headline interval).
 */
export async function summarizeInBackground(scores: Float64Array | readonly number[], options: BootstrapOptions = {}): Promise<ScoreSummary> {
  const { x, opts, n, mu, stderr } = prepare(scores, options);
  const ci = percentileInterval(await bootstrapMeansInBackground(x, opts.resamples, opts.seed), opts.confidence);
  return { n, mean: mu, stderr, ci, confidence: opts.confidence, resamples: opts.resamples, seed: opts.seed };
}

function prepare(scores: Float64Array | readonly number[], options: BootstrapOptions) {
  const opts = parseWith("summarize", bootstrapOptionsSchema, options, "options");
  // Read only: a Float64Array of finite scores is used as it is (a million scores: no 8 MB copy).
  const x = scores instanceof Float64Array && scores.length > 0 && scores.every(Number.isFinite) ? scores : toFiniteFloat64("summarize", "scores", scores);
  const n = x.length;
  const mu = mean(x);
  const stderr = sampleSd(x, mu) / Math.sqrt(n);
  return { x, opts, n, mu, stderr };
}
