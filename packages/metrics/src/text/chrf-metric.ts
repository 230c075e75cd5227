/** The `chrf` and `chrf++` metrics: sacrebleu corpus chrF as the task score, sentence chrF per sample. */
import { ConfigError, type MetricInput, type MetricResult, type MetricV1, MetricError } from "@yardstick/core";
import { z } from "zod";
import { createChrfScorer } from "./chrf.js";
import { parseTextOptions, predictionText, referenceTexts } from "./metric-inputs.js";
import { parseOptionsOrConfigError } from "../options-check.js";
import { type SegmentStatistics, sumColumns } from "./segment-statistics.js";

function chrfOptionsSchema(defaultWordOrder: number) {
  return z.strictObject({
    char_order: z.number().int().min(0).max(32).default(6),
    word_order: z.number().int().min(0).max(8).default(defaultWordOrder),
    beta: z.number().nonnegative().default(2),
    lowercase: z.boolean().default(false),
    whitespace: z.boolean().default(false),
    eps_smoothing: z.boolean().default(false),
  });
}

export interface ChrfSummary {
  name: string;
  score: number;
  signature: string;
  char_order: number;
  word_order: number;
  beta: number;
  /** Summed [hyp, ref, match] n-gram counts per order (character orders first, then word orders). */
  stats: number[];
}

type ChrfOptions = z.output<ReturnType<typeof chrfOptionsSchema>>;

function chrfSegments(id: string, inputs: readonly MetricInput[], o: ChrfOptions) {
  if (o.char_order + o.word_order === 0) {
    throw new MetricError("invalid options: char_order and word_order cannot both be 0", { metricId: id });
  }
  const scorer = createChrfScorer({
    charOrder: o.char_order,
    wordOrder: o.word_order,
    beta: o.beta,
    lowercase: o.lowercase,
    whitespace: o.whitespace,
    epsSmoothing: o.eps_smoothing,
  });
  const segments: number[][] = [];
  const refCounts = new Set<number>();
  for (const input of inputs) {
    const hyp = predictionText(id, input);
    const refs = referenceTexts(id, input);
    refCounts.add(refs.filter((r) => r !== null).length);
    try {
      segments.push(scorer.segmentStats(hyp, refs));
    } catch (e) {
      throw new MetricError(e instanceof Error ? e.message : String(e), { metricId: id, sampleId: input.sampleId, cause: e });
    }
  }
  return { scorer, segments, refCounts };
}

/** Per-segment chrF (or chrF++, by `id`) statistics and the corpus score of any sum of them. */
export function chrfSegmentStatistics(id: "chrf" | "chrf++", inputs: readonly MetricInput[], options: Record<string, unknown>): SegmentStatistics {
  const o = parseTextOptions(id, chrfOptionsSchema(id === "chrf" ? 0 : 2), options);
  const { scorer, segments } = chrfSegments(id, inputs, o);
  return { segments, corpusScore: (sum) => scorer.fScore(sum) };
}

function createChrfVariant(id: "chrf" | "chrf++", defaultWordOrder: number, description: string): MetricV1 {
  const schema = chrfOptionsSchema(defaultWordOrder);
  return {
    specVersion: "v1",
    id,
    description,
    textPairs: true,
    checkOptions(options) {
      const o = parseOptionsOrConfigError(id, schema, options);
      if (o.char_order + o.word_order === 0) throw new ConfigError(`metric ${id}: char_order and word_order cannot both be 0`, { keyPath: ["word_order"] });
    },
    compute(inputs: readonly MetricInput[], options: Record<string, unknown>): MetricResult {
      const o = parseTextOptions(id, schema, options);
      const { scorer, segments, refCounts } = chrfSegments(id, inputs, o);
      const sum = sumColumns(segments, 3 * (o.char_order + o.word_order));
      const perSample = segments.map((stats, i) => ({ sampleId: inputs[i]!.sampleId, scores: { [id]: scorer.fScore(stats) } }));
      const score = scorer.fScore(sum);
      const nrefs = refCounts.size === 1 ? String([...refCounts][0]) : refCounts.size === 0 ? "0" : "var";
      const name = `chrF${o.beta}${"+".repeat(o.word_order)}`;
      const signature = `nrefs:${nrefs}|case:${o.lowercase ? "lc" : "mixed"}|eff:${o.eps_smoothing ? "no" : "yes"}|nc:${o.char_order}|nw:${o.word_order}|space:${o.whitespace ? "yes" : "no"}|version:yardstick-sacrebleu2`;
      const summary: ChrfSummary = { name, score, signature, char_order: o.char_order, word_order: o.word_order, beta: o.beta, stats: sum };
      return { scores: { [id]: score }, perSample, details: { summary } };
    },
  };
}

export function createChrfMetric(): MetricV1 {
  return createChrfVariant("chrf", 0, "sacrebleu-compatible corpus chrF (char order 6, beta 2); per sample: sentence chrF");
}

export function createChrfPlusPlusMetric(): MetricV1 {
  return createChrfVariant("chrf++", 2, "sacrebleu-compatible corpus chrF++ (char order 6, word order 2, beta 2); per sample: sentence chrF++");
}
