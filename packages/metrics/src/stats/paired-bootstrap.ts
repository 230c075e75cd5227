import { resampledMeans, mean, percentileInterval } from "./bootstrap.js";
import { type BootstrapOptions, bootstrapOptionsSchema } from "./options.js";
import { parseWith, statsError, toFiniteFloat64 } from "./validate.js";

export interface PairedBootstrapResult {
  n: number;
  meanA: number;
  meanB: number;
  /** meanA − meanB (= mean of the per-item differences). */
  diff: number;
  /** Percentile bootstrap interval for `diff`. */
  ci: [number, number];
  /**
   * Two-sided bootstrap p-value for H0: E[a − b] = 0. The resampled means are centred on the observed
   * difference to imitate the null, and p = (1 + #{|d*ᵣ − d̄| ≥ |d̄|}) / (R + 1); the +1 keeps a
   * finite-resample p-value from ever being exactly 0.
   */
  pValue: number;
  confidence: number;
  resamples: number;
  seed: number;
}

/** Paired bootstrap on per-item scores of two systems over the same items (a[i] and b[i] are one item). */
export function pairedBootstrap(
  a: Float64Array | readonly number[],
  b: Float64Array | readonly number[],
  options: BootstrapOptions = {},
): PairedBootstrapResult {
  const fn = "pairedBootstrap";
  const opts = parseWith(fn, bootstrapOptionsSchema, options, "options");
  const xa = toFiniteFloat64(fn, "a", a);
  const xb = toFiniteFloat64(fn, "b", b);
  if (xa.length !== xb.length) {
    throw statsError(fn, `a has ${xa.length} scores but b has ${xb.length} (expected one pair per item)`);
  }
  const n = xa.length;
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = xa[i]! - xb[i]!;
  const meanA = mean(xa);
  const meanB = mean(xb);
  const diff = mean(d);
  const means = resampledMeans(d, opts.resamples, opts.seed);
  const observed = Math.abs(diff);
  let extreme = 0;
  for (let r = 0; r < means.length; r++) if (Math.abs(means[r]! - diff) >= observed) extreme++;
  const pValue = (1 + extreme) / (opts.resamples + 1);
  const ci = percentileInterval(means, opts.confidence);
  return { n, meanA, meanB, diff, ci, pValue, confidence: opts.confidence, resamples: opts.resamples, seed: opts.seed };
}
