/**
 * How a yardstick `MetricInput` maps onto UltraEval's `metric(doc, ground_truth, results)`:
 * - `results` ← `prediction`: the postprocessed output, or a list of them (one per `sampling_num`
 *   draw); most metrics read only the first.
 * - `ground_truth` ← `reference`: the transform's `processed_output` (a string or a list of strings).
 * - `doc` ← `sample.raw`: the UltraEval record (`target_scores`, `question`, `score`, `prompt`, ...).
 */
import { MetricError, type MetricInput } from "@yardstick/core";

export interface UltraevalCall {
  sampleId: string;
  results: unknown[];
  groundTruth: unknown;
  doc: Record<string, unknown>;
  input: MetricInput;
}

/** Raises a MetricError naming the metric and the sample. */
export type Fail = (message: string) => never;

export function failFor(metricId: string, sampleId?: string): Fail {
  return (message) => {
    throw new MetricError(message, sampleId === undefined ? { metricId } : { metricId, sampleId });
  };
}

export function describe(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === "number" && Number.isNaN(v)) return "NaN";
  return typeof v;
}

export function toCall(input: MetricInput, metricId: string): UltraevalCall {
  if (typeof input !== "object" || input === null) failFor(metricId)(`expected a metric input object, got ${describe(input)}`);
  if (typeof input.sampleId !== "string") failFor(metricId)(`expected sampleId to be a string, got ${describe(input.sampleId)}`);
  const fail = failFor(metricId, input.sampleId);
  const results = Array.isArray(input.prediction) ? input.prediction : [input.prediction];
  if (results.length === 0) fail("prediction is an empty list (expected at least one output)");
  const raw = input.sample?.raw;
  if (raw !== undefined && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
    fail(`expected sample.raw (the UltraEval record) to be an object, got ${describe(raw)}`);
  }
  return { sampleId: input.sampleId, results, groundTruth: input.reference, doc: raw ?? {}, input };
}

/** `results[0]` as a string. */
export function firstText(call: UltraevalCall, fail: Fail): string {
  const first = call.results[0];
  if (typeof first !== "string") fail(`expected the prediction to be a string or a list of strings, got ${describe(first)}`);
  return first;
}

/** The reference as one string. */
export function referenceText(call: UltraevalCall, fail: Fail): string {
  if (typeof call.groundTruth !== "string") fail(`expected the reference to be a string, got ${describe(call.groundTruth)}`);
  return call.groundTruth;
}

/** The reference as a non-empty list of strings (a single string becomes a list of one, as upstream does). */
export function referenceList(call: UltraevalCall, fail: Fail): string[] {
  const gt = call.groundTruth;
  const list = typeof gt === "string" ? [gt] : gt;
  if (!Array.isArray(list) || list.some((g) => typeof g !== "string")) {
    fail(`expected the reference to be a string or a list of strings, got ${describe(gt)}`);
  }
  if (list.length === 0) fail("the reference is an empty list");
  return list as string[];
}

const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/;

/**
 * `doc["target_scores"]` in its original order. A JS object moves integer-like keys ("3", "10") to the
 * front, which silently changes which option an index means; such an object is refused unless the
 * order is given, either as `[key, value]` pairs or as `sample.metadata.targetScoresOrder`.
 */
export function orderedTargetScores(call: UltraevalCall, fail: Fail): [string, number][] {
  const ts = call.doc["target_scores"];
  let pairs: [string, unknown][];
  if (Array.isArray(ts)) {
    if (!ts.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === "string")) {
      fail("target_scores given as a list must hold [option, score] pairs");
    }
    pairs = ts as [string, unknown][];
  } else if (typeof ts === "object" && ts !== null) {
    const record = ts as Record<string, unknown>;
    const order = call.input.sample?.metadata?.["targetScoresOrder"];
    if (Array.isArray(order)) {
      if (order.length !== Object.keys(record).length || !order.every((k) => typeof k === "string" && k in record)) {
        fail("sample.metadata.targetScoresOrder does not list exactly the keys of target_scores");
      }
      pairs = (order as string[]).map((k) => [k, record[k]]);
    } else {
      pairs = Object.entries(record);
      if (pairs.some(([k]) => INTEGER_LIKE.test(k))) {
        fail(
          "target_scores has integer-like keys, whose order a JS object does not keep; give it as [option, score] pairs or set sample.metadata.targetScoresOrder",
        );
      }
    }
  } else {
    fail(`expected doc.target_scores to be an object of option → 0/1, got ${describe(ts)}`);
  }
  for (const [k, v] of pairs) {
    if (typeof v !== "number" || !Number.isFinite(v)) fail(`target_scores[${JSON.stringify(k)}] must be a number, got ${describe(v)}`);
  }
  return pairs as [string, number][];
}
