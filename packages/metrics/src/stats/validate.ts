import { MetricError } from "@yardstick/core";
import type { z } from "zod";

/** Every statistics function reports errors under `stats:<functionName>`. */
export function statsError(fn: string, message: string): MetricError {
  return new MetricError(message, { metricId: `stats:${fn}` });
}

/**
 * Copies a numeric sequence into a Float64Array, rejecting empty input and non-finite values
 * (NaN would silently poison every mean and bootstrap draw downstream).
 */
export function toFiniteFloat64(fn: string, name: string, values: ArrayLike<number>): Float64Array {
  if (values === null || typeof values !== "object" || typeof values.length !== "number") {
    throw statsError(fn, `${name} must be an array of numbers`);
  }
  const n = values.length;
  if (n === 0) throw statsError(fn, `${name} is empty (expected at least one score)`);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw statsError(fn, `${name}[${i}] is ${String(v)} (expected a finite number)`);
    }
    out[i] = v;
  }
  return out;
}

/** Parses an options object with zod and turns the first issue into a MetricError. */
export function parseWith<T extends z.ZodType>(fn: string, schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? `${what}.${issue.path.map(String).join(".")}` : what;
  throw statsError(fn, `invalid ${path}: ${issue?.message ?? "invalid value"}`);
}
