import { cohensKappa } from "./cohens-kappa.js";
import { krippendorffAlpha } from "./krippendorff-alpha.js";
import { isLabel, type Label } from "./labels.js";
import { statsError } from "./validate.js";

const FN = "agreementReport";

/** One rating of an item: a category label, a numeric score, or both (a rubric choice has both). */
export interface Rating {
  label?: Label;
  score?: number;
}

/** One item rated by the reference rater (e.g. an LLM judge) and by one or more other raters (e.g. humans). */
export interface AgreementItem {
  /** Identifies the item in the disagreement list, e.g. "task/sample". */
  id: string;
  judge: Rating;
  humans: readonly { rater: string; rating: Rating }[];
}

export interface AgreementPair {
  id: string;
  rater: string;
  judge: Rating;
  human: Rating;
  /** |judge score − human score| when both have scores, else 1 for different labels and 0 for equal ones. */
  distance: number;
}

export interface AgreementReport {
  /** Items with a judge rating and at least one human rating. */
  items: number;
  /** (judge, human) pairs: one per human rating, so an item labelled by three people gives three. */
  pairs: number;
  /** Distinct human raters. */
  raters: number;
  /** What the nominal statistics compared (labels, scores, or each rating's label else score). */
  basis: NominalBasis;
  /** Share of pairs whose nominal values are equal, 0..1. */
  percentAgreement: number;
  /** Nominal Cohen's kappa over the pairs (NaN when undefined: one category throughout). */
  cohensKappa: number;
  /** Quadratic-weighted Cohen's kappa over the score ranks, when every rating has a score. */
  weightedKappa?: number;
  /** Krippendorff's alpha with the judge and each human rater as coders (missing = not rated). */
  alpha: { nominal: number; interval?: number };
  /** Judge values (rows) × human values (columns), counted over pairs, in `categories` order. */
  confusion: { categories: Label[]; counts: number[][] };
  /** The pairs that disagree, largest distance first (at most `top`). */
  disagreements: AgreementPair[];
}

export interface AgreementOptions {
  /** How many disagreeing pairs to list (default 10). */
  top?: number;
}

/**
 * What nominal agreement compares: labels when every rating has one, else scores when every rating
 * has one (a judge's rubric choice against a human's numeric answer), else each rating's label or,
 * without one, its score.
 */
export type NominalBasis = "label" | "score" | "label-or-score";

export function nominalValue(r: Rating, basis: NominalBasis = "label-or-score"): Label | undefined {
  if (basis === "label") return r.label;
  if (basis === "score") return r.score;
  return r.label ?? r.score;
}

function nominalBasis(ratings: readonly Rating[]): NominalBasis {
  if (ratings.every((r) => r.label !== undefined)) return "label";
  if (ratings.every((r) => r.score !== undefined)) return "score";
  return "label-or-score";
}

function checkRating(r: Rating, where: string): void {
  if (r === null || typeof r !== "object") throw statsError(FN, `${where} is not a rating object`);
  if (r.label !== undefined && !isLabel(r.label)) throw statsError(FN, `${where}.label is ${String(r.label)} (expected a string or finite number)`);
  if (r.score !== undefined && (typeof r.score !== "number" || !Number.isFinite(r.score))) {
    throw statsError(FN, `${where}.score is ${String(r.score)} (expected a finite number)`);
  }
  if (nominalValue(r) === undefined) throw statsError(FN, `${where} has neither a label nor a score`);
}

/**
 * Categories in display order: by the lowest score seen with each value when values carry scores
 * (so a rubric's "bad, ok, good" reads in scale order), then numbers before strings, then by value.
 */
