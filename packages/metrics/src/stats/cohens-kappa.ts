import { z } from "zod";
import { categoryDomain, isLabel, type Label } from "./labels.js";
import { parseWith, statsError } from "./validate.js";

const FN = "cohensKappa";

const cohensOptionsSchema = z
  .object({
    /** "none": nominal kappa; "linear"/"quadratic": weighted kappa for ordinal categories. */
    weights: z.enum(["none", "linear", "quadratic"]).default("none"),
    /** Category order (required for weighted kappa on string labels). */
    order: z.array(z.union([z.string(), z.number()])).optional(),
  })
  .strict();
export type CohensKappaOptions = z.input<typeof cohensOptionsSchema>;

/**
 * Cohen's kappa between two raters who labelled the same items (a[i], b[i] are one item):
 * κ = 1 − Σ wᵢⱼ·Oᵢⱼ / Σ wᵢⱼ·Eᵢⱼ, with O the observed confusion counts, E = rowᵢ·colⱼ / N the counts
 * expected from the raters' own marginals, and disagreement weights w = [i ≠ j] (nominal),
 * |i − j| (linear) or (i − j)² (quadratic) on the category ranks. Unweighted this equals
 * (pₒ − pₑ)/(1 − pₑ). Returns NaN when chance disagreement is zero (both raters used one and the
 * same category throughout), where kappa is undefined.
 */
export function cohensKappa(a: readonly Label[], b: readonly Label[], options: CohensKappaOptions = {}): number {
  const opts = parseWith(FN, cohensOptionsSchema, options, "options");
  if (!Array.isArray(a) || !Array.isArray(b)) throw statsError(FN, "a and b must be arrays of labels");
  if (a.length === 0) throw statsError(FN, "no items (expected at least one labelled item)");
  if (a.length !== b.length) {
    throw statsError(FN, `a has ${a.length} labels but b has ${b.length} (expected one pair per item)`);
  }
  for (let i = 0; i < a.length; i++) {
    if (!isLabel(a[i])) throw statsError(FN, `a[${i}] is ${String(a[i])} (expected a string or finite number)`);
    if (!isLabel(b[i])) throw statsError(FN, `b[${i}] is ${String(b[i])} (expected a string or finite number)`);
  }
  const domain = categoryDomain(FN, [...a, ...b], opts.order, opts.weights !== "none");
  const k = domain.size;
  const n = a.length;
  const observed = new Float64Array(k * k);
  const rowTotals = new Float64Array(k);
  const colTotals = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const r = domain.get(a[i]!)!;
    const c = domain.get(b[i]!)!;
    observed[r * k + c]! += 1;
    rowTotals[r]! += 1;
    colTotals[c]! += 1;
  }
  let weightedObserved = 0;
  let weightedExpected = 0;
  for (let r = 0; r < k; r++) {
    for (let c = 0; c < k; c++) {
      const d = Math.abs(r - c);
      const w = opts.weights === "none" ? (d === 0 ? 0 : 1) : opts.weights === "linear" ? d : d * d;
      if (w === 0) continue;
      weightedObserved += w * observed[r * k + c]!;
      weightedExpected += (w * rowTotals[r]! * colTotals[c]!) / n;
    }
  }
  if (weightedExpected === 0) return Number.NaN;
  return 1 - weightedObserved / weightedExpected;
}
