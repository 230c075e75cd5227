import type { MetricInput } from "@yardstick/core";
import { testMetric } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { type RefClipScoreItem, type RefClipScorePair, createSeahelmRefClipScoreMetric } from "./refclipscore.js";

const IMAGE = "data:image/png;base64,iVBORw0KGgo=";

function caption(id: string, prediction: string, reference: unknown, raw: Record<string, unknown> = { image: IMAGE }): MetricInput {
  return { sampleId: id, prediction, reference, sample: { id, prompts: [{ text: "" }], label: reference, raw } };
}

/** A scorer with fixed similarities per candidate, recording what it was asked. */
function fixedScorer(pairs: Record<string, RefClipScorePair>) {
  const asked: RefClipScoreItem[] = [];
  return {
    asked,
    scorer: {
      name: "fixed",
      score: async (items: readonly RefClipScoreItem[]) => {
        asked.push(...items);
        return items.map((i) => pairs[i.candidate] ?? { clipscore: 0.5, refSimilarity: 0.5 });
      },
    },
  };
}

describe("seahelm RefCLIPScore", () => {
  it("is the harmonic mean of image–caption and caption–reference similarity, averaged; ×100 normalised", async () => {
    const { scorer, asked } = fixedScorer({ a: { clipscore: 0.8, refSimilarity: 0.6 }, b: { clipscore: 0.4, refSimilarity: 0.4 }, "": { clipscore: 0, refSimilarity: 0 } });
    const metric = createSeahelmRefClipScoreMetric("seahelm:RefClipScoreMetric", scorer);
    const r = await metric.compute([caption("1", "a", ["ref a", "ref a2"]), caption("2", "b", "ref b"), caption("3", "", [], { images: [IMAGE], captions: ["ref c"] })], {});
    expect(asked).toEqual([
      { image: IMAGE, candidate: "a", references: ["ref a", "ref a2"] },
      { image: IMAGE, candidate: "b", references: ["ref b"] },
      { image: IMAGE, candidate: "", references: ["ref c"] },
    ]);
    // Per sample: 2·0.8·0.6/1.4 = 0.685714…, 0.4, and 0 (both similarities 0).
    const refclip = [(2 * 0.8 * 0.6) / 1.4, 0.4, 0];
    for (const [i, s] of r.perSample.entries()) expect(s.scores.normalized_refclipscore).toBeCloseTo(100 * refclip[i]!, 10);
    expect(r.scores.refclipscore).toBeCloseTo((refclip[0]! + 0.4) / 3, 12);
    expect(r.scores.clipscore).toBeCloseTo(0.4, 12);
    expect(r.scores.normalized_refclipscore).toBeCloseTo((100 * (refclip[0]! + 0.4)) / 3, 10);
    expect(r.scores.normalized_clipscore).toBeCloseTo(40, 10);
    expect(r.scores.null_count).toBe(1);
  });

  it("names the sample without an image or references, and the scorer that failed", async () => {
    const { scorer } = fixedScorer({});
    const metric = createSeahelmRefClipScoreMetric("refclip", scorer);
    await expect(async () => metric.compute([caption("n1", "a", ["r"], {})], {})).rejects.toThrow(/refclip \(sample n1\).*needs the sample's image/);
    await expect(async () => metric.compute([caption("n2", "a", 3)], {})).rejects.toThrow(/refclip \(sample n2\).*needs reference captions/);
    const failing = createSeahelmRefClipScoreMetric("refclip", { name: "http://127.0.0.1:9/score", score: () => Promise.reject(new Error("no answer (ECONNREFUSED)")) });
    await expect(async () => failing.compute([caption("n3", "a", ["r"])], {})).rejects.toThrow(/RefCLIPScore scoring at http:\/\/127\.0\.0\.1:9\/score failed: no answer \(ECONNREFUSED\)/);
  });
});

testMetric(
  createSeahelmRefClipScoreMetric("seahelm:RefClipScoreMetric", fixedScorer({ a: { clipscore: 0.8, refSimilarity: 0.6 } }).scorer),
  [{ inputs: [caption("1", "a", ["ref"]), caption("2", "b", "ref b"), caption("3", "", ["r"])], expectedRange: { normalized_refclipscore: [0, 100], refclipscore: [0, 1] } }],
  { invalidOptions: [{ referencesField: 3 }], orderIndependent: true },
);
