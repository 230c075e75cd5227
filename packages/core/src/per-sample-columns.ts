import type { MetricInput, PerSampleColumns, SampleScore } from "./contracts.js";
import { lazyArray } from "./lazy-array.js";

/**
 * `MetricResult.perSample` made from `perSampleColumns`: one `{ sampleId, scores }` per input, made
 * when read, so a metric that returns columns still gives every reader of `perSample` its records
 * without holding a million objects.
 */
export function perSampleView(inputs: readonly MetricInput[], columns: PerSampleColumns): SampleScore[] {
  const entries = Object.entries(columns.scores);
  return lazyArray(inputs.length, (i) => {
    const scores: Record<string, number> = {};
    for (const [key, values] of entries) scores[key] = values[i]!;
    return { sampleId: inputs[i]!.sampleId, scores };
  });
}
