import { describe, expect, it } from "vitest";
import { binomial, multinomial } from "./binomial.js";
import { createRng } from "./random.js";

function uniformFrom(seed: number): () => number {
  const rng = createRng(seed);
  return () => rng.random();
}

/** log k! for k = 0..n, from summed logarithms. */
function logFactorials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) out[k] = out[k - 1]! + Math.log(k);
  return out;
}

function binomialPmf(n: number, p: number): Float64Array {
  const lf = logFactorials(n);
  return Float64Array.from({ length: n + 1 }, (_, k) => Math.exp(lf[n]! - lf[k]! - lf[n - k]! + k * Math.log(p) + (n - k) * Math.log1p(-p)));
}

/**
 * Pearson's chi-square of observed counts against a pmf, cells pooled until each expects ≥ 10,
 * and the statistic's critical value at p ≈ 1e-6 (Wilson–Hilferty): a correct sampler fails about
 * once in a million seeds; a wrong one by orders of magnitude.
 */
function chiSquare(observed: Float64Array, pmf: Float64Array, draws: number): { statistic: number; critical: number } {
  let statistic = 0;
  let cells = 0;
  let o = 0;
  let e = 0;
  for (let k = 0; k < pmf.length; k++) {
    o += observed[k]!;
    e += pmf[k]! * draws;
    if (e >= 10) {
      statistic += (o - e) ** 2 / e;
      cells++;
      o = 0;
      e = 0;
    }
  }
  statistic += e > 0 ? (o - e) ** 2 / e : 0;
  const df = cells - 1;
  const z = 4.75;
  const critical = df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
  return { statistic, critical };
}

describe("binomial", () => {
  // Both methods (inversion below a mean of 10, BTRS above) and the mirror for p > 0.5.
  it.each([
    [20, 0.3, "inversion"],
    [1000, 0.004, "inversion, large n"],
    [30, 0.9, "mirrored inversion"],
    [100, 0.4, "BTRS"],
    [60, 0.8, "mirrored BTRS"],
    [5000, 0.5, "BTRS, large n"],
    [40, 0.25, "BTRS at the switch"],
  ])("Binomial(%i, %f) fits its distribution (%s)", (n, p) => {
    const draws = 500_000;
    const uniform = uniformFrom(n * 7 + Math.round(p * 1000));
    const observed = new Float64Array(n + 1);
    let outside = 0;
    for (let i = 0; i < draws; i++) {
      const k = binomial(uniform, n, p);
      if (Number.isInteger(k) && k >= 0 && k <= n) observed[k]!++;
      else outside++;
    }
    expect(outside).toBe(0);
    const { statistic, critical } = chiSquare(observed, binomialPmf(n, p), draws);
    expect(statistic).toBeLessThan(critical);
  });

  it("has the mean n·p and variance n·p·(1 − p) at a million trials", () => {
    const n = 1_000_000;
    const p = 0.3;
    const uniform = uniformFrom(99);
    const draws = 20_000;
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < draws; i++) {
      const k = binomial(uniform, n, p);
      sum += k;
      sumSq += k * k;
    }
    const mean = sum / draws;
    const variance = sumSq / draws - mean * mean;
    const expectedVariance = n * p * (1 - p);
    expect(Math.abs(mean - n * p)).toBeLessThan(5 * Math.sqrt(expectedVariance / draws));
    expect(Math.abs(variance / expectedVariance - 1)).toBeLessThan(0.05);
  });

  it("gives the certain outcomes without drawing, and refuses bad parameters", () => {
    const never = () => {
      throw new Error("drew a number");
    };
    expect(binomial(never, 0, 0.5)).toBe(0);
    expect(binomial(never, 10, 0)).toBe(0);
    expect(binomial(never, 10, 1)).toBe(10);
    expect(() => binomial(never, -1, 0.5)).toThrow(/non-negative integer/);
    expect(() => binomial(never, 2.5, 0.5)).toThrow(/non-negative integer/);
    expect(() => binomial(never, 10, 1.5)).toThrow(/\[0, 1\]/);
    expect(() => binomial(never, 10, Number.NaN)).toThrow(/\[0, 1\]/);
  });
});

describe("multinomial", () => {
  it("places every trial, none in a category of weight 0, with the multinomial's means and covariance", () => {
    const weights = [5, 0, 3, 2];
    const n = 1000;
    const total = 10;
    const uniform = uniformFrom(5);
    const out = new Uint32Array(4);
    const draws = 20_000;
    const sums = [0, 0, 0, 0];
    let cross = 0;
    let misplaced = 0;
    for (let i = 0; i < draws; i++) {
      multinomial(uniform, n, weights, out);
      if (out[0]! + out[1]! + out[2]! + out[3]! !== n || out[1] !== 0) misplaced++;
      for (let j = 0; j < 4; j++) sums[j]! += out[j]!;
      cross += out[0]! * out[2]!;
    }
    expect(misplaced).toBe(0);
    for (const j of [0, 2, 3]) {
      const p = weights[j]! / total;
      expect(Math.abs(sums[j]! / draws - n * p)).toBeLessThan(5 * Math.sqrt((n * p * (1 - p)) / draws));
    }
    // Cov(c0, c2) = −n·p0·p2 = −150.
    const covariance = cross / draws - (sums[0]! / draws) * (sums[2]! / draws);
    expect(covariance).toBeGreaterThan(-150 * 1.1);
    expect(covariance).toBeLessThan(-150 * 0.9);
  });

  it("refuses weights that are not counts", () => {
    const out = new Uint32Array(2);
    const uniform = uniformFrom(1);
    expect(() => multinomial(uniform, 3, [1, 0.5], out)).toThrow(/non-negative integers/);
    expect(() => multinomial(uniform, 3, [0, 0], out)).toThrow(/every weight is zero/);
    expect(() => multinomial(uniform, 3, [1, 2, 3], out)).toThrow(/places/);
  });
});
