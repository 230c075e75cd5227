/**
 * Shared pieces of the LongProc metrics (Countdown, HtmlToTsv, PathTraversal, ToMTracking,
 * TravelPlanning): reading the response and the label, cutting a tagged block out of the response,
 * and the task score set (percentages, as SEA-HELM reports them).
 */
import { MetricError, type MetricInput, type MetricResult, type MetricV1, pyStrip } from "@yardstick/core";
import { z } from "zod";
import { schemaOptionsCheck } from "../../options-check.js";
import { describe, normalizeScore, predictionText, requireSamples } from "../common.js";
import { parseOptions } from "../options.js";

/** Options every LongProc metric takes. */
export const longprocBaseOptions = {
  /**
   * Upstream parses the model's full response (it sets no answer tag); false parses the
   * postprocessed prediction instead.
   */
  useRawResponse: z.boolean().default(true),
};

/** The text the metric parses: the raw response when kept (and wanted), else the prediction. */
export function responseText(metricId: string, input: MetricInput, useRawResponse: boolean): string {
  if (useRawResponse && typeof input.rawResponse === "string") return input.rawResponse;
  return predictionText(metricId, input);
}

/**
 * The block between the first `open` and the last `close` after it, trimmed; null when either is
 * missing. This is what upstream's greedy `(?<=open)([\s\S]*)(?=close)` search returns.
 */
export function taggedBlock(text: string, open: string, close: string): string | null {
  const start = text.indexOf(open);
  if (start < 0) return null;
  const from = start + open.length;
  const end = text.lastIndexOf(close);
  if (end < from) return null;
  return pyStrip(text.slice(from, end));
}

/** Python's `s.split(sep)[1]`: the text between the first and the second `sep`. */
export function afterFirst(text: string, sep: string): string {
  const parts = text.split(sep);
  return parts[1] ?? "";
}

/** The label as an object with the named fields (upstream's `ref["..."]`). */
export function labelObject(metricId: string, input: MetricInput): Record<string, unknown> {
  const r = input.reference;
  if (typeof r === "object" && r !== null && !Array.isArray(r)) return r as Record<string, unknown>;
  throw new MetricError(`reference must be the task's label object, got ${describe(r)}`, { metricId, sampleId: input.sampleId });
}

export function labelString(metricId: string, input: MetricInput, field?: string): string {
  const value = field === undefined ? input.reference : labelObject(metricId, input)[field];
  if (typeof value === "string") return value;
  const where = field === undefined ? "reference" : `reference.${field}`;
  throw new MetricError(`${where} must be a string, got ${describe(value)}`, { metricId, sampleId: input.sampleId });
}

/** Per-sample outcome of an accuracy-style LongProc metric (each 0 or 1, partial in [0, 1]). */
export interface LongprocOutcome {
  accuracy: number;
  partial: number;
  /** Undefined for ToMTracking, which reports no extraction rate. */
  extracted?: number;
  error?: string;
}

const pct = (values: readonly number[]) => (100 * values.reduce((a, b) => a + b, 0)) / values.length;

/**
 * accuracy, partial_accuracy, extraction_rate (when measured) and normalized_accuracy, as task
 * scores and per sample (each ×100, so a per-sample mean is the task score).
 */
export function accuracyResult(inputs: readonly MetricInput[], outcomes: readonly LongprocOutcome[]): MetricResult {
  const withExtraction = outcomes.every((o) => o.extracted !== undefined);
  const accuracy = pct(outcomes.map((o) => o.accuracy));
  const scores: Record<string, number> = {
    accuracy,
    partial_accuracy: pct(outcomes.map((o) => o.partial)),
    ...(withExtraction ? { extraction_rate: pct(outcomes.map((o) => o.extracted!)) } : {}),
    normalized_accuracy: 100 * normalizeScore(accuracy / 100, 0, 1),
  };
  const errors: Record<string, string> = {};
  const perSample = outcomes.map((o, i) => {
    const id = inputs[i]!.sampleId;
    if (o.error) errors[id] = o.error;
    return {
      sampleId: id,
      scores: {
        normalized_accuracy: 100 * normalizeScore(o.accuracy, 0, 1),
        accuracy: 100 * o.accuracy,
        partial_accuracy: 100 * o.partial,
        ...(withExtraction ? { extraction_rate: 100 * o.extracted! } : {}),
      },
    };
  });
  return { scores, perSample, details: { errorReports: errors } };
}

/**
 * A LongProc metric scored by accuracy and partial accuracy: options checked and parsed with
 * `schema`, each sample scored by `score` with the text it should parse (see responseText).
 */
export function accuracyMetric<S extends z.ZodType<{ useRawResponse: boolean }>>(spec: {
  id: string;
  description: string;
  textPairs: boolean;
  schema: S;
  score: (input: MetricInput, response: string, options: z.output<S>) => LongprocOutcome;
}): MetricV1 {
  return {
    specVersion: "v1",
    id: spec.id,
    description: spec.description,
    textPairs: spec.textPairs,
    checkOptions: schemaOptionsCheck(spec.id, spec.schema),
    compute(inputs, options) {
      requireSamples(spec.id, inputs);
      const opts = parseOptions(spec.id, spec.schema, options);
      const outcomes = inputs.map((input) => spec.score(input, responseText(spec.id, input, opts.useRawResponse), opts));
      return accuracyResult(inputs, outcomes);
    },
  };
}
