import { describe, expect, it } from "vitest";
import type { MetricInput } from "./contracts.js";
import { perSampleView } from "./per-sample-columns.js";

describe("perSampleView", () => {
  it("reads per-sample records out of the columns, in input order, made when read", () => {
    const inputs: MetricInput[] = [
      { sampleId: "a", prediction: "x", reference: "x" },
      { sampleId: "b", prediction: "y", reference: "x" },
    ];
    const view = perSampleView(inputs, { scores: { correct: Float64Array.of(1, 0), length: Float64Array.of(1, 1) } });
    expect(view).toHaveLength(2);
    expect(view[1]).toEqual({ sampleId: "b", scores: { correct: 0, length: 1 } });
    expect(view.map((s) => s.sampleId)).toEqual(["a", "b"]);
    expect([...view].map((s) => s.scores.correct)).toEqual([1, 0]);
    expect(JSON.stringify(view)).toBe('[{"sampleId":"a","scores":{"correct":1,"length":1}},{"sampleId":"b","scores":{"correct":0,"length":1}}]');
    expect(Reflect.set(view, 0, { sampleId: "z", scores: {} })).toBe(false);
  });
});
