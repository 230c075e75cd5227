import { SpatialGenerationError } from "../errors.js";
import { adjectives, attributeQueries, matches } from "./attributes.js";
import type { QA, SpatialTask } from "./types.js";

const QUESTIONS = attributeQueries().map((q) => `How many ${adjectives(q)}${q.kind ? `${q.kind.toLowerCase()}s` : "shapes"} are there?`);

export const countTask: SpatialTask = {
  name: "count",
  selectExpected(index, total, mode) {
    if (mode === "compat") return index < Math.floor(total / 4) ? 0 : "non-zero";
    return index % 4 === 0 ? 0 : "non-zero";
  },
  generate(ctx, expected) {
    const qa: QA[] = attributeQueries().map((q, k) => {
      let n = 0;
      for (const s of ctx.shapes) if (matches(s, q)) n++;
      return [QUESTIONS[k]!, n];
    });
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
