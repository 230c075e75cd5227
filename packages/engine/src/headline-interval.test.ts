import type { MetricInput, MetricV1 } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { headlineInterval } from "./headline-interval.js";

const inputs = (n: number): MetricInput[] => Array.from({ length: n }, (_, i) => ({ sampleId: `s${i}`, prediction: i % 3 === 0 ? "x" : "y", reference: "y" }));

/** Share of correct answers, squared: a corpus score that is not the mean of anything per sample. */
const squaredAccuracy: MetricV1 = {
  specVersion: "v1",
  id: "squared-accuracy",
  compute(xs) {
    const acc = xs.filter((x) => x.prediction === x.reference).length / xs.length;
    return { scores: { sq: 100 * acc * acc }, perSample: xs.map((x) => ({ sampleId: x.sampleId, scores: { correct: x.prediction === x.reference ? 1 : 0 } })) };
  },
};

describe("headlineInterval", () => {
  it("scales the per-sample interval when the headline is 100 × the per-sample mean", async () => {
    const r = await headlineInterval({
      metric: squaredAccuracy,
      inputs: inputs(30),
      options: {},
      ctx: {},
      key: "acc",
      value: 50,
      perSample: { mean: 0.5, stderr: 0.1, ci: [0.3, 0.7] },
      seed: 1,
    });
    expect(r).toEqual({ stderr: 10, ci: [30, 70], method: "mean" });
  });

  it("bootstraps a corpus score by recomputing it, reproducibly, with the interval around the value", async () => {
    const xs = inputs(300);
    const value = (await squaredAccuracy.compute(xs, {})).scores.sq!;
    const settings = { metric: squaredAccuracy, inputs: xs, options: {}, ctx: {}, key: "sq", value, seed: 7 };
    const a = await headlineInterval(settings);
    const b = await headlineInterval(settings);
    expect(a).toEqual(b);
    expect(a?.method).toBe("bootstrap");
    expect(a?.resamples).toBe(1000);
    expect(a!.ci[0]).toBeLessThan(value);
    expect(a!.ci[1]).toBeGreaterThan(value);
    // acc = 2/3, sd(acc) ≈ sqrt(2/9/300) ≈ 0.0272; d(100·acc²)/d(acc) = 200·acc ≈ 133 → stderr ≈ 3.6
    expect(a!.stderr).toBeGreaterThan(2.8);
    expect(a!.stderr).toBeLessThan(4.5);
    expect((await headlineInterval({ ...settings, seed: 8 }))!.ci).not.toEqual(a!.ci);
  });

  it("resamples by counts when the metric offers it, at the spread of the recomputed bootstrap", async () => {
    let indexPaths = 0;
    const counted: MetricV1 = {
      ...squaredAccuracy,
      compute(xs, o) {
        indexPaths++;
        return squaredAccuracy.compute(xs, o);
      },
      resampleScores() {
        indexPaths++;
        return undefined;
      },
      resampleByCounts(xs) {
        const categories = Uint32Array.from(xs, (x) => (x.prediction === x.reference ? 1 : 0));
        return { categories, categoryCount: 2, scoreOf: (c) => 100 * (c[1]! / xs.length) ** 2 };
      },
    };
    const xs = inputs(300);
    const settings = { metric: counted, inputs: xs, options: {}, ctx: {}, key: "sq", value: 100 * (2 / 3) ** 2, seed: 7 };
    const a = await headlineInterval(settings);
    expect(indexPaths).toBe(0);
    expect(a).toEqual(await headlineInterval(settings));
    expect(a).toMatchObject({ method: "bootstrap", resamples: 1000 });
    // As the recomputed bootstrap above: stderr ≈ 3.6.
    expect(a!.stderr).toBeGreaterThan(2.8);
    expect(a!.stderr).toBeLessThan(4.5);
    expect(a!.ci[0]).toBeLessThan(settings.value);
    expect(a!.ci[1]).toBeGreaterThan(settings.value);
    // The cost does not grow with the inputs: a million counted inputs are one multinomial draw a resample.
    const many = Array.from({ length: 1_000_000 }, (_, i) => ({ sampleId: "", prediction: i % 3 === 0 ? "x" : "y", reference: "y" }));
    const big = await headlineInterval({ ...settings, inputs: many });
    expect(big!.stderr).toBeLessThan(a!.stderr / 10);
  });

  it("uses the metric's fast path when it has one, and gives up on huge tasks without one", async () => {
    let calls = 0;
    const fast: MetricV1 = {
      ...squaredAccuracy,
      resampleScores(xs, _o, _k, resamples, next) {
        calls++;
        const out = new Float64Array(resamples);
        for (let r = 0; r < resamples; r++) for (let i = 0; i < xs.length; i++) out[r]! += next() / xs.length;
        return out;
      },
    };
    const r = await headlineInterval({ metric: fast, inputs: inputs(50), options: {}, ctx: {}, key: "sq", value: 40, seed: 1 });
    expect(calls).toBe(1);
    expect(r?.resamples).toBe(1000);
    expect(await headlineInterval({ metric: squaredAccuracy, inputs: inputs(30_000), options: {}, ctx: {}, key: "sq", value: 40, seed: 1 })).toBeUndefined();
  });
});
