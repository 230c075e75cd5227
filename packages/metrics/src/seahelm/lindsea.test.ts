import { MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { aggregateLindsea, aggregatePragmatics, aggregatePragmaticsLogprobs } from "./lindsea-aggregation.js";
import { createSeahelmMinimalPairsMetric } from "./minimal-pairs.js";
import { createSeahelmPragmaticMetric } from "./pragmatic.js";

const ph = (p: string) => ({ metadata: { linguistic_phenomenon: p } });

describe("seahelm-minimal-pairs", () => {
  const metric = createSeahelmMinimalPairsMetric();

  it("averages per-phenomenon accuracy and normalises against 100/|labels|", async () => {
    const r = await metric.compute(
      [
        input("1", "A", "A", ph("npi")),
        input("2", "B", "A", ph("npi")),
        input("3", "a.", "A", ph("npi")),
        input("4", "B", "B", ph("word_order")),
      ],
      {},
    );
    // npi 2/3, word_order 1/1 → mean (66.67 + 100)/2 = 83.33; chance 50 → (83.33 − 50)/50.
    expect(r.details?.subcategories).toEqual({ npi: (100 * 2) / 3, word_order: 100 });
    expect(r.scores.accuracy).toBeCloseTo(250 / 3, 10);
    expect(r.scores.normalized_accuracy).toBeCloseTo(100 * ((250 / 3 - 50) / 50), 10);
    expect(r.perSample.map((s) => s.scores.correct)).toEqual([1, 0, 1, 1]);
  });

  it("needs the linguistic phenomenon", async () => {
    await expect(async () => metric.compute([input("m1", "A", "A")], {})).rejects.toThrow(
      /seahelm-minimal-pairs \(sample m1\).*linguistic_phenomenon/,
    );
  });
});

describe("seahelm-pragmatic + aggregation", () => {
  const metric = createSeahelmPragmaticMetric();

  it("reports [correct, n] per phenomenon", async () => {
    const r = await metric.compute(
      [
        input("1", "Benar", "Benar", ph("scalar_implicatures")),
        input("2", "Salah", "Benar", ph("scalar_implicatures")),
        input("3", "salah", "Salah", ph("presuppositions")),
        input("4", "tidak tahu", "Benar", ph("presuppositions")),
        input("5", "Benar", "Benar", ph("presuppositions")),
        input("6", "Benar", "Benar", ph("presuppositions")),
      ],
      {},
    );
    expect(r.details?.subcategories).toEqual({ scalar_implicatures: [1, 2], presuppositions: [3, 4] });
    // Mean over phenomena (1/2 + 3/4)/2 = 0.625 → normalised (0.625 − 0.5)/0.5 = 0.25.
    expect(r.scores).toMatchObject({ correct: 4, total: 6, null_count: 1 });
    expect(r.scores.accuracy).toBeCloseTo(62.5, 10);
    expect(r.scores.normalized_accuracy).toBeCloseTo(25, 10);
  });

  it("pools single and pair per phenomenon, then normalises against 0.5", () => {
    const single = { scalar_implicatures: [8, 10] as [number, number], presuppositions: [6, 10] as [number, number] };
    const pair = { scalar_implicatures: [2, 10] as [number, number] };
    const agg = aggregatePragmatics([single, pair]);
    // scalar: 10/20 = 0.5, presuppositions: 6/10 = 0.6 → mean 0.55 → (0.55 − 0.5)/0.5 = 0.1.
    expect(agg.subcategories.scalar_implicatures).toEqual({ accuracy: 0.5, correct_count: 10, total_count: 20 });
    expect(agg.accuracy).toBeCloseTo(55, 10);
    expect(agg.normalized_accuracy).toBeCloseTo(10, 10);
    expect(aggregatePragmatics([{ scalar_implicatures: [1, 4], presuppositions: [0, 4] }]).normalized_accuracy).toBe(0);
    expect(() => aggregatePragmatics([{ scalar_implicatures: [1, 2] }])).toThrow(MetricError);
  });

  it("averages the logprob twins per phenomenon", () => {
    const agg = aggregatePragmaticsLogprobs([
      { scalar_implicatures: { average_cumulative_probabilities: 40 }, presuppositions: { average_cumulative_probabilities: 70 } },
      { scalar_implicatures: { average_cumulative_probabilities: 60 } },
    ]);
    expect(agg.subcategories.scalar_implicatures?.average_cumulative_probabilities).toBe(50);
    expect(agg.average_cumulative_probabilities).toBe(60);
  });

  it("lindsea score is the mean of the parts present (syntax-criteria excluded)", () => {
    expect(aggregateLindsea({ "mp-r": { normalized_accuracy: 70 }, pragmatics: { normalized_accuracy: 10 } })).toEqual({
      normalized_score: 40,
      used: ["mp-r", "pragmatics"],
    });
    expect(aggregateLindsea({ "mp-r-logprobs": { average_cumulative_probabilities: 30 } }).normalized_score).toBe(30);
    expect(() => aggregateLindsea({})).toThrow(/none of mp-r/);
  });
});

describe("lindseaRollup", () => {
  it("pools the pragmatic tasks per phenomenon and averages with mp-r into the competency total", async () => {
    const { lindseaRollup } = await import("./lindsea-aggregation.js");
    const r = lindseaRollup([
      { name: "pragmatic-single", main: 40, metrics: { "seahelm-pragmatic.details": { subcategories: { presuppositions: [6, 10], scalar_implicatures: [8, 10] } } } },
      { name: "pragmatic-pair", main: 60, metrics: { "seahelm-pragmatic.details": { subcategories: { presuppositions: [9, 10] } } } },
      { name: "mp-r", main: 50, metrics: {} },
      { name: "syntax-criteria", main: 99, metrics: {} },
    ])!;
    // presuppositions 15/20 = 0.75, scalar 8/10 = 0.8 → acc 0.775 → normalized (0.775 − 0.5)/0.5 = 55
    const pragmatics = r.entries.pragmatics as { accuracy: number; normalized_accuracy: number };
    expect(pragmatics.normalized_accuracy).toBeCloseTo(55, 10);
    expect(r.total).toBeCloseTo((50 + 55) / 2, 10);
    expect(lindseaRollup([{ name: "syntax-criteria", main: 80, metrics: {} }])).toBeUndefined();
  });
});
