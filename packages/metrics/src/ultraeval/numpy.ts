/**
 * numpy's float64 `add.reduce` (pairwise summation: blocks of up to 128 summed with 8 accumulators),
 * so means over instances match `np.array(values).mean()` to the last bit.
 */
function pairwise(a: readonly number[], start: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i]!;
    return res;
  }
  if (n <= 128) {
    const r = [0, 0, 0, 0, 0, 0, 0, 0];
    for (let j = 0; j < 8; j++) r[j] = a[start + j]!;
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j]! += a[start + i + j]!;
    let res = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!));
    for (; i < n; i++) res += a[start + i]!;
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwise(a, start, n2) + pairwise(a, start + n2, n - n2);
}

export function numpySum(values: readonly number[]): number {
  return 0 + pairwise(values, 0, values.length);
}

/** `np.mean`; NaN for an empty list, as numpy gives (with a warning). */
export function numpyMean(values: readonly number[]): number {
  return numpySum(values) / values.length;
}
