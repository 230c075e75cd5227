import { SpatialGenerationError } from "../errors.js";
import { adjectives, attributeQueries, comboBit, QUERY_MASKS } from "./attributes.js";
import { type QA, type SpatialTask, yesNoBalance } from "./types.js";

export function existenceQuestion(q: ReturnType<typeof attributeQueries>[number]): string {
  if (q.kind === undefined && q.size === undefined) return `Is there a shape that is ${q.color!.toLowerCase()}?`;
  if (q.kind === undefined) return `Is there a ${adjectives(q)}shape?`;
  return `Is there a ${adjectives(q)}${q.kind.toLowerCase()}?`;
}

const QUESTIONS = attributeQueries().map(existenceQuestion);

export const existenceTask: SpatialTask = {
  name: "existence",
  selectExpected: yesNoBalance,
  generate(ctx, expected) {
    let canvas = 0;
    for (const s of ctx.shapes) canvas |= comboBit(s);
    const qa: QA[] = QUERY_MASKS.map((mask, k) => [QUESTIONS[k]!, (canvas & mask) !== 0 ? "Yes" : "No"]);
    if (expected === undefined) return { questions: ctx.rng.sample(qa, 3) };
    const pool = qa.filter(([, a]) => a === expected);
    if (pool.length === 0) {
      throw new SpatialGenerationError(`${ctx.canvasName}: existence: no question has the answer "${expected}"`);
    }
    const first = ctx.rng.choice(pool);
    const rest = ctx.rng.sample(
      qa.filter(([q]) => q !== first[0]),
      2,
    );
    return { questions: [first, ...rest] };
  },
};
