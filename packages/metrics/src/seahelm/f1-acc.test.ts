import { MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { balancedAccuracy, macroF1 } from "./classification.js";
import { createSeahelmF1AccMetric } from "./f1-acc.js";
import { extractLabelAfterTag } from "./label-mapping.js";
import { normalizeLabelAnswer } from "./normalize-text.js";

const metric = createSeahelmF1AccMetric();

describe("normalizeLabelAnswer", () => {
  it("lowercases, strips edge punctuation/space/newline and collapses inner whitespace", () => {
    expect(normalizeLabelAnswer("  **Positif.**\n")).toBe("positif");
    expect(normalizeLabelAnswer("Sangat   \t Positif")).toBe("sangat positif");
    // Inner punctuation stays; a tab at the edge is not stripped but split() removes it.
    expect(normalizeLabelAnswer("\tit's ok!")).toBe("it's ok");
  });
});

describe("sklearn-equivalent scores", () => {
  it("balanced accuracy ignores predicted-only classes", () => {
    expect(balancedAccuracy(["a", "a", "b"], ["a", "null", "null"])).toBeCloseTo((0.5 + 0) / 2, 12);
  });
  it("macro F1 default label set includes predicted classes", () => {
    // a: tp1 fp0 fn1 → 2/3; null: tp0 fp1 → 0.
    expect(macroF1(["a", "a"], ["a", "null"])).toBeCloseTo((2 / 3 + 0) / 2, 12);
    expect(macroF1(["a", "a"], ["a", "null"], ["a"])).toBeCloseTo(2 / 3, 12);
  });
});

describe("seahelm-f1acc", () => {
  const inputs = [
    input("1", "positive.", "Positive"),
    input("2", "Negative", "Positive"),
    input("3", "  NEGATIVE ", "Negative"),
    input("4", "I think negative", "Negative"),
    input("5", "Neutral", "Neutral"),
    input("6", "Positive", "Neutral"),
  ];

  it("computes the upstream score block (hand-computed)", async () => {
    const r = await metric.compute(inputs, {});
    // Recall 1/2 per class → balanced accuracy 0.5; chance 1/3 → (0.5 − 1/3)/(2/3) = 0.25.
    expect(r.scores.accuracy).toBeCloseTo(50, 10);
    expect(r.scores.normalized_accuracy).toBeCloseTo(25, 10);
    // Per-class F1: Positive 1/2, Negative 1/2, Neutral 2/3, null 0.
    expect(r.scores.macro_f1).toBeCloseTo((100 * (0.5 + 0.5 + 2 / 3 + 0)) / 4, 10);
    expect(r.scores.null_weighted_f1).toBeCloseTo(((100 * (0.5 + 0.5 + 2 / 3)) / 3) * (1 - 1 / 6), 10);
    expect(r.scores.null_count).toBe(1);
    expect(r.perSample.map((s) => s.scores.correct)).toEqual([1, 0, 1, 0, 1, 0]);
  });

  it("scores all-null predictions as zero", async () => {
    const r = await metric.compute([input("a", "dunno", "A"), input("b", "", "B")], {});
    expect(r.scores).toEqual({ accuracy: 0, macro_f1: 0, null_weighted_f1: 0, normalized_accuracy: 0, null_count: 2 });
  });

  it("a single class gives normalized accuracy 0 (chance = 1 = max)", async () => {
    const r = await metric.compute([input("a", "A", "A"), input("b", "x", "A")], {});
    expect(r.scores.accuracy).toBeCloseTo(50, 10);
    expect(r.scores.normalized_accuracy).toBe(0);
  });

  it("option labels sets the chance level and the mapping", async () => {
    const r = await metric.compute([input("a", "A", "A"), input("b", "C", "B")], { labels: ["A", "B", "C", "D"] });
    // "C" is a label now (not null): recall A 1, B 0 → 0.5; chance 1/4 → (0.5 − 0.25)/0.75.
    expect(r.scores.null_count).toBe(0);
    expect(r.scores.normalized_accuracy).toBeCloseTo((100 * 0.25) / 0.75, 10);
  });

  it("matches labels by normalised form unless upstreamLabelKeys is set", async () => {
    const inputs2 = [input("a", "(A)", "(A)"), input("b", "(B)", "(B)")];
    expect((await metric.compute(inputs2, {})).scores.accuracy).toBe(100);
    // Upstream keys "(a)" but looks up the normalised "a": never matches.
    expect((await metric.compute(inputs2, { upstreamLabelKeys: true })).scores.null_count).toBe(2);
  });

  it("re-extracts from the raw response with answerTag like upstream's label regex", async () => {
    const raw = "Reasoning… Jawaban: **Positif**. Karena kalimatnya senang.";
    expect(extractLabelAfterTag(raw, "Jawaban:", ["Positif", "Negatif"])).toBe("Positif");
    const r = await metric.compute(
      [input("a", "**Positif**. Karena kalimatnya senang.", "Positif", { rawResponse: raw }), input("b", "Negatif", "Negatif")],
      { answerTag: "Jawaban:" },
    );
    expect(r.scores.accuracy).toBe(100);
  });

  it("rejects bad input with a MetricError naming metric and sample", async () => {
    await expect(async () => metric.compute([input("s7", 3, "A")], {})).rejects.toThrow(/seahelm-f1acc \(sample s7\)/);
    await expect(async () => metric.compute([input("s8", "A", { x: 1 })], {})).rejects.toBeInstanceOf(MetricError);
    await expect(async () => metric.compute([], {})).rejects.toThrow(/no samples/);
    await expect(async () => metric.compute([input("a", "A", "A")], { labels: [] })).rejects.toThrow(/labels/);
  });
});

describe("seahelm-f1acc resampleByCounts", () => {
  const labels = ["A", "B", "C"];
  const inputs = Array.from({ length: 40 }, (_, i) => ({
    sampleId: `s${i}`,
    prediction: labels[(i * 7) % 4] ?? "nonsense",
    reference: labels[i % 3]!,
  }));
  const countsOf = (categories: Uint32Array, size: number, rows: Iterable<number>) => {
    const counts = new Uint32Array(size);
    for (const j of rows) counts[categories[j]!]!++;
    return counts;
  };

  it("gives compute()'s task scores from the inputs' own counts", async () => {
    const { seahelmMetrics } = await import("./index.js");
    const metric = seahelmMetrics["seahelm-f1acc"]!;
    const full = await metric.compute(inputs, {});
    for (const key of ["accuracy", "normalized_accuracy", "macro_f1", "null_weighted_f1"]) {
      const counted = metric.resampleByCounts!(inputs, {}, key)!;
      expect(counted.categories).toHaveLength(inputs.length);
      expect(counted.scoreOf(countsOf(counted.categories, counted.categoryCount, inputs.keys()))).toBe(full.scores[key]);
    }
    expect(metric.resampleByCounts!(inputs, {}, "null_count")).toBeUndefined();
  });

  it("codes a reused input array afresh in compute, and resamples what compute last saw", async () => {
    const { seahelmMetrics } = await import("./index.js");
    const metric = seahelmMetrics["seahelm-f1acc"]!;
    const reused = inputs.map((x) => ({ ...x }));
    const first = await metric.compute(reused, {});
    for (const x of reused) x.prediction = x.reference;
    const second = await metric.compute(reused, {});
    expect(first.scores.accuracy).toBeLessThan(100);
    expect(second.scores.accuracy).toBe(100);
    const counted = metric.resampleByCounts!(reused, {}, "accuracy")!;
    expect(counted.scoreOf(countsOf(counted.categories, counted.categoryCount, reused.keys()))).toBe(100);
  });

  it("equals compute() on resamples (with the full label set) for the balanced accuracies", async () => {
    const { seahelmMetrics } = await import("./index.js");
    const metric = seahelmMetrics["seahelm-f1acc"]!;
    let state = 12345;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % inputs.length;
    };
    for (const key of ["accuracy", "normalized_accuracy"]) {
      const counted = metric.resampleByCounts!(inputs, {}, key)!;
      for (let r = 0; r < 4; r++) {
        const draws = Array.from({ length: inputs.length }, next);
        const sample = draws.map((j, i) => ({ ...inputs[j]!, sampleId: `r${i}` }));
        const slow = await metric.compute(sample, { labels });
        expect(counted.scoreOf(countsOf(counted.categories, counted.categoryCount, draws))).toBeCloseTo(slow.scores[key]!, 10);
      }
    }
  });
});

