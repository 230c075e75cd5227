import { createRng, MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { sortedQuantile } from "./bootstrap.js";
import { summarize } from "./summarize.js";

/** Straightforward bootstrap through the public Rng, to check the inlined hot loop draw for draw. */
function referenceCi(x: number[], resamples: number, seed: number, confidence: number): [number, number] {
  const rng = createRng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < x.length; i++) sum += x[rng.nextInt(x.length)]!;
    means[r] = sum / x.length;
  }
  means.sort();
  const tail = (1 - confidence) / 2;
  return [sortedQuantile(means, tail), sortedQuantile(means, 1 - tail)];
}

describe("summarize", () => {
  it("computes n, mean and the sample standard error", () => {
    const s = summarize([1, 2, 3, 4], { resamples: 10 });
    expect(s.n).toBe(4);
    expect(s.mean).toBe(2.5);
    // sample sd = sqrt(5/3); stderr = sd / 2
    expect(s.stderr).toBeCloseTo(Math.sqrt(5 / 3) / 2, 14);
    expect(s).toMatchObject({ resamples: 10, seed: 0, confidence: 0.95 });
  });

  it("matches a draw-by-draw reference bootstrap exactly", () => {
    const x = Array.from({ length: 257 }, (_, i) => ((i * 37) % 101) / 100);
    const s = summarize(x, { seed: 12345, resamples: 300, confidence: 0.9 });
    expect(s.ci).toEqual(referenceCi(x, 300, 12345, 0.9));
  });

  it("is reproducible for a seed and changes with the seed", () => {
    const x = Float64Array.from({ length: 500 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    expect(summarize(x, { seed: 3 }).ci).toEqual(summarize(x, { seed: 3 }).ci);
    expect(summarize(x, { seed: 3 }).ci).not.toEqual(summarize(x, { seed: 4 }).ci);
  });

  it("gives an interval close to mean ± 1.96·stderr for a large sample", () => {
    const x = Float64Array.from({ length: 20_000 }, (_, i) => Math.sin(i) ** 2);
    const s = summarize(x, { seed: 1, resamples: 2000 });
    expect(s.ci[0]).toBeLessThan(s.mean);
    expect(s.ci[1]).toBeGreaterThan(s.mean);
    const halfWidth = (s.ci[1] - s.ci[0]) / 2;
    expect(Math.abs(halfWidth / (1.959964 * s.stderr) - 1)).toBeLessThan(0.1);
  });

  it("handles a single score: stderr NaN (undefined), degenerate interval", () => {
    const s = summarize([0.7]);
    expect(s.n).toBe(1);
    expect(s.stderr).toBeNaN();
    expect(s.ci).toEqual([0.7, 0.7]);
  });

  it("rejects empty input, NaN, infinities and bad options with MetricError", () => {
    expect(() => summarize([])).toThrow(MetricError);
    expect(() => summarize([1, Number.NaN])).toThrow(/stats:summarize.*scores\[1\] is NaN/);
    expect(() => summarize([1, Number.POSITIVE_INFINITY])).toThrow(MetricError);
    expect(() => summarize([1], { confidence: 1 })).toThrow(/options\.confidence/);
    expect(() => summarize([1], { resamples: 0 })).toThrow(MetricError);
    expect(() => summarize([1], { seed: -3 })).toThrow(MetricError);
    expect(() => summarize([1], { nope: 1 } as never)).toThrow(MetricError);
  });
});
