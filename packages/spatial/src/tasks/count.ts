import { SpatialGenerationError } from "../errors.js";
import { adjectives, attributeQueries, comboBit, pickQueries, popcount, QUERY_MASKS } from "./attributes.js";
import type { QA, SpatialTask } from "./types.js";

export const COUNT_QUESTIONS = attributeQueries().map((q) => `How many ${adjectives(q)}${q.kind ? `${q.kind.toLowerCase()}s` : "shapes"} are there?`);

const QUESTIONS = COUNT_QUESTIONS;

export const countTask: SpatialTask = {
  name: "count",
  selectExpected(index, total, mode) {
    if (mode === "compat") return index < Math.floor(total / 4) ? 0 : "non-zero";
    return index % 4 === 0 ? 0 : "non-zero";
  },
  generate(ctx, expected) {
    // Combinations are unique on a canvas, so a count is the number of matching combination bits.
    let canvas = 0;
    for (const s of ctx.shapes) canvas |= comboBit(s);
    const answer = (k: number): number => popcount(canvas & QUERY_MASKS[k]!);
    // Questions are distinct, so "every question but the first" is every other query.
    const picked = pickQueries(ctx.rng, expected === undefined ? undefined : expected === 0 ? (k) => answer(k) === 0 : (k) => answer(k) !== 0);
    if (picked === undefined) {
      throw new SpatialGenerationError(`${ctx.canvasName}: count: no question has a ${expected === 0 ? "zero" : "non-zero"} answer`);
    }
    // A literal, not picked.map: a packed array whether or not this is optimized (see shapeLabels).
    const qa = (k: number): QA => [QUESTIONS[k]!, answer(k)];
    return { questions: [qa(picked[0]), qa(picked[1]), qa(picked[2])] };
  },
};
