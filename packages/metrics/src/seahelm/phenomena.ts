import { MetricError, type MetricInput } from "@yardstick/core";
import { describe } from "./common.js";

/** `sample.metadata.linguistic_phenomenon`, required by the LINDSEA metrics. */
export function phenomenonOf(metricId: string, input: MetricInput): string {
  const v = input.sample?.metadata?.linguistic_phenomenon;
  if (typeof v === "string" && v !== "") return v;
  throw new MetricError(`sample.metadata.linguistic_phenomenon must be a non-empty string, got ${describe(v)}`, {
    metricId,
    sampleId: input.sampleId,
  });
}

/** Correct/total counts per phenomenon, in first-seen order (pandas `unique()` order). */
export function countByPhenomenon(phenomena: readonly string[], correct: readonly boolean[]): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  phenomena.forEach((p, i) => {
    const entry = out.get(p) ?? [0, 0];
    if (correct[i]) entry[0]++;
    entry[1]++;
    out.set(p, entry);
  });
  return out;
}
