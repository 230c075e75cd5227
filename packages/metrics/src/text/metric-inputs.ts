/** Validation shared by the text metrics: options through zod, predictions/references by explicit checks. */
import { type MetricInput, MetricError } from "@yardstick/core";
import type { z } from "zod";

/** Parses a metric's options; failures become a MetricError naming each bad option and what was expected. */
export function parseTextOptions<T extends z.ZodType>(metricId: string, schema: T, options: unknown): z.infer<T> {
  const result = schema.safeParse(options ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues
    .map((i) => `option ${i.path.length > 0 ? i.path.join(".") : "(options)"}: ${i.message}`)
    .join("; ");
  throw new MetricError(`invalid options: ${issues}`, { metricId });
}

/** The prediction as text. A failed request (`error` set) scores as the empty string. */
export function predictionText(metricId: string, input: MetricInput): string {
  const p = input.prediction;
  if (typeof p === "string") return p;
  if ((p === undefined || p === null) && input.error !== undefined) return "";
  throw new MetricError(`prediction must be a string, got ${describe(p)}`, { metricId, sampleId: input.sampleId });
}

/**
 * The references as a list: a string is one reference; an array may mix strings and null
 * (null = no reference in that slot, like sacrebleu's None). At least one string is required.
 */
export function referenceTexts(metricId: string, input: MetricInput): (string | null)[] {
  const r = input.reference;
  if (typeof r === "string") return [r];
  if (Array.isArray(r)) {
    const out: (string | null)[] = [];
    let any = false;
    for (const [i, x] of r.entries()) {
      if (typeof x === "string") {
        out.push(x);
        any = true;
      } else if (x === null || x === undefined) out.push(null);
      else {
        throw new MetricError(`reference[${i}] must be a string or null, got ${describe(x)}`, { metricId, sampleId: input.sampleId });
      }
    }
    if (!any) throw new MetricError("no reference text (the reference list is empty or all null)", { metricId, sampleId: input.sampleId });
    return out;
  }
  throw new MetricError(`reference must be a string or a list of strings, got ${describe(r)}`, { metricId, sampleId: input.sampleId });
}

/** Only the string references (for metrics that take the best over references). */
export function definedReferences(metricId: string, input: MetricInput): string[] {
  return referenceTexts(metricId, input).filter((x): x is string => x !== null);
}

export function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}
