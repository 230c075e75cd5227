/** The `bleu` metric: sacrebleu corpus BLEU as the task score, sentence BLEU per sample. */
import { type MetricInput, type MetricResult, type MetricV1, MetricError } from "@yardstick/core";
import { z } from "zod";
import { type BleuScore, createBleuScorer } from "./bleu.js";
import { parseTextOptions, predictionText, referenceTexts } from "./metric-inputs.js";
import { schemaOptionsCheck } from "../options-check.js";
import { formatFixed } from "./format.js";
import { type SegmentStatistics, sumColumns } from "./segment-statistics.js";

const ID = "bleu";

export const bleuOptionsSchema = z.strictObject({
  tokenize: z.enum(["13a", "none", "intl", "char", "zh"]).default("13a"),
  lowercase: z.boolean().default(false),
  smooth_method: z.enum(["exp", "none", "floor", "add-k"]).default("exp"),
  smooth_value: z.number().nonnegative().optional(),
  max_ngram_order: z.number().int().min(1).max(32).default(4),
  /** Corpus-level effective order (sacrebleu default false). Per-sample scores always use it. */
  effective_order: z.boolean().default(false),
});
export type BleuOptions = z.input<typeof bleuOptionsSchema>;

/** sacrebleu's CLI JSON fields plus the statistics. */
export interface BleuSummary extends BleuScore {
  name: "BLEU";
  ratio: number;
  signature: string;
  verbose_score: string;
}

export function bleuSummary(score: BleuScore, signature: string): BleuSummary {
  const ratio = score.ref_len ? score.sys_len / score.ref_len : 0;
  const prec = score.precisions.map((p) => formatFixed(p, 1)).join("/");
  const verbose = `${prec} (BP = ${formatFixed(score.bp, 3)} ratio = ${formatFixed(ratio, 3)} hyp_len = ${score.sys_len} ref_len = ${score.ref_len})`;
  return { name: "BLEU", ...score, ratio, signature, verbose_score: verbose };
}

function bleuSegments(inputs: readonly MetricInput[], o: z.output<typeof bleuOptionsSchema>) {
  const scorer = createBleuScorer({
    tokenize: o.tokenize,
    lowercase: o.lowercase,
    smoothMethod: o.smooth_method,
    smoothValue: o.smooth_value,
    maxNgramOrder: o.max_ngram_order,
    effectiveOrder: o.effective_order,
  });
  const segments: number[][] = [];
  const refCounts = new Set<number>();
  for (const input of inputs) {
    const hyp = predictionText(ID, input);
    const refs = referenceTexts(ID, input);
    refCounts.add(refs.filter((r) => r !== null).length);
    try {
      segments.push(scorer.segmentStats(hyp, refs));
    } catch (e) {
      throw new MetricError(e instanceof Error ? e.message : String(e), { metricId: ID, sampleId: input.sampleId, cause: e });
    }
  }
  return { scorer, segments, refCounts };
}

/** Per-segment BLEU statistics and the corpus score of any sum of them: what `yardstick score --confidence` resamples. */
export function bleuSegmentStatistics(inputs: readonly MetricInput[], options: Record<string, unknown>): SegmentStatistics {
  const o = parseTextOptions(ID, bleuOptionsSchema, options);
  const { scorer, segments } = bleuSegments(inputs, o);
  return { segments, corpusScore: (sum) => scorer.scoreFromStats(sum).score };
}

export function createBleuMetric(): MetricV1 {
  return {
    specVersion: "v1",
    id: ID,
    checkOptions: schemaOptionsCheck(ID, bleuOptionsSchema),
    description: "sacrebleu-compatible corpus BLEU (13a/none/intl/char/zh tokenizers); per sample: sentence BLEU",
    textPairs: true,
    compute(inputs: readonly MetricInput[], options: Record<string, unknown>): MetricResult {
      const o = parseTextOptions(ID, bleuOptionsSchema, options);
      const { scorer, segments, refCounts } = bleuSegments(inputs, o);
      const sum = sumColumns(segments, 2 + 2 * o.max_ngram_order);
      const perSample = segments.map((stats, i) => ({
        sampleId: inputs[i]!.sampleId,
        scores: { bleu: scorer.scoreFromStats(stats, { effectiveOrder: true }).score },
      }));
      const corpus = scorer.scoreFromStats(sum);
      const nrefs = refCounts.size === 1 ? String([...refCounts][0]) : refCounts.size === 0 ? "0" : "var";
      const smooth =
        o.smooth_method === "floor" || o.smooth_method === "add-k"
          ? `${o.smooth_method}[${formatFixed(o.smooth_value ?? (o.smooth_method === "floor" ? 0.1 : 1), 2)}]`
          : o.smooth_method;
      const signature = `nrefs:${nrefs}|case:${o.lowercase ? "lc" : "mixed"}|eff:${o.effective_order ? "yes" : "no"}|tok:${o.tokenize}|smooth:${smooth}|version:yardstick-sacrebleu2`;
      const summary = bleuSummary(corpus, signature);
      const scores: Record<string, number> = {
        bleu: corpus.score,
        bp: corpus.bp,
        ratio: summary.ratio,
        sys_len: corpus.sys_len,
        ref_len: corpus.ref_len,
      };
      corpus.precisions.forEach((p, i) => {
        scores[`precision_${i + 1}`] = p;
      });
      return { scores, perSample, details: { summary } };
    },
  };
}
