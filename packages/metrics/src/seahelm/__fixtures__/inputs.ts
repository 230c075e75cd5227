import type { MetricInput, Sample } from "@yardstick/core";

/** A MetricInput with a minimal sample; `extra` fills metadata/raw. */
export function input(
  sampleId: string,
  prediction: unknown,
  reference: unknown,
  extra: { metadata?: Record<string, unknown>; raw?: Record<string, unknown>; rawResponse?: string } = {},
): MetricInput {
  const sample: Sample = { id: sampleId, prompts: [{}], label: reference, metadata: extra.metadata ?? {}, raw: extra.raw ?? {} };
  return { sampleId, prediction, reference, sample, ...(extra.rawResponse !== undefined ? { rawResponse: extra.rawResponse } : {}) };
}
