import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { createSeahelmCweMetric, createSeahelmNiahMetric, extractBetweenTags, listRecall } from "./list-recall.js";

describe("list recall", () => {
  it("splits on commas, trims and lowercases, compares as sets", () => {
    expect(listRecall(" Apple, banana ,CHERRY", ["apple", "banana", "cherry"], true)).toBe(1);
    expect(listRecall("apple, apple, kiwi", ["apple", "banana"], true)).toBe(0.5);
    expect(listRecall("apple", [], true)).toBe(0);
    // Upstream NIAH leaves references as they are.
    expect(listRecall("apple", ["Apple"], false)).toBe(0);
  });

  it("extracts between the tag and the last closing tag", () => {
    expect(extractBetweenTags("blah <answer> 12, 34 </answer> end", "<answer>")).toBe("12, 34");
    expect(extractBetweenTags("no tag here", "<answer>")).toBe("");
  });
});

describe("seahelm-cwe / seahelm-niah", () => {
  it("reports strict, partial and normalized strict accuracy", async () => {
    const cwe = createSeahelmCweMetric();
    const r = await cwe.compute(
      [
        input("1", "kucing, anjing, burung</answer>", ["kucing", "anjing", "burung"]),
        input("2", "kucing, ikan", ["kucing", "anjing"]),
        input("3", "", ["kucing"]),
      ],
      {},
    );
    // recall 1, 1/2, 0 → strict 1/3, mean 1/2.
    expect(r.scores.strict_accuracy).toBeCloseTo(100 / 3, 10);
    expect(r.scores.accuracy).toBeCloseTo(50, 10);
    expect(r.scores.normalized_strict_accuracy).toBeCloseTo(100 / 3, 10);
    expect(r.perSample.map((s) => s.scores.normalized_accuracy)).toEqual([1, 0.5, 0]);
  });

  it("re-extracts from the raw response with answerTag", async () => {
    const niah = createSeahelmNiahMetric();
    const raw = "The special magic numbers are: <answer>4821, 7730</answer>";
    const r = await niah.compute([input("1", "ignored", ["4821", "7730"], { rawResponse: raw })], { answerTag: "<answer>" });
    expect(r.scores.strict_accuracy).toBe(100);
  });

  it("rejects non-list references", async () => {
    await expect(async () => createSeahelmNiahMetric().compute([input("n1", "a", { a: 1 })], {})).rejects.toThrow(
      /seahelm-niah \(sample n1\)/,
    );
  });
});
