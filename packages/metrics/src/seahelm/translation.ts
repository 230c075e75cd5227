import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";
import { MetricError } from "@yardstick/core";
import { z } from "zod";
import { chrfScores, type SeahelmMetricSettings } from "./chrf-plus-plus.js";
import { describe, mean, normalizeScore, predictionText, referenceLabel, requireSamples } from "./common.js";
import { schemaOptionsCheck } from "../options-check.js";
import { parseOptions } from "./options.js";

export const TRANSLATION_ID = "seahelm-translation";

/** MetricX-24 scores run from 0 (best) to 25 (worst). */
export const METRICX_WORST = 25;
export const METRICX_BEST = 0;

export const seahelmTranslationOptionsSchema = z.object({
  useMetricx: z.boolean().default(true),
  useChrf: z.boolean().default(false),
  /** Key in `sample.metadata.judgeScores` where the MetricX judge step stores its score. */
  judgeScoreKey: z.string().min(1).default("metricx"),
  /** Fallback column of the original row holding a precomputed MetricX score. */
  rawScoreField: z.string().min(1).default("metricx_score"),
});

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What a MetricX-24 scorer is given per sample, as SEA-HELM's judge fills its `source: … candidate: … reference: …` input. */
export interface MetricxItem {
  /** The text to translate (the sample's first prompt `text`). */
  source: string;
  /** The model's translation, after the task's postprocessors. */
  candidate: string;
  /** The reference translation. */
  reference: string;
}

/** Scores translations with MetricX-24 somewhere else (a scoring endpoint): one raw score (0 best, 25 worst) per item, in order. */
export interface MetricxScorer {
  /** Where it scores, for messages (e.g. the endpoint URL). */
  readonly name: string;
  score(items: readonly MetricxItem[], signal?: AbortSignal): Promise<number[]>;
}

export interface SeahelmTranslationSettings extends SeahelmMetricSettings {
  /** Scores samples that carry no MetricX score of their own. */
  metricx?: MetricxScorer;
  /** Why there is no scorer, for the "not computed" note (default: "no MetricX scoring endpoint configured"). */
  metricxMissingReason?: string;
}

/**
 * A sample's stored MetricX score: `sample.metadata.judgeScores[judgeScoreKey]` (written by a judge
 * step), else `sample.raw[rawScoreField]` (a score shipped with the data); undefined when it has none.
 */
function storedMetricx(input: MetricInput, judgeScoreKey: string, rawScoreField: string): { value: unknown; where: string } | undefined {
  const judged = input.sample?.metadata?.judgeScores;
  if (isRecord(judged) && judged[judgeScoreKey] !== undefined) return { value: judged[judgeScoreKey], where: `sample.metadata.judgeScores.${judgeScoreKey}` };
  const raw = input.sample?.raw?.[rawScoreField];
  return raw === undefined ? undefined : { value: raw, where: `sample.raw.${rawScoreField}` };
}

/** A sample's stored MetricX score, or a MetricError naming where it was looked for. */
export function metricxScoreOf(input: MetricInput, judgeScoreKey: string, rawScoreField: string): number {
  const stored = storedMetricx(input, judgeScoreKey, rawScoreField);
  const value = stored?.value;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new MetricError(
      `MetricX score missing or not a finite number at ${stored?.where ?? `sample.raw.${rawScoreField}`} (got ${describe(value)}); give a MetricX endpoint (--metricx-url) or set useMetricx: false`,
      { metricId: TRANSLATION_ID, sampleId: input.sampleId },
    );
  }
  return value;
}

/** The source text MetricX reads: SEA-HELM passes the row's first prompt `text` (kept in the run store as `raw.prompts`). */
function sourceText(input: MetricInput): string {
  const stored = input.sample?.raw?.prompts;
  const text = input.sample?.prompts?.[0]?.text ?? (Array.isArray(stored) ? (stored[0] as Record<string, unknown> | undefined)?.text : undefined);
  if (typeof text === "string") return text;
  throw new MetricError(
    `MetricX needs the source text in sample.prompts[0].text (got ${describe(text)}); a run stored before yardstick kept prompt variables for MetricX must be run again`,
    { metricId: TRANSLATION_ID, sampleId: input.sampleId },
  );
}

/**
 * Raw MetricX scores of every input: stored ones as they are, the rest from the scorer. Undefined
 * when no input has a stored score and there is no scorer (MetricX is then not computed).
 */
