import { SpatialGenerationError } from "../errors.js";
import { adjectives, attributeQueries, comboBit, popcount, QUERY_MASKS } from "./attributes.js";
import type { QA, SpatialTask } from "./types.js";

const QUESTIONS = attributeQueries().map((q) => `How many ${adjectives(q)}${q.kind ? `${q.kind.toLowerCase()}s` : "shapes"} are there?`);

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
    const qa: QA[] = QUERY_MASKS.map((mask, k) => [QUESTIONS[k]!, popcount(canvas & mask)]);
    if (expected === undefined) return { questions: ctx.rng.sample(qa, 3) };
    const pool = qa.filter(([, a]) => (expected === 0 ? a === 0 : a !== 0));
    if (pool.length === 0) {
      throw new SpatialGenerationError(`${ctx.canvasName}: count: no question has a ${expected === 0 ? "zero" : "non-zero"} answer`);
    }
    const first = ctx.rng.choice(pool);
    const rest = ctx.rng.sample(
      qa.filter(([q]) => q !== first[0]),
      2,
    );
    return { questions: [first, ...rest] };
  },
};
