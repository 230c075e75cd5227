import { ConfigError, createRegistry, type MetricInput, NoSuchPluginError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { testMetric } from "@yardstick/testing";
import plugins, { createKeywordCoverageMetric } from "./index.js";

const inputs: MetricInput[] = [
  { sampleId: "q1", prediction: "Paris is the capital of France.", reference: ["Paris", "France"] },
  { sampleId: "q2", prediction: "The mitochondria makes energy for the cell.", reference: ["mitochondria", "ATP", "cell"] },
  { sampleId: "q3", prediction: "Nobody knows.", reference: "Jupiter, largest" },
  { sampleId: "q4", prediction: "Le café est très bon à Hà Nội.", reference: ["café", "Hà Nội"] },
];

testMetric(createKeywordCoverageMetric(), [{ name: "mixed coverage", inputs, expectedRange: { mean_coverage: [0, 100], full_coverage: [0, 100] } }], {
  invalidOptions: [{ wholeWords: true }, { caseSensitive: "yes" }],
});

describe("keyword-coverage, registered like any other metric", () => {
  const registry = createRegistry(plugins);

  it("is found by id and computes scores", async () => {
    expect(registry.ids("metrics")).toEqual(["keyword-coverage"]);
    const result = await registry.get("metrics", "keyword-coverage").compute(inputs, {});
    expect(result.perSample.map((s) => s.scores.coverage)).toEqual([100, (100 * 2) / 3, 0, 100]);
    expect(result.scores.mean_coverage).toBeCloseTo((100 + 200 / 3 + 0 + 100) / 4, 10);
    expect(result.scores.full_coverage).toBe(50);
  });

  it("applies its options", async () => {
    const metric = registry.get("metrics", "keyword-coverage");
    const one: MetricInput[] = [{ sampleId: "x", prediction: "Categorical PARIS", reference: ["cat", "paris"] }];
    expect((await metric.compute(one, {})).scores.mean_coverage).toBe(50);
    expect((await metric.compute(one, { wholeWord: false })).scores.mean_coverage).toBe(100);
    expect((await metric.compute(one, { wholeWord: false, caseSensitive: true })).scores.mean_coverage).toBe(0);
  });

  it("layers over built-in metrics with extend, and rejects unknown ids and bad options", () => {
    const base = createRegistry({ metrics: {} });
    const extended = base.extend(plugins);
    expect(extended.has("metrics", "keyword-coverage")).toBe(true);
    expect(() => extended.get("metrics", "keyword-coverag")).toThrow(NoSuchPluginError);
    expect(() => extended.get("metrics", "keyword-coverage").compute(inputs, { wholeWords: true })).toThrow(ConfigError);
    expect(() => createKeywordCoverageMetric({ caseSensitive: "no" as unknown as boolean })).toThrow(/keyword-coverage settings/);
  });
});
