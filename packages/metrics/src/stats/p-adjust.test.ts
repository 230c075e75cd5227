import { MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { benjaminiHochberg, holmBonferroni } from "./p-adjust.js";

// Worked by hand: sorted p = 0.005, 0.01, 0.03, 0.04 (m = 4).
// Holm: 4·0.005 = 0.02, 3·0.01 = 0.03, 2·0.03 = 0.06, max(0.06, 1·0.04) = 0.06.
// BH: 0.005·4/1 = 0.02, 0.01·4/2 = 0.02, 0.03·4/3 = 0.04, 0.04·4/4 = 0.04 (running min from the top).
const P = [0.01, 0.04, 0.03, 0.005];

describe("multiple-comparison adjustment", () => {
  it("Holm–Bonferroni step-down, in input order, monotone", () => {
    const adj = holmBonferroni(P);
    [0.03, 0.06, 0.06, 0.02].forEach((want, i) => {
      expect(adj[i]).toBeCloseTo(want, 15);
    });
  });

  it("Benjamini–Hochberg step-up, in input order", () => {
    const adj = benjaminiHochberg(P);
    [0.02, 0.04, 0.04, 0.02].forEach((want, i) => {
      expect(adj[i]).toBeCloseTo(want, 15);
    });
  });

  it("caps at 1, keeps a single p-value, and handles ties and empty input", () => {
    expect(holmBonferroni([0.5, 0.6])).toEqual([1, 1]);
    expect(holmBonferroni([0.2])).toEqual([0.2]);
    expect(benjaminiHochberg([0.2])).toEqual([0.2]);
    expect(benjaminiHochberg([0.03, 0.03, 0.03])).toEqual([0.03, 0.03, 0.03]);
    expect(holmBonferroni([])).toEqual([]);
    expect(benjaminiHochberg([0.9, 0.01])[0]).toBe(0.9);
  });

  it("rejects NaN and out-of-range p-values", () => {
    expect(() => holmBonferroni([0.1, Number.NaN])).toThrow(/stats:holmBonferroni.*pValues\[1\]/);
    expect(() => benjaminiHochberg([1.5])).toThrow(MetricError);
    expect(() => benjaminiHochberg([-0.1])).toThrow(MetricError);
  });
});
