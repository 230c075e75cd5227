import { MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { compareRuns } from "./compare-runs.js";
import { runItemsFromSampleScores, summarizePerSample } from "./sample-scores.js";
import { summarize } from "./summarize.js";

describe("summarizePerSample", () => {
  it("summarises each score key over the samples that carry it", () => {
    const perSample = [
      { sampleId: "a", scores: { acc: 1, f1: 0.5 } },
      { sampleId: "b", scores: { acc: 0 } },
      { sampleId: "c", scores: { acc: 1, f1: 0.25 } },
    ];
    const out = summarizePerSample(perSample, { seed: 4, resamples: 50 });
    expect(Object.keys(out)).toEqual(["acc", "f1"]);
    expect(out.acc).toEqual(summarize([1, 0, 1], { seed: 4, resamples: 50 }));
    expect(out.f1!.n).toBe(2);
    expect(out.f1!.mean).toBe(0.375);
  });

  it("names the score key when a value is unusable", () => {
    expect(() => summarizePerSample([{ sampleId: "a", scores: { acc: Number.NaN } }])).toThrow(
      /stats:summarizePerSample.*score "acc"/,
    );
    expect(() => summarizePerSample([{ sampleId: "a" } as never])).toThrow(MetricError);
  });
});

describe("runItemsFromSampleScores", () => {
  it("builds compareRuns input from one score key", () => {
    const runA = runItemsFromSampleScores(
      {
        t: [
          { sampleId: "1", scores: { acc: 1 } },
          { sampleId: "2", scores: { acc: 0 } },
          { sampleId: "3", scores: { other: 1 } },
        ],
      },
      "acc",
    );
    expect(runA).toEqual({ tasks: { t: { items: { "1": 1, "2": 0 } } } });
    const runB = runItemsFromSampleScores({ t: [{ sampleId: "2", scores: { acc: 1 } }] }, "acc");
    const result = compareRuns(runA, runB);
    expect(result.rows[0]).toMatchObject({ task: "t", n: 1, onlyA: 1, onlyB: 0, diff: -1 });
  });

  it("refuses repeated sample ids", () => {
    expect(() =>
      runItemsFromSampleScores(
        {
          t: [
            { sampleId: "1", scores: { acc: 1 } },
            { sampleId: "1", scores: { acc: 0 } },
          ],
        },
        "acc",
      ),
    ).toThrow(/sample id "1" twice/);
  });
});
