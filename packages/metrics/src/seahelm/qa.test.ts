import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { normalizeQaAnswer } from "./normalize-text.js";
import { createSeahelmQaMetric, qaF1 } from "./qa.js";
import { segmentWords } from "./segment.js";

const metric = createSeahelmQaMetric();

describe("QA normalisation", () => {
  it("removes all ASCII punctuation but keeps articles (upstream comments article removal out)", () => {
    expect(normalizeQaAnswer("The  Eiffel-Tower!")).toBe("the eiffeltower");
    expect(qaF1("The Eiffel Tower", "Eiffel Tower")).toBeCloseTo(0.8, 12);
  });
});

describe("seahelm-qa", () => {
  it("scores a small Indonesian-style batch (hand-computed)", async () => {
    const r = await metric.compute(
      [
        input("1", "The Eiffel Tower!", ["Eiffel Tower", "the tower"]),
        input("2", "Paris", ["paris."]),
        input("3", "", ["Jakarta"]),
      ],
      { lang: "id" },
    );
    // F1: 0.8 (P 2/3, R 1 against either reference), 1, 0.
    expect(r.scores.f1).toBeCloseTo((100 * 1.8) / 3, 10);
    expect(r.scores.normalized_f1).toBe(r.scores.f1);
    expect(r.scores.exact_match).toBeCloseTo(100 / 3, 10);
    expect(r.scores.found_in_prediction).toBeCloseTo(200 / 3, 10);
    expect(r.scores.null_count).toBe(1);
    expect(r.perSample.map((s) => s.scores.normalized_f1)).toEqual([0.8, 1, 0]);
  });

  it("segments Chinese with Intl.Segmenter before token F1", async () => {
    const ref = "他们撞在了粗大的树干上";
    const pred = "他们撞在了树干上";
    // The segmentation this expectation assumes (ICU's dictionary).
    expect(segmentWords(ref, "zh")).toEqual(["他们", "撞在", "了", "粗大", "的", "树干", "上"]);
    expect(segmentWords(pred, "zh")).toEqual(["他们", "撞在", "了", "树干", "上"]);
    const r = await metric.compute([input("z", pred, [ref])], { lang: "zh" });
    // 5 shared tokens: P = 1, R = 5/7 → F1 = 10/12.
    expect(r.scores.f1).toBeCloseTo((100 * 10) / 12, 10);
    // Unsegmented, the whole string is one token: F1 0.
    expect((await metric.compute([input("z", pred, [ref])], { lang: "id" })).scores.f1).toBe(0);
  });

  it("uses only the first reference for th/zh unless firstReferenceOnlyForThZh is false", async () => {
    const inputs = [input("t", "แมวดำ", ["สุนัข", "แมวดำ"])];
    expect((await metric.compute(inputs, { lang: "th" })).scores.f1).toBe(0);
    expect((await metric.compute(inputs, { lang: "th", firstReferenceOnlyForThZh: false })).scores.f1).toBe(100);
    // Other languages always take the max over references.
    expect((await metric.compute(inputs, { lang: "vi" })).scores.f1).toBe(100);
  });

  it("takes the language from the task when no option is given", async () => {
    const inputs = [input("z", "他们撞在了树干上", ["他们撞在了粗大的树干上"])];
    const task = { language: "zh" } as never;
    expect((await metric.compute(inputs, {}, { task })).scores.f1).toBeCloseTo((100 * 10) / 12, 10);
  });

  it("treats a string label as one reference, or as its first character in compat mode", async () => {
    const inputs = [input("n", "队长", "队长")];
    expect((await metric.compute(inputs, { lang: "zh" })).scores.f1).toBe(100);
    expect((await metric.compute(inputs, { lang: "zh", stringLabelFirstCharacter: true })).scores.f1).toBe(0);
  });

  it("rejects non-string predictions and empty reference lists", async () => {
    await expect(async () => metric.compute([input("q1", null, ["a"])], {})).rejects.toThrow(/seahelm-qa \(sample q1\)/);
    await expect(async () => metric.compute([input("q2", "a", [])], {})).rejects.toThrow(/non-empty list/);
    await expect(async () => metric.compute([input("q3", "a", ["a"])], { firstReferenceOnlyForThZh: "yes" })).rejects.toThrow(
      /invalid options/,
    );
  });
});
