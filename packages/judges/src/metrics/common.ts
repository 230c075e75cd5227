/** What the judged metrics share: reading a sample's judgements, categories, error lists, option checks. */
import type { Judgement, JudgementRecord, MetricInput } from "@yardstick/core";
import type { z } from "zod";
import { parseOptionsFor } from "../common.js";

/** A judgement error of one sample, as the metrics report it in `details.errors`. */
export interface JudgeErrorDetail {
  sampleId: string;
  call: string;
  error: string;
}

/**
 * The judge stage's judgements of a sample by call id. A retry (`<id>#retry`) replaces the call it
 * retried; human labels (stage "label") are not judge output and are left out.
 */
export function judgeCalls(input: MetricInput): Map<string, Judgement> {
  const out = new Map<string, Judgement>();
  const records: readonly JudgementRecord[] = input.judgements ?? [];
  for (const r of records) if (r.stage === "judge" && !r.call.endsWith("#retry")) out.set(r.call, r.judgement);
  for (const r of records) if (r.stage === "judge" && r.call.endsWith("#retry")) out.set(r.call.slice(0, -"#retry".length), r.judgement);
  return out;
}

/** A metadata field of the sample as a category name; "(none)" when absent. */
export function categoryOf(input: MetricInput, field: string): string {
  const fromMeta = input.sample?.metadata?.[field];
  const value = fromMeta ?? input.sample?.raw?.[field];
  if (Array.isArray(value)) return value.length > 0 ? String(value[0]) : "(none)";
  return value === undefined || value === null || value === "" ? "(none)" : String(value);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Per-category mean of per-sample values, ×`scale`, with counts. */
export function categoryMeans(rows: readonly { category: string; value: number }[], scale: number): Record<string, { score: number; n: number }> {
  const groups = new Map<string, number[]>();
  for (const r of rows) {
    const g = groups.get(r.category);
    if (g) g.push(r.value);
    else groups.set(r.category, [r.value]);
  }
  const out: Record<string, { score: number; n: number }> = {};
  for (const [category, values] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[category] = { score: scale * mean(values), n: values.length };
  return out;
}

/** Parses a metric's options; the first problem is a ConfigError naming the metric and the key. */
export function parseMetricOptions<T extends z.ZodType>(metricId: string, schema: T, options: unknown): z.infer<T> {
  return parseOptionsFor(`metric ${metricId}`, schema, options);
}

/** The message for a sample that has no judgement for a call the metric needs. */
export const NO_JUDGEMENT = "no judgement was stored for this call (the judge request failed, or the judge stage did not run)";
