import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { createSeahelmLogprobMetric } from "./logprob.js";

const metric = createSeahelmLogprobMetric();

describe("seahelm-logprob", () => {
  it("averages 100·exp(logprob) with nulls as 0", async () => {
    const r = await metric.compute(
      [input("1", Math.log(0.5), "A"), input("2", 0, "B"), input("3", null, "C"), input("4", String(Math.log(0.2)), "D")],
      {},
    );
    expect(r.perSample.map((s) => s.scores.probabilities_accuracy)).toEqual([50, 100, 0, 100 * 0.2]);
    expect(r.scores.average_cumulative_probabilities).toBeCloseTo((50 + 100 + 0 + 20) / 4, 10);
    expect(r.scores.null_count).toBe(1);
    expect(r.scores.average_cumulative_logprobs).toBeCloseTo((Math.log(0.5) + 0 + Math.log(0.2)) / 3, 12);
    // stderr of [50, 100, 0, 20]: mean 42.5, sample variance (56.25+3306.25+1806.25+506.25)/3.
    expect(r.scores.clt_se_cumulative_probabilities).toBeCloseTo(Math.sqrt(5675 / 3 / 4), 10);
  });

  it("all null: probabilities 0, log-prob mean reported as 0", async () => {
    const r = await metric.compute([input("1", null, "A"), input("2", undefined, "A")], {});
    expect(r.scores).toMatchObject({ null_count: 2, average_cumulative_probabilities: 0, average_cumulative_logprobs: 0 });
  });

  it("rejects NaN and non-numeric text", async () => {
    await expect(async () => metric.compute([input("l1", Number.NaN, "A")], {})).rejects.toThrow(/seahelm-logprob \(sample l1\)/);
    await expect(async () => metric.compute([input("l2", "abc", "A")], {})).rejects.toThrow(/cumulative log-probability/);
  });
});

describe("seahelm-logprob input checks", () => {
  it("counts blank strings as missing and refuses values that are not log-probabilities", async () => {
    const { cumulativeLogprobOf } = await import("./logprob.js");
    const at = (prediction: unknown) => cumulativeLogprobOf({ sampleId: "s", prediction, reference: "" });
    expect(at("  ")).toBeNull();
    expect(at("\n")).toBeNull();
    expect(at(" -1.5 ")).toBe(-1.5);
    expect(at(-0.25)).toBe(-0.25);
    for (const bad of ["0x10", "1e-3", 0.5, Number.NEGATIVE_INFINITY, "Infinity", "abc"]) {
      expect(() => at(bad), String(bad)).toThrow(/cumulative log-probability/);
    }
  });
});
