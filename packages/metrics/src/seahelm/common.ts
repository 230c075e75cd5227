import { MetricError, type MetricInput } from "@yardstick/core";

/**
 * SEA-HELM's `normalize_score`: rescales `score` from [lo, hi] to [0, 1], floored at 0 but with no
 * upper clamp (a score above `hi` stays above 1). Returns 0 when the range is empty.
 */
export function normalizeScore(score: number, lo: number, hi: number): number {
  if (lo === hi) return 0;
  return Math.max((score - lo) / (hi - lo), 0);
}

/** Throws a MetricError when a metric is given no samples; every SEA-HELM metric divides by N. */
export function requireSamples(metricId: string, inputs: readonly MetricInput[]): void {
  if (!Array.isArray(inputs) || inputs.length === 0) {
    throw new MetricError("no samples to score (expected at least one MetricInput)", { metricId });
  }
}

/** The prediction as a string. A failed request replaced by "" is a string too. */
export function predictionText(metricId: string, input: MetricInput): string {
  const p = input.prediction;
  if (typeof p === "string") return p;
  throw new MetricError(`prediction must be a string, got ${describe(p)}`, { metricId, sampleId: input.sampleId });
}

/** A single gold label; numbers are accepted and compared as their decimal string (as upstream's `str(label)`). */
export function referenceLabel(metricId: string, input: MetricInput): string {
  const r = input.reference;
  if (typeof r === "string") return r;
  if (typeof r === "number" && Number.isFinite(r)) return String(r);
  throw new MetricError(`reference must be a string label, got ${describe(r)}`, { metricId, sampleId: input.sampleId });
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  if (typeof value === "string") return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value;
}

export function mean(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

