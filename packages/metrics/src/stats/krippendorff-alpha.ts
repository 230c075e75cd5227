import { z } from "zod";
import { categoryDomain, isLabel, type Label } from "./labels.js";
import { parseWith, statsError } from "./validate.js";

const FN = "krippendorffAlpha";

const alphaOptionsSchema = z
  .object({
    level: z.enum(["nominal", "ordinal", "interval", "ratio"]).default("nominal"),
    /** Rank order of the values for ordinal data with string labels. */
    order: z.array(z.union([z.string(), z.number()])).optional(),
  })
  .strict();
export type KrippendorffAlphaOptions = z.input<typeof alphaOptionsSchema>;
export type KrippendorffLevel = NonNullable<KrippendorffAlphaOptions["level"]>;

/** One coder's values; null (or undefined) marks a unit this coder did not code. */
export type ReliabilityRow = readonly (Label | null | undefined)[];

/**
 * Krippendorff's alpha for reliability data laid out coders × units (Krippendorff 2011, "Computing
 * Krippendorff's Alpha-Reliability"). Missing values are allowed; units with fewer than two values
 * are not pairable and are dropped. α = 1 − Dₒ/Dₑ with
 *   Dₒ ∝ Σᵤ 1/(mᵤ − 1) Σ_{c,k} nᵤc·nᵤk·δ²(c, k)   (pairs within units, mᵤ values in unit u)
 *   Dₑ ∝ 1/(n − 1)   Σ_{c,k} n_c·n_k·δ²(c, k)     (all pairable values pooled, n of them)
 * and δ² per level: nominal [c ≠ k]; ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)² over the ranks;
 * interval (c − k)²; ratio ((c − k)/(c + k))² (values must be ≥ 0; two zeros have distance 0).
 * Expected disagreement costs O(V²) in the number V of distinct values.
 * Returns NaN when Dₑ = 0 (every pairable value is the same), where alpha is undefined.
 */
export function krippendorffAlpha(data: readonly ReliabilityRow[], options: KrippendorffAlphaOptions = {}): number {
  const opts = parseWith(FN, alphaOptionsSchema, options, "options");
  const { level } = opts;
  if (!Array.isArray(data) || data.length === 0) throw statsError(FN, "data is empty (expected coders × units)");
  const units = Array.isArray(data[0]) ? data[0].length : -1;
  const labels: Label[] = [];
  data.forEach((row, coder) => {
    if (!Array.isArray(row) || row.length !== units) {
      throw statsError(FN, `data[${coder}] has ${Array.isArray(row) ? row.length : "no"} units (expected ${units}, like data[0])`);
    }
    row.forEach((v, u) => {
      if (v === null || v === undefined) return;
      if (!isLabel(v)) throw statsError(FN, `data[${coder}][${u}] is ${String(v)} (expected a label, or null if missing)`);
      if ((level === "interval" || level === "ratio") && typeof v !== "number") {
        throw statsError(FN, `data[${coder}][${u}] is ${JSON.stringify(v)} (expected a number for ${level} data)`);
      }
      if (level === "ratio" && (v as number) < 0) {
        throw statsError(FN, `data[${coder}][${u}] is ${v} (expected a non-negative number for ratio data)`);
      }
      labels.push(v);
    });
  });
  if (units === 0) throw statsError(FN, "data has no units");

  const domain = categoryDomain(FN, labels, opts.order, level === "ordinal");
  const values = [...domain.keys()];
  const v = values.length;

  // Per pairable unit: counts of each value; marginals n_c pooled over pairable units.
  const marginals = new Float64Array(v);
  const pairableUnits: { counts: Map<number, number>; m: number }[] = [];
  for (let u = 0; u < units; u++) {
    const counts = new Map<number, number>();
    let m = 0;
    for (const row of data) {
      const x = row[u];
      if (x === null || x === undefined) continue;
      const idx = domain.get(x)!;
      counts.set(idx, (counts.get(idx) ?? 0) + 1);
      m++;
    }
    if (m < 2) continue;
    pairableUnits.push({ counts, m });
    for (const [idx, c] of counts) marginals[idx]! += c;
  }
  if (pairableUnits.length === 0) {
    throw statsError(FN, "no unit has values from at least two coders, so there is nothing to compare");
  }
  let total = 0;
  for (let i = 0; i < v; i++) total += marginals[i]!;

  const delta = distanceFunction(level, values, marginals);

  let observed = 0;
  for (const { counts, m } of pairableUnits) {
    let within = 0;
    for (const [c, nc] of counts) for (const [k, nk] of counts) if (c !== k) within += nc * nk * delta(c, k);
    observed += within / (m - 1);
  }
  let expected = 0;
  for (let c = 0; c < v; c++) {
    const nc = marginals[c]!;
    if (nc === 0) continue;
    for (let k = 0; k < v; k++) if (k !== c && marginals[k]! > 0) expected += nc * marginals[k]! * delta(c, k);
  }
  if (expected === 0) return Number.NaN;
  return 1 - ((total - 1) * observed) / expected;
}

/** Squared distance δ²(c, k) between value indices for the chosen level of measurement. */
function distanceFunction(
  level: KrippendorffLevel,
  values: readonly Label[],
  marginals: Float64Array,
): (c: number, k: number) => number {
  switch (level) {
    case "nominal":
      return (c, k) => (c === k ? 0 : 1);
    case "interval":
      return (c, k) => {
        const d = (values[c] as number) - (values[k] as number);
        return d * d;
      };
    case "ratio":
      return (c, k) => {
        const x = values[c] as number;
        const y = values[k] as number;
        const s = x + y;
        if (s === 0) return 0;
        const r = (x - y) / s;
        return r * r;
      };
    case "ordinal": {
      // cumulative[i] = Σ_{g<i} n_g over the ranked domain, so Σ_{g=c..k} n_g = cumulative[k+1] − cumulative[c].
      const cumulative = new Float64Array(values.length + 1);
      for (let i = 0; i < values.length; i++) cumulative[i + 1] = cumulative[i]! + marginals[i]!;
      return (c, k) => {
        const lo = Math.min(c, k);
        const hi = Math.max(c, k);
        const d = cumulative[hi + 1]! - cumulative[lo]! - (marginals[lo]! + marginals[hi]!) / 2;
        return d * d;
      };
    }
  }
}
