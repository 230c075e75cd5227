import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";
import { MetricError } from "@yardstick/core";
import { z } from "zod";
import { schemaOptionsCheck } from "../options-check.js";
import { describe, mean, normalizeScore, predictionText, requireSamples } from "./common.js";
import { parseOptions } from "./options.js";

/** What a RefCLIPScore scorer is given per sample: the image, the caption to score and the reference captions. */
export interface RefClipScoreItem {
  /** The sample's image: a data URI or an http(s) URL (`raw.image`, else the first of `raw.images`). */
  image: string;
  /** The model's caption, after the task's postprocessors. */
  candidate: string;
  references: string[];
}

/**
 * The two similarities SEA-HELM's OpenCLIP judge gives per sample, each 0–1: `clipscore` (image and
 * candidate caption) and `refSimilarity` (candidate caption and the references).
 */
export interface RefClipScorePair {
  clipscore: number;
  refSimilarity: number;
}

/** Scores captions with a CLIP model somewhere else (a scoring endpoint): one pair per item, in order. */
export interface RefClipScorer {
  /** Where it scores, for messages (e.g. the endpoint URL). */
  readonly name: string;
  score(items: readonly RefClipScoreItem[], signal?: AbortSignal): Promise<RefClipScorePair[]>;
}

export const seahelmRefClipScoreOptionsSchema = z.object({
  /** Row column holding the reference captions when the sample's label is not them (upstream's `label_column`). */
  referencesField: z.string().min(1).default("captions"),
});

/**
 * SEA-HELM's RefClipScoreMetric (xm3600 captioning): per sample RefCLIPScore = 2ab/(a + b), the
 * harmonic mean of the image–caption similarity a and the caption–references similarity b, both from
 * the `scorer`; task scores are the means (`clipscore`, `refclipscore`, 0–1) and the same × 100
 * (`normalized_clipscore`, `normalized_refclipscore`), plus `null_count`.
 */
export function createSeahelmRefClipScoreMetric(id: string, scorer: RefClipScorer): MetricV1 {
  return {
    specVersion: "v1",
    id,
    checkOptions: schemaOptionsCheck(id, seahelmRefClipScoreOptionsSchema),
    description: `SEA-HELM captioning: RefCLIPScore from a CLIP scoring endpoint (${scorer.name})`,
    async compute(inputs: readonly MetricInput[], options: Record<string, unknown>, ctx?: MetricContext): Promise<MetricResult> {
      requireSamples(id, inputs);
      const opts = parseOptions(id, seahelmRefClipScoreOptionsSchema, options);
      const preds = inputs.map((input) => predictionText(id, input));
      const items = inputs.map((input, i) => ({ image: imageOf(id, input), candidate: preds[i]!, references: referencesOf(id, input, opts.referencesField) }));
      let pairs: RefClipScorePair[];
      try {
        pairs = await scorer.score(items, ctx?.signal);
      } catch (err) {
        if (MetricError.isInstance(err)) throw err;
        throw new MetricError(`RefCLIPScore scoring at ${scorer.name} failed: ${err instanceof Error ? err.message : String(err)}`, { metricId: id, cause: err });
      }
      const clip = pairs.map((p) => p.clipscore);
      // A sample whose two similarities are both 0 has RefCLIPScore 0 (upstream would divide by zero).
      const refclip = pairs.map((p) => (p.clipscore + p.refSimilarity === 0 ? 0 : (2 * p.clipscore * p.refSimilarity) / (p.clipscore + p.refSimilarity)));
      return {
        scores: {
          clipscore: mean(clip),
          refclipscore: mean(refclip),
          normalized_clipscore: 100 * normalizeScore(mean(clip), 0, 1),
          normalized_refclipscore: 100 * normalizeScore(mean(refclip), 0, 1),
          null_count: preds.filter((p) => p === "").length,
        },
        perSample: inputs.map((input, i) => ({
          sampleId: input.sampleId,
          scores: { normalized_refclipscore: 100 * normalizeScore(refclip[i]!, 0, 1), clipscore: clip[i]!, ref_similarity: pairs[i]!.refSimilarity },
        })),
      };
    },
  };
}

function imageOf(id: string, input: MetricInput): string {
  const raw = input.sample?.raw ?? {};
  const image = typeof raw.image === "string" ? raw.image : Array.isArray(raw.images) ? raw.images[0] : undefined;
  if (typeof image === "string" && image !== "") return image;
  throw new MetricError(`RefCLIPScore needs the sample's image in raw.image or raw.images (got ${describe(raw.image ?? raw.images)})`, { metricId: id, sampleId: input.sampleId });
}

function referencesOf(id: string, input: MetricInput, field: string): string[] {
  for (const value of [input.reference, input.sample?.raw?.[field]]) {
    if (typeof value === "string" && value !== "") return [value];
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) return value as string[];
  }
  throw new MetricError(`RefCLIPScore needs reference captions: a label that is a caption or a list of them, or raw.${field} (got ${describe(input.reference)})`, {
    metricId: id,
    sampleId: input.sampleId,
  });
}