function categoryOrder(ratings: readonly Rating[], basis: NominalBasis): Label[] {
  const lowest = new Map<Label, number>();
  for (const r of ratings) {
    const v = nominalValue(r, basis)!;
    const s = r.score ?? Number.POSITIVE_INFINITY;
    if (!lowest.has(v) || s < lowest.get(v)!) lowest.set(v, s);
  }
  return [...lowest.keys()].sort((a, b) => {
    const d = lowest.get(a)! - lowest.get(b)!;
    if (d !== 0 && !Number.isNaN(d)) return d;
    if (typeof a === "number" && typeof b === "number") return a - b;
    if (typeof a !== typeof b) return typeof a === "number" ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

/**
 * Judge–human agreement on shared items. Several human ratings of one item are each paired with the
 * judge's rating (Cohen's kappa, percent agreement and the confusion table count pairs), while
 * Krippendorff's alpha takes the judge and every human rater as coders of the same units, so it uses
 * all ratings at once and tolerates raters who skipped items. Scores give the interval alpha and the
 * quadratic-weighted kappa; they are computed only when every rating has one.
 */
export function agreementReport(items: readonly AgreementItem[], options: AgreementOptions = {}): AgreementReport {
  const top = options.top ?? 10;
  if (!Number.isInteger(top) || top < 0) throw statsError(FN, `options.top is ${String(top)} (expected a non-negative integer)`);
  if (!Array.isArray(items as unknown)) throw statsError(FN, "items must be an array");
  const pairs: AgreementPair[] = [];
  const raters: string[] = [];
  const raterIndex = new Map<string, number>();
  const used: AgreementItem[] = [];
  items.forEach((item, i) => {
    checkRating(item.judge, `items[${i}].judge`);
    if (item.humans.length === 0) return;
    used.push(item);
    item.humans.forEach((h, j) => {
      checkRating(h.rating, `items[${i}].humans[${j}].rating`);
      if (!raterIndex.has(h.rater)) {
        raterIndex.set(h.rater, raters.length);
        raters.push(h.rater);
      }
      pairs.push({ id: item.id, rater: h.rater, judge: item.judge, human: h.rating, distance: 0 });
    });
  });
  if (pairs.length === 0) throw statsError(FN, "no item has both a judge rating and a human rating");
  const basis = nominalBasis(pairs.flatMap((p) => [p.judge, p.human]));
  const value = (r: Rating) => nominalValue(r, basis)!;
  for (const p of pairs) {
    const bothScored = p.judge.score !== undefined && p.human.score !== undefined;
    p.distance = bothScored ? Math.abs(p.judge.score! - p.human.score!) : value(p.judge) === value(p.human) ? 0 : 1;
  }

  const judgeValues = pairs.map((p) => value(p.judge));
  const humanValues = pairs.map((p) => value(p.human));
  const agreeing = judgeValues.filter((v, i) => v === humanValues[i]).length;
  const allScored = pairs.every((p) => p.judge.score !== undefined && p.human.score !== undefined);

  // Reliability data: row 0 the judge, then one row per human rater; a rater's repeated rating of an item keeps the last.
  const nominalRows: (Label | null)[][] = [used.map((it) => value(it.judge))];
  const scoreRows: (number | null)[][] = [used.map((it) => it.judge.score ?? null)];
  for (let r = 0; r < raters.length; r++) {
    nominalRows.push(used.map(() => null));
    scoreRows.push(used.map(() => null));
  }
  used.forEach((it, u) => {
    for (const h of it.humans) {
      const row = raterIndex.get(h.rater)! + 1;
      nominalRows[row]![u] = value(h.rating);
      scoreRows[row]![u] = h.rating.score ?? null;
    }
  });

  const categories = categoryOrder(pairs.flatMap((p) => [p.judge, p.human]), basis);
  const position = new Map(categories.map((c, i) => [c, i]));
  const counts = categories.map(() => categories.map(() => 0));
  for (let i = 0; i < pairs.length; i++) counts[position.get(judgeValues[i]!)!]![position.get(humanValues[i]!)!]! += 1;

  const disagreements = pairs
    .filter((p) => p.distance > 0)
    .sort((a, b) => b.distance - a.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || (a.rater < b.rater ? -1 : 1))
    .slice(0, top);

  const report: AgreementReport = {
    items: used.length,
    pairs: pairs.length,
    raters: raters.length,
    basis,
    percentAgreement: agreeing / pairs.length,
    cohensKappa: cohensKappa(judgeValues, humanValues),
    alpha: { nominal: krippendorffAlpha(nominalRows, { level: "nominal" }) },
    confusion: { categories, counts },
    disagreements,
  };
  if (allScored) {
    report.weightedKappa = cohensKappa(
      pairs.map((p) => p.judge.score!),
      pairs.map((p) => p.human.score!),
      { weights: "quadratic" },
    );
    report.alpha.interval = krippendorffAlpha(scoreRows, { level: "interval" });
  }
  return report;
}
