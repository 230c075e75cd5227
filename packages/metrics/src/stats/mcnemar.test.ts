import { MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { mcnemar, mcnemarFromCounts } from "./mcnemar.js";

function pairs(both: number, onlyA: number, onlyB: number, neither: number): [number[], number[]] {
  const a: number[] = [];
  const b: number[] = [];
  const push = (count: number, x: number, y: number) => {
    for (let i = 0; i < count; i++) {
      a.push(x);
      b.push(y);
    }
  };
  push(both, 1, 1);
  push(onlyA, 1, 0);
  push(onlyB, 0, 1);
  push(neither, 0, 0);
  return [a, b];
}

describe("mcnemar", () => {
  it("counts discordant pairs and uses the exact binomial test when they are few", () => {
    const [a, b] = pairs(30, 1, 9, 10);
    const r = mcnemar(a, b);
    expect(r).toMatchObject({ b: 1, c: 9, statistic: 1, method: "exact" });
    // 2 · P(X ≤ 1), X ~ Bin(10, ½) = 2 · 11 / 1024
    expect(r.pValue).toBeCloseTo(22 / 1024, 14);
  });

  it("uses chi-square with continuity correction for many discordant pairs", () => {
    // Wikipedia's McNemar example table: b = 121, c = 59.
    const [a, b] = pairs(101, 121, 59, 33);
    const r = mcnemar(a, b);
    expect(r.method).toBe("chi-square");
    expect(r.statistic).toBeCloseTo(61 ** 2 / 180, 12);
    // χ²₁ tail at 20.672: erfc(√(x/2)); check against the normal tail P(|Z| ≥ √x).
    expect(r.pValue).toBeGreaterThan(5.4e-6);
    expect(r.pValue).toBeLessThan(5.5e-6);
  });

  it("returns p = 1 without discordant pairs and caps p at 1 for balanced ones", () => {
    expect(mcnemarFromCounts(0, 0)).toMatchObject({ statistic: 0, pValue: 1 });
    expect(mcnemarFromCounts(3, 3).pValue).toBe(1);
    // b = c: the correction is not applied past zero (as R's mcnemar.test), so statistic 0, p = 1.
    expect(mcnemarFromCounts(30, 30)).toMatchObject({ statistic: 0, pValue: 1, method: "chi-square" });
  });

  it("switches method at the exactBelow threshold", () => {
    expect(mcnemarFromCounts(13, 12).method).toBe("chi-square");
    expect(mcnemarFromCounts(12, 12).method).toBe("exact");
    expect(mcnemar([1, 0], [0, 1], { exactBelow: 0 }).method).toBe("chi-square");
  });

  it("rejects non-binary outcomes and mismatched lengths", () => {
    expect(() => mcnemar([1, 0.5], [1, 0])).toThrow(/stats:mcnemar.*item 1.*binary/);
    expect(() => mcnemar([1], [1, 0])).toThrow(MetricError);
    expect(() => mcnemarFromCounts(-1, 2)).toThrow(MetricError);
  });
});
