import { statsError } from "./validate.js";

function checkPValues(fn: string, pValues: readonly number[]): void {
  if (!Array.isArray(pValues)) throw statsError(fn, "pValues must be an array of numbers");
  pValues.forEach((p, i) => {
    if (typeof p !== "number" || Number.isNaN(p) || p < 0 || p > 1) {
      throw statsError(fn, `pValues[${i}] is ${String(p)} (expected a number in [0, 1])`);
    }
  });
}

/** Indices that sort p ascending; ties keep input order so the result is deterministic. */
function ascendingOrder(pValues: readonly number[]): number[] {
  return pValues.map((_, i) => i).sort((i, j) => pValues[i]! - pValues[j]! || i - j);
}

/**
 * Holm–Bonferroni step-down adjustment (controls the family-wise error rate). The i-th smallest
 * p-value (1-based) becomes max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎). Returned in input order;
 * reject where adjusted p ≤ α. Empty input gives an empty array.
 */
export function holmBonferroni(pValues: readonly number[]): number[] {
  checkPValues("holmBonferroni", pValues);
  const m = pValues.length;
  const out = new Array<number>(m);
  let running = 0;
  ascendingOrder(pValues).forEach((idx, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[idx]!));
    out[idx] = running;
  });
  return out;
}

/**
 * Benjamini–Hochberg step-up adjustment (controls the false discovery rate). The i-th smallest
 * p-value becomes min over j ≥ i of min(1, m·p₍ⱼ₎ / j). Returned in input order.
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  checkPValues("benjaminiHochberg", pValues);
  const m = pValues.length;
  const out = new Array<number>(m);
  const order = ascendingOrder(pValues);
  let running = 1;
  for (let rank = m - 1; rank >= 0; rank--) {
    const idx = order[rank]!;
    running = Math.min(running, (m * pValues[idx]!) / (rank + 1));
    out[idx] = running;
  }
  return out;
}
