import { describe, expect, it } from "vitest";
import { binomialHalfCdf, chiSquareSurvival, gammaQ, lnGamma } from "./special-functions.js";

describe("special functions", () => {
  it("lnGamma matches factorials and Γ(½) = √π", () => {
    expect(lnGamma(1)).toBeCloseTo(0, 13);
    expect(lnGamma(6)).toBeCloseTo(Math.log(120), 12);
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(lnGamma(101)).toBeCloseTo(363.73937555556347, 9);
  });

  it("gammaQ(1, x) is the exponential tail on both branches", () => {
    for (const x of [0.1, 1, 1.9, 2.5, 10, 40]) expect(gammaQ(1, x) / Math.exp(-x)).toBeCloseTo(1, 12);
    expect(gammaQ(3, 0)).toBe(1);
  });

  it("chi-square tails hit the textbook critical values", () => {
    expect(chiSquareSurvival(3.841458820694124, 1)).toBeCloseTo(0.05, 12);
    expect(chiSquareSurvival(6.634896601021214, 1)).toBeCloseTo(0.01, 12);
    expect(chiSquareSurvival(10.827566170662733, 1)).toBeCloseTo(0.001, 12);
    expect(chiSquareSurvival(5.991464547107979, 2)).toBeCloseTo(0.05, 12);
    // df = 2 is exactly exp(−x/2).
    expect(chiSquareSurvival(7, 2)).toBeCloseTo(Math.exp(-3.5), 14);
  });

  it("binomialHalfCdf sums exact binomial terms, also for large n", () => {
    expect(binomialHalfCdf(1, 10)).toBe(11 / 1024);
    expect(binomialHalfCdf(-1, 10)).toBe(0);
    expect(binomialHalfCdf(10, 10)).toBe(1);
    expect(binomialHalfCdf(2, 4)).toBe(11 / 16);
    // Symmetry: P(X ≤ k) + P(X ≤ n − k − 1) = 1, also on the log-space branch.
    expect(binomialHalfCdf(1000, 2001)).toBeCloseTo(0.5, 10);
    expect(binomialHalfCdf(999, 2000) + binomialHalfCdf(1000, 2000)).toBeCloseTo(1, 10);
  });
});
