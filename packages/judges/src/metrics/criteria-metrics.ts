/**
 * The criteria metrics: per-criterion judgements (one call per criterion) become a per-row score, and
 * `average_criteria_score` = 100 × the mean of the row scores, with per-category means (×100).
 *
 * - `seahelm-criteria-judge` (CriteriaJudgeMetric): the mean of the criteria's class scores.
 * - `seahelm-mt-bench-judge` (MTBenchJudgeMetric): the mean per turn, then the mean of the turns.
 * - `seahelm-lindsea-judge` (LindseaJudgeMetric): severity-weighted means (high 10, medium 5, low 1) of
 *   the specific criteria (`criteria_score`) and of the `generic` ones (`generic_score`); the row
 *   score is their product.
 * - `seahelm-healthbench-judge` (HealthbenchJudgeMetric): Σ(met · points) / Σ(positive points), the
 *   numerator floored at 0.
 *
 * A criterion whose judgement is an error (or missing) scores 0, as upstream scores an unknown class,
 * and is counted in `judge_errors` and listed in `details.errors`.
 *
 * Criteria are matched to judgements by index. Upstream sorts the judgements by the string
 * `criteriaN` (so `criteria10` comes before `criteria2`) and pairs them with the criteria in row
 * order, which gives rows with more than 10 criteria the wrong weights; `compat.criteriaStringSort`
 * reproduces that.
 */
import type { Judgement, MetricInput, MetricResult, MetricV1, SampleScore } from "@yardstick/core";
import { z } from "zod";
import { categoryMeans, categoryOf, type JudgeErrorDetail, judgeCalls, mean, NO_JUDGEMENT, parseMetricOptions } from "./common.js";

const optionsSchema = z.object({
  /** The metadata field the per-category means group by. */
  category_field: z.string().min(1).optional(),
  compat: z
    .object({
      /** Pair judgements with criteria the way upstream does (string-sorted ids): wrong weights past 10 criteria. */
      criteriaStringSort: z.boolean().optional(),
    })
    .optional(),
});

type CriteriaMetricOptions = z.output<typeof optionsSchema>;

/** One criterion of a row: its weight information and what the judge made of it. */
export interface CriterionResult {
  index: number;
  turn?: number;
  severity?: string;
  points?: number;
  /** The judgement's score; undefined for an error. */
  score?: number;
  error?: string;
}

const CALL = /^(?:turn(\d+)-)?criterion-(\d+)$/;

/** The row's criteria (from the row when present, else from the judgements) with their judgements, by index. */
export function criterionResults(input: MetricInput, compatStringSort: boolean): { results: CriterionResult[]; otherError?: string } {
  const calls = judgeCalls(input);
  const judged = new Map<number, { judgement: Judgement; turn?: number }>();
  let otherError: string | undefined;
  for (const [call, judgement] of calls) {
    const m = CALL.exec(call);
    if (m) judged.set(Number(m[2]), { judgement, ...(m[1] !== undefined ? { turn: Number(m[1]) } : {}) });
    else if (judgement.error !== undefined) otherError ??= judgement.error;
  }
  const rowCriteria = input.sample?.raw?.criteria ?? input.sample?.raw?.rubrics;
  const count = Array.isArray(rowCriteria) ? rowCriteria.length : judged.size === 0 ? 0 : Math.max(...judged.keys()) + 1;
  const shape = (i: number): Omit<CriterionResult, "score" | "error"> => {
    const c = Array.isArray(rowCriteria) ? (rowCriteria[i] as Record<string, unknown> | undefined) : undefined;
    const data = judged.get(i)?.judgement.data ?? {};
    const severity = typeof c?.severity === "string" ? c.severity : typeof data.severity === "string" ? data.severity : undefined;
    const points = typeof c?.points === "number" ? c.points : typeof data.points === "number" ? data.points : undefined;
    const turn = judged.get(i)?.turn ?? (typeof c?.turn === "number" ? c.turn + 1 : undefined);
    return { index: i, ...(turn !== undefined ? { turn } : {}), ...(severity !== undefined ? { severity } : {}), ...(points !== undefined ? { points } : {}) };
  };
  const indices = Array.from({ length: count }, (_, i) => i);
  // Upstream's pairing: the k-th criterion (row order) gets the k-th judgement in string order of "criteria<i>".
  const source = compatStringSort ? [...indices].sort((a, b) => (`criteria${a}` < `criteria${b}` ? -1 : 1)) : indices;
  const results = indices.map((i, k): CriterionResult => {
    const j = judged.get(source[k]!)?.judgement;
    const base = shape(i);
    if (!j) return { ...base, error: otherError ?? NO_JUDGEMENT };
    if (j.error !== undefined || typeof j.score !== "number") return { ...base, error: j.error ?? "the judgement has no score" };
    return { ...base, score: j.score };
  });
  return otherError === undefined ? { results } : { results, otherError };
}

/** A row's scores: the per-sample values, the main one under `average_criteria_score` (0–1); `problem` makes the row an error. */
type RowScorer = (results: CriterionResult[]) => { scores: Record<string, number>; problem?: string };

const meanScorer: RowScorer = (results) => ({ scores: { average_criteria_score: mean(results.map((r) => r.score ?? 0)) } });

