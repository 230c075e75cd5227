/**
 * `seahelm-pairwise-judge` (PairwiseLLMJudgeMetric): combines the two orders of each turn into one
 * verdict and scores win rates against the baseline.
 *
 * Per turn: an error in either order (or a missing judgement) is an ERROR; otherwise, with ties
 * allowed, a tie in either order or two orders that disagree is a TIE, else the shared verdict stands;
 * without ties, disagreeing orders are an ERROR. `win_rate` = (W + 0.5·T) / N over all turns, errors
 * counted in N as 0; `weighted_win_rate` = 100 × the mean of the per-category win rates.
 */
import type { MetricContext, MetricInput, MetricResult, MetricV1, SampleScore } from "@yardstick/core";
import { z } from "zod";
import type { PairwiseOutcome } from "../pairwise-judge.js";
import { categoryOf, type JudgeErrorDetail, judgeCalls, NO_JUDGEMENT, parseMetricOptions } from "./common.js";

export const PAIRWISE_METRIC_ID = "seahelm-pairwise-judge";

const optionsSchema = z.object({
  /** The row field the per-category win rates group by (upstream `metadata.category`). */
  category_field: z.string().min(1).optional(),
  /** Overrides what the judgements record (the task's `ties_allowed`). */
  ties_allowed: z.boolean().optional(),
});

export type TurnVerdict = PairwiseOutcome | "error";

const TURN_SCORE: Record<TurnVerdict, number> = { win: 1, tie: 0.5, lose: 0, error: 0 };

/** The combined verdict of one turn from its two orders, with the reason when it is an error. */
export function combineOrders(
  ab: { outcome?: PairwiseOutcome; error?: string } | undefined,
  ba: { outcome?: PairwiseOutcome; error?: string } | undefined,
  tiesAllowed: boolean,
): { verdict: TurnVerdict; reason?: string; disagreement?: boolean } {
  if (!ab || !ba) return { verdict: "error", reason: NO_JUDGEMENT };
  if (ab.error !== undefined || ab.outcome === undefined) return { verdict: "error", reason: `model as A: ${ab.error ?? "no verdict"}` };
  if (ba.error !== undefined || ba.outcome === undefined) return { verdict: "error", reason: `model as B: ${ba.error ?? "no verdict"}` };
  const disagreement = ab.outcome !== ba.outcome;
  if (tiesAllowed) {
    if (ab.outcome === "tie" || disagreement) return { verdict: "tie", disagreement };
    return { verdict: ab.outcome };
  }
  if (disagreement) return { verdict: "error", reason: `the two orders disagree (${ab.outcome} / ${ba.outcome}) and ties are not allowed`, disagreement };
  return { verdict: ab.outcome };
}

interface Counts {
  win: number;
  tie: number;
  lose: number;
  error: number;
}

const emptyCounts = (): Counts => ({ win: 0, tie: 0, lose: 0, error: 0 });
const total = (c: Counts): number => c.win + c.tie + c.lose + c.error;
export const winRate = (c: Counts): number => (total(c) === 0 ? 0 : (c.win + 0.5 * c.tie) / total(c));

function outcomeOf(j: { label?: string; error?: string } | undefined): { outcome?: PairwiseOutcome; error?: string } | undefined {
  if (!j) return undefined;
  if (j.error !== undefined) return { error: j.error };
  return j.label === "win" || j.label === "lose" || j.label === "tie" ? { outcome: j.label } : { error: `unexpected label ${JSON.stringify(j.label)}` };
}

function compute(inputs: readonly MetricInput[], options: Record<string, unknown>, ctx?: MetricContext): MetricResult {
  const o = parseMetricOptions(PAIRWISE_METRIC_ID, optionsSchema, options);
  const field = o.category_field ?? "category";
  const all = emptyCounts();
  const byCategory = new Map<string, Counts>();
  const perSample: SampleScore[] = [];
  const errors: JudgeErrorDetail[] = [];
  let disagreements = 0;
  for (const input of inputs) {
    const calls = judgeCalls(input);
    const category = categoryOf(input, field);
    const counts = byCategory.get(category) ?? emptyCounts();
    byCategory.set(category, counts);
    // Turns: every judged turn, and at least the task's turns (the sample's prompts are not kept at
    // scoring time); a turn never judged is an error.
    const turns = new Set<number>();
    for (const call of calls.keys()) {
      const m = /^turn(\d+)-(?:AB|BA)$/.exec(call);
      if (m) turns.add(Number(m[1]));
    }
    const expectedTurns = Math.max(1, ctx?.task?.turns ?? 1, input.sample?.prompts.length ?? 1);
    for (let t = 1; t <= expectedTurns; t++) turns.add(t);
    // A judgement stored under another id (e.g. why no request could be built) explains the missing turns.
    const other = [...calls].find(([call, j]) => !/^turn\d+-(?:AB|BA)$/.test(call) && j.error !== undefined);
    const sampleScores: number[] = [];
    let sampleErrors = 0;
    for (const turn of [...turns].sort((a, b) => a - b)) {
      const ab = calls.get(`turn${turn}-AB`);
      const ba = calls.get(`turn${turn}-BA`);
      const ties = o.ties_allowed ?? !(ab?.data?.tiesAllowed === false || ba?.data?.tiesAllowed === false);
      const combined = combineOrders(outcomeOf(ab), outcomeOf(ba), ties);
      if (combined.disagreement) disagreements++;
      all[combined.verdict]++;
      counts[combined.verdict]++;
      sampleScores.push(TURN_SCORE[combined.verdict]);
      if (combined.verdict === "error") {
        sampleErrors++;
        const reason = combined.reason === NO_JUDGEMENT && other ? other[1].error! : combined.reason!;
        errors.push({ sampleId: input.sampleId, call: `turn${turn}`, error: reason });
      }
    }
    const rate = sampleScores.reduce((a, b) => a + b, 0) / sampleScores.length;
    perSample.push({ sampleId: input.sampleId, scores: { win_rate: rate, weighted_win_rate: 100 * rate, judge_errors: sampleErrors } });
  }
  const categories: Record<string, { win_rate: number; n: number; wins: number; ties: number; losses: number; errors: number }> = {};
  for (const [name, c] of [...byCategory].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    categories[name] = { win_rate: winRate(c), n: total(c), wins: c.win, ties: c.tie, losses: c.lose, errors: c.error };
  }
  const rates = Object.values(categories).map((c) => c.win_rate);
  const weighted = rates.length === 0 ? 0 : (100 * rates.reduce((a, b) => a + b, 0)) / rates.length;
  return {
    scores: {
      weighted_win_rate: weighted,
      win_rate: winRate(all),
      wins: all.win,
      ties: all.tie,
      losses: all.lose,
      judge_errors: all.error,
      order_disagreements: disagreements,
    },
    perSample,
    details: { categories, errors },
  };
}

export const pairwiseJudgeMetric: MetricV1 = {
  specVersion: "v1",
  id: PAIRWISE_METRIC_ID,
  description: "SEA-HELM pairwise judge: win rate and category-weighted win rate against a baseline, both answer orders per turn",
  compute,
  checkOptions(options) {
    parseMetricOptions(PAIRWISE_METRIC_ID, optionsSchema, options);
  },
};
