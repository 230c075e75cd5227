import { type CountedScore, createRng, type MetricContext, type MetricInput, type MetricV1, multinomial, mulberry32 } from "@yardstick/core";

/** Uncertainty of a task's headline score (the config's main score), on that score's own scale. */
export interface HeadlineInterval {
  /** Standard deviation of the bootstrap distribution (or the scaled standard error of a mean). */
  stderr: number;
  ci: [number, number];
  /** How it was obtained. */
  method: "mean" | "bootstrap";
  resamples?: number;
}

export interface HeadlineIntervalSettings {
  metric: MetricV1;
  inputs: readonly MetricInput[];
  options: Record<string, unknown>;
  ctx: MetricContext;
  key: string;
  value: number;
  /** The per-sample summary already computed (mean, stderr, ci) and its per-sample mean. */
  perSample?: { mean: number; stderr: number; ci?: [number, number] };
  seed: number;
}

/** Recomputing a metric on resamples costs n × resamples sample-evaluations; this caps it. */
const GENERIC_BUDGET = 2_000_000;
const FAST_BUDGET = 50_000_000;
const MAX_RESAMPLES = 1000;
const MIN_RESAMPLES = 100;

/**
 * The headline's interval, cheapest way first: when the headline is the per-sample mean (or 100×
 * it), the per-sample interval scaled; else the metric's own fast paths (`resampleByCounts`, 1,000
 * resamples of one multinomial draw each; `resampleScores`); else `compute` on resamples, with a
 * resample count that depends only on the sample count (so results are reproducible) and keeps the
 * work under a fixed budget. Returns undefined when none applies (a corpus metric without a fast
 * path on a very large task).
 */
export async function headlineInterval(s: HeadlineIntervalSettings): Promise<HeadlineInterval | undefined> {
  const n = s.inputs.length;
  if (n === 0 || !Number.isFinite(s.value)) return undefined;
  const p = s.perSample;
  if (p?.ci) {
    for (const scale of [1, 100]) {
      if (Math.abs(s.value - scale * p.mean) <= 1e-9 * Math.max(1, Math.abs(s.value))) {
        return { stderr: scale * p.stderr, ci: [scale * p.ci[0], scale * p.ci[1]], method: "mean" };
      }
    }
  }
  const counted = s.metric.resampleByCounts?.(s.inputs, s.options, s.key, s.ctx);
  if (counted) return fromDistribution(resampleCounts(counted, n, MAX_RESAMPLES, s.seed));
  const nextIndex = indexDrawer(s.seed, n);
  // Even the fast path costs n draws per resample: very large tasks get fewer (never under 200).
  const fastResamples = Math.max(200, Math.min(MAX_RESAMPLES, Math.floor(FAST_BUDGET / n)));
  const fast = s.metric.resampleScores?.(s.inputs, s.options, s.key, fastResamples, nextIndex, s.ctx);
  if (fast) return fromDistribution(fast);

  const resamples = Math.min(MAX_RESAMPLES, Math.floor(GENERIC_BUDGET / n));
  if (resamples < MIN_RESAMPLES) return undefined;
  const draws = indexDrawer(s.seed, n);
  const values = new Float64Array(resamples);
  let kept = 0;
  for (let r = 0; r < resamples; r++) {
    // Resampled copies get distinct ids: metrics may key per-sample output by id.
    const sample: MetricInput[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const src = s.inputs[draws()]!;
      sample[i] = { ...src, sampleId: `${src.sampleId}#${i}` };
    }
    try {
      const result = await s.metric.compute(sample, s.options, s.ctx);
      const v = result.scores[s.key];
      if (typeof v === "number" && Number.isFinite(v)) values[kept++] = v;
    } catch {
      // A resample the metric cannot score (e.g. a class missing) is left out of the distribution.
    }
  }
  if (kept < MIN_RESAMPLES / 2) return undefined;
  return fromDistribution(values.subarray(0, kept));
}

/** The score of `resamples` resamples of n inputs, each drawn as its counts per category. */
function resampleCounts(counted: CountedScore, n: number, resamples: number, seed: number): Float64Array {
  const weights = new Uint32Array(counted.categoryCount);
  for (let i = 0; i < counted.categories.length; i++) weights[counted.categories[i]!]!++;
  // Its own stream, apart from the per-sample summary's (seeded by the same --seed).
  const rng = createRng(`headline-interval:${seed}`);
  const uniform = () => rng.random();
  const counts = new Uint32Array(counted.categoryCount);
  const values = new Float64Array(resamples);
  let kept = 0;
  for (let r = 0; r < resamples; r++) {
    multinomial(uniform, n, weights, counts);
    const v = counted.scoreOf(counts);
    if (Number.isFinite(v)) values[kept++] = v;
  }
  return values.subarray(0, kept);
}

function fromDistribution(values: Float64Array): HeadlineInterval {
  const sorted = Float64Array.from(values).sort();
  const m = sorted.length;
  let mean = 0;
  for (const v of sorted) mean += v;
  mean /= m;
  let ss = 0;
  for (const v of sorted) ss += (v - mean) ** 2;
  const q = (p: number): number => {
    const pos = p * (m - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(m - 1, lo + 1);
    return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
  };
  return { stderr: Math.sqrt(ss / Math.max(1, m - 1)), ci: [q(0.025), q(0.975)], method: "bootstrap", resamples: m };
}

/** Seeded uniform indices in [0, n) (mulberry32: small, fast, and the same on every machine). */
function indexDrawer(seed: number, n: number): () => number {
  const next = mulberry32(seed ^ 0x9e3779b9);
  return () => Math.floor(next() * n);
}