const mtBenchScorer: RowScorer = (results) => {
  const byTurn = new Map<number, number[]>();
  for (const r of results) {
    const t = r.turn ?? 1;
    byTurn.set(t, [...(byTurn.get(t) ?? []), r.score ?? 0]);
  }
  const turns = [...byTurn.keys()].sort((a, b) => a - b);
  const scores: Record<string, number> = { average_criteria_score: mean(turns.map((t) => mean(byTurn.get(t)!))) };
  for (const t of turns) scores[`turn${t}_score`] = mean(byTurn.get(t)!);
  return { scores };
};

const SEVERITY_WEIGHTS: Record<string, number> = { high: 10, medium: 5, low: 1 };

const lindseaScorer: RowScorer = (results) => {
  let generic = 0;
  let genericWeight = 0;
  let specific = 0;
  let specificWeight = 0;
  for (const r of results) {
    const severity = (r.severity ?? "").toLowerCase();
    if (severity === "generic") {
      generic += r.score ?? 0;
      genericWeight += 1;
    } else {
      const w = SEVERITY_WEIGHTS[severity] ?? 1;
      specific += (r.score ?? 0) * w;
      specificWeight += w;
    }
  }
  const generic_score = genericWeight > 0 ? generic / genericWeight : 0;
  const criteria_score = specificWeight > 0 ? specific / specificWeight : 0;
  return { scores: { average_criteria_score: criteria_score * generic_score, criteria_score, generic_score } };
};

const healthbenchScorer: RowScorer = (results) => {
  let earned = 0;
  let possible = 0;
  for (const r of results) {
    if (r.points === undefined) return { scores: { average_criteria_score: 0 }, problem: `criteria[${r.index}] has no points` };
    earned += (r.score ?? 0) * r.points;
    if (r.points > 0) possible += r.points;
  }
  if (possible === 0) return { scores: { average_criteria_score: 0 }, problem: "the row has no criterion with positive points" };
  return { scores: { average_criteria_score: Math.max(0, earned) / possible } };
};

interface CriteriaMetricSpec {
  id: string;
  description: string;
  scorer: RowScorer;
  /** Default category field (`metadata.<field>`). */
  categoryField: string;
}

function criteriaMetric(spec: CriteriaMetricSpec): MetricV1 {
  const parse = (options: Record<string, unknown>): CriteriaMetricOptions => parseMetricOptions(spec.id, optionsSchema, options);
  return {
    specVersion: "v1",
    id: spec.id,
    description: spec.description,
    compute(inputs, options): MetricResult {
      const o = parse(options);
      const compat = o.compat?.criteriaStringSort === true;
      const field = o.category_field ?? spec.categoryField;
      const perSample: SampleScore[] = [];
      const errors: JudgeErrorDetail[] = [];
      const rows: { category: string; value: number }[] = [];
      let criterionErrors = 0;
      let samplesWithErrors = 0;
      for (const input of inputs) {
        const { results, otherError } = criterionResults(input, compat);
        const { scores, problem } =
          results.length === 0 ? { scores: { average_criteria_score: 0 }, problem: otherError ?? "the row has no criteria and no judgements" } : spec.scorer(results);
        let sampleErrors = 0;
        for (const r of results) {
          if (r.error === undefined) continue;
          sampleErrors++;
          errors.push({ sampleId: input.sampleId, call: r.turn !== undefined ? `turn${r.turn}-criterion-${r.index}` : `criterion-${r.index}`, error: r.error });
        }
        if (problem !== undefined) {
          sampleErrors++;
          errors.push({ sampleId: input.sampleId, call: "(row)", error: problem });
        }
        criterionErrors += sampleErrors;
        if (sampleErrors > 0) samplesWithErrors++;
        perSample.push({ sampleId: input.sampleId, scores: { ...scores, judge_errors: sampleErrors } });
        rows.push({ category: categoryOf(input, field), value: scores.average_criteria_score ?? 0 });
      }
      const overall = 100 * mean(rows.map((r) => r.value));
      return {
        scores: { average_criteria_score: overall, judge_errors: criterionErrors, samples_with_errors: samplesWithErrors },
        perSample,
        details: { categories: categoryMeans(rows, 100), errors, ...(compat ? { compat: { criteriaStringSort: true } } : {}) },
      };
    },
    checkOptions(options) {
      parse(options);
    },
  };
}

export const criteriaJudgeMetric = criteriaMetric({
  id: "seahelm-criteria-judge",
  description: "SEA-HELM criteria judge: mean class score per row, ×100 over rows, per-category means",
  scorer: meanScorer,
  categoryField: "category",
});

export const mtBenchJudgeMetric = criteriaMetric({
  id: "seahelm-mt-bench-judge",
  description: "SEA-HELM MT-Bench judge: mean class score per turn, mean of the turns per row, ×100 over rows",
  scorer: mtBenchScorer,
  categoryField: "category",
});

export const lindseaJudgeMetric = criteriaMetric({
  id: "seahelm-lindsea-judge",
  description: "SEA-HELM LINDSEA syntax judge: severity-weighted criteria score × generic score per row, ×100 over rows",
  scorer: lindseaScorer,
  categoryField: "category",
});

export const healthbenchJudgeMetric = criteriaMetric({
  id: "seahelm-healthbench-judge",
  description: "SEA-HELM HealthBench judge: met rubric points over positive points per row (floored at 0), ×100 over rows",
  scorer: healthbenchScorer,
  categoryField: "example_tags",
});
