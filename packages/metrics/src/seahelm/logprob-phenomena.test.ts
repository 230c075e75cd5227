import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { createSeahelmLogprobMetric } from "./logprob.js";
import { createSeahelmMinimalPairsLogprobMetric, createSeahelmPragmaticLogprobMetric } from "./logprob-phenomena.js";

const ph = (p: string) => ({ metadata: { linguistic_phenomenon: p } });
const subcategories = (r: { details?: Record<string, unknown> }) => (r.details?.subcategories ?? {}) as Record<string, Record<string, number>>;

// Rows interleave two phenomena; predictions are the engine's loglikelihood answers ([one value]),
// one failed request ("") and one bare number.
const rows = [
  input("1", [Math.log(0.5)], "A", ph("npi")),
  input("2", [Math.log(0.2)], "B", ph("word_order")),
  input("3", "", "A", ph("npi")),
  input("4", Math.log(0.9), "B", ph("word_order")),
  input("5", [Math.log(0.4)], "A", ph("npi")),
];

describe("seahelm-minimal-pairs-logprob", () => {
  it("gives LogProbMetric's statistics overall and per phenomenon", async () => {
    const r = await createSeahelmMinimalPairsLogprobMetric().compute(rows, {});
    expect(r.perSample.map((s) => s.sampleId)).toEqual(["1", "2", "3", "4", "5"]);
    const probs = r.perSample.map((s) => s.scores.probabilities_accuracy!);
    for (const [i, p] of [50, 20, 0, 90, 40].entries()) expect(probs[i]).toBeCloseTo(p, 10);
    expect(r.scores.average_cumulative_probabilities).toBeCloseTo((50 + 20 + 0 + 90 + 40) / 5, 10);
    expect(r.scores.null_count).toBe(1);
    // The same numbers LogProbMetric gives over all rows.
    const plain = await createSeahelmLogprobMetric().compute(rows, {});
    expect(r.scores).toEqual(plain.scores);
    const sub = subcategories(r);
    expect(Object.keys(sub)).toEqual(["npi", "word_order"]);
    expect(sub.npi!.average_cumulative_probabilities).toBeCloseTo((50 + 0 + 40) / 3, 10);
    expect(sub.npi!.null_count).toBe(1);
    expect(sub.npi!.average_cumulative_logprobs).toBeCloseTo((Math.log(0.5) + Math.log(0.4)) / 2, 12);
    expect(sub.word_order!.average_cumulative_probabilities).toBeCloseTo((20 + 90) / 2, 10);
    // stderr of [20, 90]: sample sd 49.497..., over √2.
    expect(sub.word_order!.clt_se_cumulative_probabilities).toBeCloseTo(35, 10);
  });

  it("needs each row's phenomenon and one value per row", async () => {
    const m = createSeahelmMinimalPairsLogprobMetric();
    await expect(async () => m.compute([input("x", [-1], "A")], {})).rejects.toThrow(/linguistic_phenomenon/);
    await expect(async () => m.compute([input("y", [-1, -2], "A", ph("npi"))], {})).rejects.toThrow(
      /seahelm-minimal-pairs-logprob \(sample y\).*one gold continuation, got array\(2\)/,
    );
  });
});

describe("seahelm-pragmatic-logprob", () => {
  it("scores the task as the mean of its phenomena's average probabilities, per-sample in row order", async () => {
    const r = await createSeahelmPragmaticLogprobMetric().compute(rows, {});
    const npi = (50 + 0 + 40) / 3;
    const wordOrder = (20 + 90) / 2;
    expect(r.scores.average_cumulative_probabilities).toBeCloseTo((npi + wordOrder) / 2, 10);
    expect(r.scores.null_count).toBe(1);
    expect(r.perSample.map((s) => s.scores.probabilities_accuracy!)[3]).toBeCloseTo(90, 10);
    const sub = subcategories(r);
    expect(sub.word_order!.average_cumulative_probabilities).toBeCloseTo(wordOrder, 10);
    // One valid value in a phenomenon: upstream reports 0 for its log-prob mean.
    const one = await createSeahelmPragmaticLogprobMetric().compute([input("a", [-1], "Benar", ph("presuppositions"))], {});
    expect(subcategories(one).presuppositions!.average_cumulative_logprobs).toBe(0);
  });
});
