import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";

export type ComputeOutcome = { ok: true; result: MetricResult } | { ok: false; error: unknown };

/** Calls `compute` and captures both synchronous throws and rejections as a value. */
export async function runCompute(
  metric: MetricV1,
  inputs: readonly MetricInput[],
  options: Record<string, unknown>,
  ctx: MetricContext | undefined,
): Promise<ComputeOutcome> {
  try {
    const result = await metric.compute(inputs, options, ctx);
    return { ok: true, result };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A deep copy, so a metric that mutates its inputs cannot leak state between checks. */
export function cloneInputs(inputs: readonly MetricInput[]): MetricInput[] {
  try {
    return structuredClone(inputs) as MetricInput[];
  } catch {
    // Inputs holding functions or class instances cannot be cloned; fall back to shallow copies.
    return inputs.map((input) => ({ ...input }));
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