describe("label codes", () => {
  it("give exactly the scores of the string-label formulas (sklearn order of classes and sums)", () => {
    // Seeded mix of gold labels, predictions that map to a label, to another label, or to null.
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const labels = ["Positive", "negative", "Neutral", "Mixed"];
    const texts = [...labels, "no idea", "NEUTRAL", ""];
    const inputs = Array.from({ length: 500 }, (_, i) => input(`s${i}`, texts[Math.floor(next() * texts.length)]!, labels[Math.floor(next() * 3)]!));
    const result = metric.compute(inputs, { labels });
    const gold = inputs.map((x) => String(x.reference));
    const pred = inputs.map((x) => {
      const hit = labels.find((l) => normalizeLabelAnswer(l) === normalizeLabelAnswer(String(x.prediction)));
      return hit ?? "null";
    });
    const balAcc = balancedAccuracy(gold, pred);
    const goldLabels = [...new Set(gold)];
    const nullCount = pred.filter((p) => p === "null").length;
    expect(nullCount).toBeGreaterThan(0);
    expect(result.scores.accuracy).toBe(100 * balAcc);
    expect(result.scores.macro_f1).toBe(100 * macroF1(gold, pred));
    expect(result.scores.null_weighted_f1).toBe(100 * macroF1(gold, pred, goldLabels) * (1 - nullCount / inputs.length));
    expect(result.scores.null_count).toBe(nullCount);
    expect(result.details).toEqual({ labelCount: 4, goldLabels });
    expect(Array.from(result.perSampleColumns!.scores.correct!)).toEqual(pred.map((p, i) => (p === gold[i] ? 1 : 0)));
  });
});
