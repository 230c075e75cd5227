import { z } from "zod";
import { binomialHalfCdf, chiSquareSurvival } from "./special-functions.js";
import { parseWith, statsError, toFiniteFloat64 } from "./validate.js";

export interface McNemarResult {
  /** Items right under A and wrong under B (a = 1, b = 0). */
  b: number;
  /** Items wrong under A and right under B (a = 0, b = 1). */
  c: number;
  /** Exact test: min(b, c). Chi-square test: (|b − c| − 1)² / (b + c). */
  statistic: number;
  pValue: number;
  method: "exact" | "chi-square";
}

const mcnemarOptionsSchema = z
  .object({
    /** Discordant counts b + c below this use the exact binomial test. */
    exactBelow: z.number().int().min(0).default(25),
  })
  .strict();

export type McNemarOptions = z.input<typeof mcnemarOptionsSchema>;

/**
 * McNemar's test for paired binary outcomes (each a[i], b[i] must be 0 or 1).
 *
 * With few discordant pairs (b + c < `exactBelow`, default 25 — the usual rule of thumb) the
 * chi-square approximation is poor, so the exact two-sided binomial test is used:
 * p = min(1, 2·P(X ≤ min(b, c))), X ~ Binomial(b + c, ½). Otherwise the chi-square statistic with
 * Edwards' continuity correction (|b − c| − 1)² / (b + c) is referred to χ² with 1 df; when b = c
 * the correction is not pushed below zero (statistic 0, p = 1, as R's `mcnemar.test`).
 * No discordant pairs at all gives statistic 0 and p = 1.
 */
export function mcnemar(
  a: Float64Array | readonly number[],
  b: Float64Array | readonly number[],
  options: McNemarOptions = {},
): McNemarResult {
  const fn = "mcnemar";
  const opts = parseWith(fn, mcnemarOptionsSchema, options, "options");
  const xa = toFiniteFloat64(fn, "a", a);
  const xb = toFiniteFloat64(fn, "b", b);
  if (xa.length !== xb.length) {
    throw statsError(fn, `a has ${xa.length} outcomes but b has ${xb.length} (expected one pair per item)`);
  }
  let nb = 0;
  let nc = 0;
  for (let i = 0; i < xa.length; i++) {
    const va = xa[i]!;
    const vb = xb[i]!;
    if ((va !== 0 && va !== 1) || (vb !== 0 && vb !== 1)) {
      throw statsError(fn, `item ${i} has outcomes (${va}, ${vb}) (expected binary 0/1 values)`);
    }
    if (va === 1 && vb === 0) nb++;
    else if (va === 0 && vb === 1) nc++;
  }
  return mcnemarFromCounts(nb, nc, opts.exactBelow);
}

/** McNemar's test from the two discordant counts directly. */
export function mcnemarFromCounts(b: number, c: number, exactBelow = 25): McNemarResult {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw statsError("mcnemar", `discordant counts must be non-negative integers, got b=${b}, c=${c}`);
  }
  const n = b + c;
  if (n === 0) return { b, c, statistic: 0, pValue: 1, method: "exact" };
  if (n < exactBelow) {
    const k = Math.min(b, c);
    return { b, c, statistic: k, pValue: Math.min(1, 2 * binomialHalfCdf(k, n)), method: "exact" };
  }
  const corrected = Math.max(0, Math.abs(b - c) - 1);
  const statistic = (corrected * corrected) / n;
  return { b, c, statistic, pValue: chiSquareSurvival(statistic, 1), method: "chi-square" };
}