async function metricxScores(
  inputs: readonly MetricInput[],
  preds: readonly string[],
  opts: { judgeScoreKey: string; rawScoreField: string },
  scorer: MetricxScorer | undefined,
  signal: AbortSignal | undefined,
): Promise<number[] | undefined> {
  const stored = inputs.map((input) => storedMetricx(input, opts.judgeScoreKey, opts.rawScoreField));
  if (!scorer) {
    if (stored.every((s) => s === undefined)) return undefined;
    return inputs.map((input) => metricxScoreOf(input, opts.judgeScoreKey, opts.rawScoreField));
  }
  const missing = inputs.flatMap((_, i) => (stored[i] === undefined ? [i] : []));
  const items = missing.map((i) => ({ source: sourceText(inputs[i]!), candidate: preds[i]!, reference: referenceLabel(TRANSLATION_ID, inputs[i]!) }));
  let scored: number[] = [];
  if (items.length > 0) {
    try {
      scored = await scorer.score(items, signal);
    } catch (err) {
      if (MetricError.isInstance(err)) throw err;
      throw new MetricError(`MetricX scoring at ${scorer.name} failed: ${err instanceof Error ? err.message : String(err)}`, { metricId: TRANSLATION_ID, cause: err });
    }
  }
  const out = inputs.map((input, i) => (stored[i] === undefined ? Number.NaN : metricxScoreOf(input, opts.judgeScoreKey, opts.rawScoreField)));
  missing.forEach((i, k) => {
    const x = scored[k];
    if (typeof x !== "number" || !Number.isFinite(x)) {
      throw new MetricError(`MetricX scoring at ${scorer.name} gave no finite score for this sample (got ${describe(x)})`, { metricId: TRANSLATION_ID, sampleId: inputs[i]!.sampleId });
    }
    out[i] = x;
  });
  return out;
}

/**
 * SEA-HELM's TranslationMetric: MetricX-24 scores (lower is better) mapped to 0–100 by
 * 100 × max((25 − x)/25, 0) and averaged; optional corpus chrF++. MetricX scores come from the
 * samples (a judge step or the data) or from `settings.metricx`; with neither, MetricX is reported as
 * not computed (`details.notComputed`) and chrF++ is computed in its place.
 */
export function createSeahelmTranslationMetric(settings: SeahelmTranslationSettings = {}): MetricV1 {
  return {
    specVersion: "v1",
    id: TRANSLATION_ID,
    // MetricX reads the source text: the run store keeps the prompt variables of its tasks.
    readsPrompts: true,
    checkOptions: schemaOptionsCheck(TRANSLATION_ID, seahelmTranslationOptionsSchema),
    description: "SEA-HELM translation: normalised MetricX-24 scores (stored, or from a MetricX endpoint; else chrF++ and a not-computed note) and optional chrF++",
    async compute(inputs: readonly MetricInput[], options: Record<string, unknown>, ctx?: MetricContext): Promise<MetricResult> {
      requireSamples(TRANSLATION_ID, inputs);
      const opts = parseOptions(TRANSLATION_ID, seahelmTranslationOptionsSchema, options);
      const preds = inputs.map((input) => predictionText(TRANSLATION_ID, input));
      const scores: Record<string, number> = {};
      let perSample = inputs.map((input) => ({ sampleId: input.sampleId, scores: {} as Record<string, number> }));
      let details: Record<string, unknown> | undefined;
      const raw = opts.useMetricx ? await metricxScores(inputs, preds, opts, settings.metricx, ctx?.signal) : undefined;
      if (raw) {
        const normalized = raw.map((x) => 100 * normalizeScore(x, METRICX_WORST, METRICX_BEST));
        scores.metricx_wmt24_scores = mean(raw);
        scores.normalized_metricx_wmt24_scores = mean(normalized);
        perSample = inputs.map((input, i) => ({
          sampleId: input.sampleId,
          scores: { normalized_metricx_wmt24_scores: normalized[i]!, metricx_wmt24_scores: raw[i]! },
        }));
      }
      // Without MetricX, chrF++ is what the task can still report.
      if (opts.useChrf || (opts.useMetricx && !raw)) {
        const refs = inputs.map((input) => referenceLabel(TRANSLATION_ID, input));
        Object.assign(scores, chrfScores(TRANSLATION_ID, settings, preds, refs));
      }
      if (opts.useMetricx && !raw) {
        const why = `MetricX not computed (${settings.metricxMissingReason ?? "no MetricX scoring endpoint configured"}); chrF++ ${scores.chrf_score!.toFixed(2)} is reported in chrf_score`;
        details = { notComputed: { normalized_metricx_wmt24_scores: why, metricx_wmt24_scores: why } };
      }
      scores.null_count = preds.filter((p) => p === "").length;
      return { scores, perSample, ...(details ? { details } : {}) };
    },
  };
}
