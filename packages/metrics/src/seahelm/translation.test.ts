import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { createSeahelmTranslationMetric } from "./translation.js";

const metric = createSeahelmTranslationMetric();

describe("seahelm-translation", () => {
  it("normalises MetricX scores: 100 × max((25 − x)/25, 0), averaged", async () => {
    const r = await metric.compute(
      [
        input("1", "Saya makan nasi.", "Saya makan nasi.", { metadata: { judgeScores: { metricx: 0 } } }),
        input("2", "Dia pergi.", "Dia sudah pergi.", { metadata: { judgeScores: { metricx: 5 } } }),
        input("3", "", "Mereka datang.", { raw: { metricx_score: 25 } }),
        input("4", "x", "y", { raw: { metricx_score: 30 } }),
      ],
      {},
    );
    // Per sample: 100, 80, 0, 0 (floored).
    expect(r.perSample.map((s) => s.scores.normalized_metricx_wmt24_scores)).toEqual([100, 80, 0, 0]);
    expect(r.scores.normalized_metricx_wmt24_scores).toBe(45);
    expect(r.scores.metricx_wmt24_scores).toBe(15);
    expect(r.scores.null_count).toBe(1);
  });

  it("has no upper clamp (a score below 0 exceeds 100, as upstream)", async () => {
    const r = await metric.compute([input("1", "a", "a", { raw: { metricx_score: -2.5 } })], {});
    expect(r.scores.normalized_metricx_wmt24_scores).toBeCloseTo(110, 10);
  });

  it("honours custom score locations", async () => {
    const r = await metric.compute(
      [input("1", "a", "a", { metadata: { judgeScores: { mx24: 12.5 } }, raw: { metricx_score: 0 } })],
      { judgeScoreKey: "mx24" },
    );
    expect(r.scores.normalized_metricx_wmt24_scores).toBe(50);
  });

  it("errors when some samples have a MetricX score and others lack one or have NaN, naming the sample", async () => {
    await expect(async () => metric.compute([input("t0", "a", "a", { raw: { metricx_score: 1 } }), input("t1", "a", "a")], {})).rejects.toThrow(
      /seahelm-translation \(sample t1\).*sample\.raw\.metricx_score.*--metricx-url/,
    );
    await expect(async () => metric.compute([input("t2", "a", "a", { raw: { metricx_score: Number.NaN } })], {})).rejects.toThrow(
      /got NaN/,
    );
  });

  it("without any MetricX score or scorer: chrF++ in its place and a not-computed note for the MetricX scores", async () => {
    const quiet = createSeahelmTranslationMetric({ metricxMissingReason: "no --metricx-url" });
    const r = await quiet.compute([input("1", "ab", "ab"), input("2", "cd", "ce")], {});
    expect(r.scores.normalized_metricx_wmt24_scores).toBeUndefined();
    expect(r.scores.chrf_score).toBeCloseTo((100 * 7) / 12, 10);
    expect(r.details).toEqual({
      notComputed: {
        normalized_metricx_wmt24_scores: "MetricX not computed (no --metricx-url); chrF++ 58.33 is reported in chrf_score",
        metricx_wmt24_scores: "MetricX not computed (no --metricx-url); chrF++ 58.33 is reported in chrf_score",
      },
    });
  });

  it("asks its MetricX scorer for the samples without a stored score, with source, candidate and reference", async () => {
    const asked: unknown[] = [];
    const scorer = {
      name: "test scorer",
      score: async (items: readonly { candidate: string }[]) => {
        asked.push(...items);
        return items.map((i) => i.candidate.length);
      },
    };
    const withScorer = createSeahelmTranslationMetric({ metricx: scorer });
    const r = await withScorer.compute([input("1", "abcde", "x", { raw: { metricx_score: 0 } }), { ...input("2", "abcdefghij", "ref"), sample: { id: "2", prompts: [{ text: "src text" }], label: "ref", raw: {} } }], {});
    expect(asked).toEqual([{ source: "src text", candidate: "abcdefghij", reference: "ref" }]);
    expect(r.perSample.map((s) => s.scores.metricx_wmt24_scores)).toEqual([0, 10]);
    expect(r.scores.normalized_metricx_wmt24_scores).toBe(80);
    const failing = createSeahelmTranslationMetric({ metricx: { name: "http://127.0.0.1:9/score", score: async () => Promise.reject(new Error("no answer (ECONNREFUSED)")) } });
    await expect(async () => failing.compute([{ ...input("3", "a", "b"), sample: { id: "3", prompts: [{ text: "s" }], label: "b", raw: {} } }], {})).rejects.toThrow(
      /MetricX scoring at http:\/\/127\.0\.0\.1:9\/score failed: no answer \(ECONNREFUSED\)/,
    );
  });

  it("chrF++ uses the package implementation or an injected one", async () => {
    const inputs = [input("1", "ab", "ab"), input("2", "cd", "ce")];
    const dflt = await metric.compute(inputs, { useMetricx: false, useChrf: true });
    // Corpus statistics: char 1-grams 3/4 matched, 2-grams 1/2; word 1-grams 1/2; word 2-grams none
    // (orders without n-grams on both sides are skipped). P = R = mean(3/4, 1/2, 1/2) = 7/12.
    expect(dflt.scores.chrf_score).toBeCloseTo((100 * 7) / 12, 10);
    const seen: string[][] = [];
    const withChrf = createSeahelmTranslationMetric({
      chrf: (h, r) => {
        seen.push([...h], [...r]);
        return 42.5;
      },
    });
    const r = await withChrf.compute(inputs, { useMetricx: false, useChrf: true });
    expect(seen).toEqual([
      ["ab", "cd"],
      ["ab", "ce"],
    ]);
    expect(r.scores).toEqual({ chrf_score: 42.5, normalized_chrf_score: 42.5, null_count: 0 });
  });
});
