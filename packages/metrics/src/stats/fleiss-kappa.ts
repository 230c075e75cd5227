import { statsError } from "./validate.js";

const FN = "fleissKappa";

/**
 * Fleiss' kappa (1971) for a fixed number of raters per item. `matrix[i][j]` is how many raters put
 * item i in category j; every row must have the same total (≥ 2 raters). The raters need not be the
 * same people across items. κ = (P̄ − P̄ₑ)/(1 − P̄ₑ), with P̄ the mean pairwise agreement per item and
 * P̄ₑ = Σ pⱼ² from the pooled category proportions. Returns NaN when P̄ₑ = 1 (all ratings in one
 * category), where kappa is undefined.
 */
export function fleissKappa(matrix: readonly (readonly number[])[]): number {
  if (!Array.isArray(matrix) || matrix.length === 0) {
    throw statsError(FN, "matrix is empty (expected items × categories rating counts)");
  }
  const first = matrix[0];
  if (!Array.isArray(first) || first.length === 0) throw statsError(FN, "matrix[0] must be a non-empty array of counts");
  const categories = first.length;
  const categoryTotals = new Float64Array(categories);
  let raters = -1;
  let agreementSum = 0;
  matrix.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== categories) {
      throw statsError(FN, `matrix[${i}] has ${Array.isArray(row) ? row.length : "no"} columns (expected ${categories})`);
    }
    let total = 0;
    let squares = 0;
    row.forEach((count, j) => {
      if (typeof count !== "number" || !Number.isInteger(count) || count < 0) {
        throw statsError(FN, `matrix[${i}][${j}] is ${String(count)} (expected a non-negative integer count)`);
      }
      total += count;
      squares += count * count;
      categoryTotals[j]! += count;
    });
    if (raters === -1) {
      if (total < 2) throw statsError(FN, `matrix[${i}] has ${total} ratings (expected at least 2 raters per item)`);
      raters = total;
    } else if (total !== raters) {
      throw statsError(FN, `matrix[${i}] has ${total} ratings but matrix[0] has ${raters} (expected the same number of raters per item)`);
    }
    agreementSum += (squares - total) / (total * (total - 1));
  });
  const items = matrix.length;
  const pBar = agreementSum / items;
  let pExpected = 0;
  for (let j = 0; j < categories; j++) {
    const p = categoryTotals[j]! / (items * raters);
    pExpected += p * p;
  }
  if (pExpected === 1) return Number.NaN;
  return (pBar - pExpected) / (1 - pExpected);
}
