import type { Mode } from "../constants.js";
import { sharedDirectionCodes, type Relations } from "../relations.js";
import { type Shape, shapeLabel } from "../shape.js";
import type { QA, SpatialTask } from "./types.js";

/** `"Above Left"`; upstream writes `"Above "` (trailing space) when there is no x relation. */
export function coordinateAnswer(rel: Relations, j: number, mode: Mode): string {
  const y = rel.Above.includes(j) ? "Above " : rel.Below.includes(j) ? "Below " : "";
  const x = rel.Left.includes(j) ? "Left" : rel.Right.includes(j) ? "Right" : "";
  return mode === "compat" ? y + x : (y + x).trim();
}

/** Every pair i<j in canvas order; the later shape is the subject. */
export function coordinatePairs(shapes: readonly Shape[], rels: readonly Relations[], mode: Mode): QA[] {
  const qa: QA[] = [];
  const answers = ANSWERS[mode];
  for (let i = 0; i < shapes.length; i++) {
    const codes = sharedDirectionCodes(rels[i]!, shapes.length);
    for (let j = i + 1; j < shapes.length; j++) {
      qa.push([`Where is the ${shapeLabel(shapes[j]!)} relative to the ${shapeLabel(shapes[i]!)}?`, answers[codes.y[j]!]![codes.x[j]!]!]);
    }
  }
  return qa;
}

/** coordinateAnswer per mode, (y code, x code) of directionCodes. */
const ANSWERS: Record<Mode, readonly (readonly string[])[]> = {
  fixed: answerTable("fixed"),
  compat: answerTable("compat"),
};

function answerTable(mode: Mode): string[][] {
  const ys = ["", "Above ", "Below "];
  const xs = ["", "Left", "Right"];
  return ys.map((y) => xs.map((x) => (mode === "compat" ? y + x : (y + x).trim())));
}

export const coordinateTask: SpatialTask = {
  name: "coordinate",
  selectExpected: () => undefined,
  generate(ctx) {
    let qa = coordinatePairs(ctx.shapes, ctx.rels, ctx.mode);
    // An empty answer needs nested boxes without overlap; never seen, but never ask it in fixed mode.
    if (ctx.mode === "fixed") qa = qa.filter(([, a]) => a !== "");
    if (qa.length === 0) return undefined;
    return { questions: ctx.rng.sample(qa, Math.min(3, qa.length)) };
  },
};
