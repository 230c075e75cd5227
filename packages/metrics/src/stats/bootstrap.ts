import { createRng, multinomial, seedState } from "@yardstick/core";

const INV_2_32 = 1 / 4294967296;

/**
 * Means of `resamples` bootstrap resamples of `values` (each the same size as `values`, drawn with
 * replacement). This is the hot path: the xoshiro128** step is inlined with its state in locals and
 * each draw is added straight into a running sum, so nothing is allocated per resample or per draw.
 * Draw k of the stream picks index floor(u_k · n / 2^32), exactly as `createRng(seed).nextInt(n)`.
 */
export function bootstrapMeans(values: Float64Array, resamples: number, seed: number): Float64Array {
  const n = values.length;
  const scale = n * INV_2_32;
  const means = new Float64Array(resamples);
  const st = seedState(seed);
  let s0 = st[0] | 0;
  let s1 = st[1] | 0;
  let s2 = st[2] | 0;
  let s3 = st[3] | 0;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const m = Math.imul(s1, 5);
      const u = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      // u·scale < n < 2^31, so `| 0` is floor.
      sum += values[(u * scale) | 0]!;
    }
    means[r] = sum / n;
  }
  return means;
}

/** Scores with at most this many distinct values are resampled by counts (`resampledMeans`). */
const MAX_LEVELS = 64;

/**
 * Means of `resamples` bootstrap resamples of `values`, like `bootstrapMeans`, but when the values
 * take at most 64 distinct levels (0/1 correctness, a rubric's scores) each resample is one
 * multinomial draw of how often each level is picked, n trials weighted by the levels' counts: the
 * same distribution at a cost independent of n. The draws are not `bootstrapMeans`' index by
 * index; use that where several columns must share their draws (a corpus score's sufficient statistics).
 */
export function resampledMeans(values: Float64Array, resamples: number, seed: number): Float64Array {
  const levels = distinctLevels(values, MAX_LEVELS);
  if (!levels) return bootstrapMeans(values, resamples, seed);
  const n = values.length;
  const rng = createRng(seed);
  const uniform = () => rng.random();
  const counts = new Uint32Array(levels.values.length);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    multinomial(uniform, n, levels.counts, counts);
    let sum = 0;
    for (let j = 0; j < counts.length; j++) sum += counts[j]! * levels.values[j]!;
    means[r] = sum / n;
  }
  return means;
}

/** The distinct values (in first-seen order) and how often each occurs; undefined past `max` of them. */
function distinctLevels(values: Float64Array, max: number): { values: number[]; counts: Uint32Array } | undefined {
  const index = new Map<number, number>();
  const found: number[] = [];
  const counts = new Uint32Array(max);
  let last = Number.NaN;
  let lastAt = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    // Runs of one value are common (sorted or constant columns): skip the map lookup.
    if (v === last) {
      counts[lastAt]!++;
      continue;
    }
    let at = index.get(v);
    if (at === undefined) {
      if (found.length === max) return undefined;
      at = found.length;
      found.push(v);
      index.set(v, at);
    }
    counts[at]!++;
    last = v;
    lastAt = at;
  }
  return { values: found, counts: counts.slice(0, found.length) };
}

/**
 * Quantile of an ascending-sorted array with linear interpolation between order statistics
 * (position (len − 1)·q, the same rule as numpy's default "linear" method).
 */
export function sortedQuantile(sorted: Float64Array, q: number): number {
  const len = sorted.length;
  const h = (len - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, len - 1);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (h - lo) * (b - a);
}

/** Percentile confidence interval [q(α/2), q(1 − α/2)]; sorts `means` in place. */
export function percentileInterval(means: Float64Array, confidence: number): [number, number] {
  means.sort();
  const tail = (1 - confidence) / 2;
  return [sortedQuantile(means, tail), sortedQuantile(means, 1 - tail)];
}

/** Arithmetic mean (two-term compensated sum, so long runs of scores do not drift). */
export function mean(values: Float64Array): number {
  let sum = 0;
  let c = 0;
  for (let i = 0; i < values.length; i++) {
    const y = values[i]! - c;
    const t = sum + y;
    c = t - sum - y;
    sum = t;
  }
  return sum / values.length;
}

/** Sample standard deviation (n − 1 denominator, two-pass); NaN for a single value. */
export function sampleSd(values: Float64Array, mu: number): number {
  const n = values.length;
  if (n < 2) return Number.NaN;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i]! - mu;
    ss += d * d;
  }
  return Math.sqrt(ss / (n - 1));
}
