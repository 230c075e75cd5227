import { MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { pairedBootstrap } from "./paired-bootstrap.js";

describe("pairedBootstrap", () => {
  it("reports means, the paired difference and an interval around it", () => {
    const a = [0.9, 0.8, 0.7, 0.95, 0.85, 0.75, 0.65, 0.9];
    const b = [0.8, 0.8, 0.6, 0.9, 0.7, 0.7, 0.6, 0.85];
    const r = pairedBootstrap(a, b, { seed: 5 });
    expect(r.n).toBe(8);
    expect(r.meanA).toBeCloseTo(0.8125, 12);
    expect(r.meanB).toBeCloseTo(0.74375, 12);
    expect(r.diff).toBeCloseTo(0.06875, 12);
    expect(r.ci[0]).toBeLessThanOrEqual(r.diff);
    expect(r.ci[1]).toBeGreaterThanOrEqual(r.diff);
    // Every item is at least as good under A, with most strictly better: clearly significant.
    expect(r.ci[0]).toBeGreaterThan(0);
    expect(r.pValue).toBeLessThan(0.01);
  });

  it("gives p = 1 and a zero interval when the runs agree item by item", () => {
    const x = [0.1, 0.5, 0.9, 0.3];
    const r = pairedBootstrap(x, x);
    expect(r.diff).toBe(0);
    expect(r.ci).toEqual([0, 0]);
    expect(r.pValue).toBe(1);
  });

  it("does not call noise significant, and p respects the +1 floor", () => {
    // Differences alternate ±1: mean 0 exactly, wide spread.
    const a = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const b = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 0 : 1));
    const r = pairedBootstrap(a, b, { resamples: 999 });
    expect(r.pValue).toBe(1);
    const shifted = pairedBootstrap(
      a.map((v) => v + 1),
      b,
      { resamples: 999 },
    );
    expect(shifted.pValue).toBeCloseTo(1 / 1000, 12);
  });

  it("is reproducible for a seed", () => {
    const a = Array.from({ length: 50 }, (_, i) => Math.cos(i) ** 2);
    const b = Array.from({ length: 50 }, (_, i) => Math.sin(i) ** 2);
    expect(pairedBootstrap(a, b, { seed: 9 })).toEqual(pairedBootstrap(a, b, { seed: 9 }));
  });

  it("rejects mismatched lengths, empty input and NaN", () => {
    expect(() => pairedBootstrap([1, 2], [1])).toThrow(/stats:pairedBootstrap.*a has 2 scores but b has 1/);
    expect(() => pairedBootstrap([], [])).toThrow(MetricError);
    expect(() => pairedBootstrap([1], [Number.NaN])).toThrow(/b\[0\] is NaN/);
  });
});
