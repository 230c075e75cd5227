import { describe, expect, it } from "vitest";
import { bootstrapMeans, resampledMeans } from "./bootstrap.js";

function meanAndSd(x: Float64Array): { mean: number; sd: number } {
  let sum = 0;
  for (const v of x) sum += v;
  const mean = sum / x.length;
  let ss = 0;
  for (const v of x) ss += (v - mean) ** 2;
  return { mean, sd: Math.sqrt(ss / (x.length - 1)) };
}

describe("resampledMeans", () => {
  it("resamples few-valued scores by counts, with the index bootstrap's distribution", () => {
    // 0/1 scores and a three-level rubric: the resample means are centred on the sample mean with
    // the spread of a mean of n draws (sd / √n), as the index-by-index bootstrap's are.
    for (const values of [
      Float64Array.from({ length: 20_000 }, (_, i) => (i % 10 < 7 ? 1 : 0)),
      Float64Array.from({ length: 5_000 }, (_, i) => [0, 0.5, 1][(i * 7) % 3]!),
    ]) {
      const n = values.length;
      const { mean, sd } = meanAndSd(values);
      const byCounts = meanAndSd(resampledMeans(values, 4000, 7));
      const byIndex = meanAndSd(bootstrapMeans(values, 4000, 7));
      const expectedSpread = sd / Math.sqrt(n);
      for (const got of [byCounts, byIndex]) {
        expect(Math.abs(got.mean - mean)).toBeLessThan(5 * (expectedSpread / Math.sqrt(4000)));
        expect(Math.abs(got.sd / expectedSpread - 1)).toBeLessThan(0.06);
      }
    }
  });

  it("is reproducible for a seed, and a constant column resamples to itself", () => {
    const values = Float64Array.from({ length: 1000 }, (_, i) => i % 2);
    expect(resampledMeans(values, 50, 3)).toEqual(resampledMeans(values, 50, 3));
    expect(resampledMeans(values, 50, 3)).not.toEqual(resampledMeans(values, 50, 4));
    expect([...resampledMeans(new Float64Array(10).fill(0.7), 5, 1)]).toEqual([0.7, 0.7, 0.7, 0.7, 0.7]);
  });

  it("draws index by index (as bootstrapMeans) when the scores take more than 64 values", () => {
    const values = Float64Array.from({ length: 300 }, (_, i) => i / 299);
    expect(resampledMeans(values, 100, 11)).toEqual(bootstrapMeans(values, 100, 11));
    const few = Float64Array.from({ length: 300 }, (_, i) => (i % 64) / 63);
    expect(resampledMeans(few, 100, 11)).not.toEqual(bootstrapMeans(few, 100, 11));
  });
});
