import { SpatialGenerationError } from "../errors.js";
import { adjectives, attributeQueries, comboBit, pickQueries, QUERY_MASKS } from "./attributes.js";
import { type QA, type SpatialTask, yesNoBalance } from "./types.js";

export function existenceQuestion(q: ReturnType<typeof attributeQueries>[number]): string {
  if (q.kind === undefined && q.size === undefined) return `Is there a shape that is ${q.color!.toLowerCase()}?`;
  if (q.kind === undefined) return `Is there a ${adjectives(q)}shape?`;
  return `Is there a ${adjectives(q)}${q.kind.toLowerCase()}?`;
}

export const EXISTENCE_QUESTIONS = attributeQueries().map(existenceQuestion);
const QUESTIONS = EXISTENCE_QUESTIONS;

export const existenceTask: SpatialTask = {
  name: "existence",
  selectExpected: yesNoBalance,
  generate(ctx, expected) {
    let canvas = 0;
    for (const s of ctx.shapes) canvas |= comboBit(s);
    const answer = (k: number): string => ((canvas & QUERY_MASKS[k]!) !== 0 ? "Yes" : "No");
    // Questions are distinct, so "every question but the first" is every other query.
    const picked = pickQueries(ctx.rng, expected === undefined ? undefined : (k) => answer(k) === expected);
    if (picked === undefined) {
      throw new SpatialGenerationError(`${ctx.canvasName}: existence: no question has the answer "${expected}"`);
    }
    // A literal, not picked.map: a packed array whether or not this is optimized (see shapeLabels).
    const qa = (k: number): QA => [QUESTIONS[k]!, answer(k)];
    return { questions: [qa(picked[0]), qa(picked[1]), qa(picked[2])] };
  },
};
