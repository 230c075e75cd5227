import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { createSeahelmMetrics, normalizeScore, seahelmMetrics } from "./index.js";

describe("seahelm barrel", () => {
  it("registers every metric under its id", () => {
    expect(Object.keys(seahelmMetrics).sort()).toEqual([
      "seahelm-bbh-exact-match",
      "seahelm-countdown",
      "seahelm-cwe",
      "seahelm-f1acc",
      "seahelm-html-to-tsv",
      "seahelm-livecodebench",
      "seahelm-logprob",
      "seahelm-math",
      "seahelm-minimal-pairs",
      "seahelm-minimal-pairs-logprob",
      "seahelm-niah",
      "seahelm-path-traversal",
      "seahelm-pragmatic",
      "seahelm-pragmatic-logprob",
      "seahelm-qa",
      "seahelm-summarization",
      "seahelm-tom-tracking",
      "seahelm-translation",
      "seahelm-travel-planning",
    ]);
    for (const [id, m] of Object.entries(seahelmMetrics)) {
      expect(m.id).toBe(id);
      expect(m.specVersion).toBe("v1");
    }
  });

  it("every metric rejects an empty task with a MetricError naming it", async () => {
    for (const m of Object.values(seahelmMetrics)) {
      await expect(async () => m.compute([], {})).rejects.toThrow(new RegExp(`metric ${m.id}: no samples`));
    }
  });

  it("createSeahelmMetrics wires an injected chrF++", async () => {
    const metrics = createSeahelmMetrics({ chrf: () => 12 });
    const r = await metrics["seahelm-translation"]!.compute([input("1", "a", "b")], { useMetricx: false, useChrf: true });
    expect(r.scores.chrf_score).toBe(12);
  });

  it("normalizeScore floors at 0, does not clamp above, and is 0 for an empty range", () => {
    expect(normalizeScore(0.75, 0.5, 1)).toBe(0.5);
    expect(normalizeScore(0.25, 0.5, 1)).toBe(0);
    expect(normalizeScore(1.5, 0, 1)).toBe(1.5);
    expect(normalizeScore(3, 1, 1)).toBe(0);
  });
});
