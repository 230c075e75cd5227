import type { MetricInput, Sample } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { spatialMetrics } from "./metrics.js";
import { coordinateScore, defaultScore, normalizeAnswer, shuffleScore, strictScore, transitivityScore } from "./scoring.js";

describe("upstream lenient scoring", () => {
  it("default rule: lowercase substring after the answer token", () => {
    expect(defaultScore("Yes", "Answer: yes")).toBe(1);
    expect(defaultScore("No", "I do not know")).toBe(1); // upstream leniency: "no" in "not"
    expect(defaultScore("1", "There are 10")).toBe(1);
    expect(defaultScore("Yes", "No.\nAnswer: no\nAnswer: yes")).toBe(0); // only the text between the first two tags
    expect(defaultScore("Yes", "a: yes")).toBe(1);
  });
  it("transitivity: first line with a direction, negation zeroes, partial credit", () => {
    expect(transitivityScore("Left", "Thinking...\nIt is left of it")).toBe(1);
    expect(transitivityScore("Left", "left or right")).toBe(0.5);
    expect(transitivityScore("Left", "it is not left")).toBe(0);
    expect(transitivityScore("Left", "Left.")).toBe(0); // punctuation-attached words do not count
    expect(transitivityScore("Left", "left left")).toBe(1);
    expect(transitivityScore("Left", "left left", { compat: true })).toBe(2); // upstream's over-1 bug
  });
  it("coordinate: half credit per word for two-word answers, trailing space dropped", () => {
    expect(coordinateScore("Above Left", "Answer: above left")).toBe(1);
    expect(coordinateScore("Above Left", "above right")).toBe(0);
    expect(coordinateScore("Above Left", "above")).toBe(0.5);
    expect(coordinateScore("Above ", "above")).toBe(1);
    expect(coordinateScore("Above ", "above above", { compat: true })).toBe(2);
    expect(coordinateScore("Above ", "above above")).toBe(1);
  });
  it("shuffle: text cut after the first shape noun", () => {
    expect(shuffleScore("large blue square", "The large blue square, then a small red circle")).toBe(1);
    expect(shuffleScore("small red circle", "The large blue square, then a small red circle")).toBe(0);
  });
});

describe("strict scoring", () => {
  it("normalises case, tag, punctuation and articles", () => {
    expect(normalizeAnswer("Reasoning\nAnswer: **Above Left.**")).toBe("above left");
    expect(strictScore("Above ", "Answer: above")).toBe(1);
    expect(strictScore("large blue square", "Answer: The large blue square.")).toBe(1);
    expect(strictScore("1", "Answer: 10")).toBe(0);
    expect(strictScore("No", "I do not know")).toBe(0);
  });
});

const input = (id: string, task: string, reference: unknown, response: string): MetricInput => {
  const sample: Sample = { id, prompts: [], metadata: { task }, raw: {} };
  return { sampleId: id, prediction: response.replace(/^Answer:\s*/, ""), reference, rawResponse: response, sample };
};

describe("spatial metrics", () => {
  const inputs = [
    input("a", "existence", "Yes", "Answer: Yes"),
    input("b", "count", "0", "Answer: 10"),
    input("c", "transitivity", "Left", "left left"),
    input("d", "coordinate", "Above Left", "Answer: Above"),
  ];
  it("lenient: per-sample scores and task means on a 0-100 scale", async () => {
    const r = await spatialMetrics["spatial-lenient"]!.compute(inputs, {});
    expect(r.perSample.map((p) => p.scores.lenient_accuracy)).toEqual([1, 1, 1, 0.5]);
    expect(r.scores.lenient_accuracy).toBeCloseTo(87.5);
    expect(r.scores["lenient_accuracy/coordinate"]).toBe(50);
    const compat = await spatialMetrics["spatial-lenient"]!.compute(inputs, { compat: true });
    expect(compat.perSample[2]!.scores.lenient_accuracy).toBe(2);
  });
  it("strict: exact normalised answers", async () => {
    const r = await spatialMetrics["spatial-strict"]!.compute(inputs, {});
    expect(r.perSample.map((p) => p.scores.strict_accuracy)).toEqual([1, 0, 0, 0]);
    expect(r.scores.strict_accuracy).toBe(25);
  });
  it("rejects samples without a task and bad options", () => {
    const bad: MetricInput = { sampleId: "x", prediction: "y", reference: "Yes" };
    expect(() => spatialMetrics["spatial-strict"]!.compute([bad], {})).toThrow(/metric spatial-strict \(sample x\): sample.metadata.task/);
    expect(() => spatialMetrics["spatial-strict"]!.compute([bad], { task: "existence" })).not.toThrow();
    expect(() => spatialMetrics["spatial-lenient"]!.compute(inputs, { compat: "yes" })).toThrow(/invalid options/);
  });
});
