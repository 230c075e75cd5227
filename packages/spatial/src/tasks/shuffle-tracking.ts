import { ending, headerSentence } from "../descriptions.js";
import { COMPAT_ORDINALS, ordinal } from "../ordinals.js";
import { shapeLabels } from "../shape.js";
import type { QA, SpatialTask } from "./types.js";

/**
 * Shapes in a line (sorted by centre x or y), n swaps, then "what shape is k-th from the <end>?".
 * Upstream hangs for 2 shapes and raises for 10 or more; compat skips those sizes, fixed supports them.
 */
export const shuffleTrackingTask: SpatialTask = {
  name: "shuffle_tracking",
  selectExpected: () => undefined,
  generate(ctx) {
    const { rng, mode } = ctx;
    const n = ctx.shapes.length;
    if (n < 2) return undefined;
    if (mode === "compat" && (n === 2 || n > COMPAT_ORDINALS.length)) return undefined;
    const horizontal = rng.random() < 0.5;
    const axis = horizontal ? 0 : 1;
    // Labels stand for the shapes from here on (combinations, hence labels, are unique on a canvas).
    const line = shapeLabels([...ctx.shapes].sort((a, b) => a.center[axis] - b.center[axis]));

    let text = headerSentence(n);
    let listed = line;
    if (horizontal) {
      if (rng.random() < 0.5) text += " From left to right, the shapes are ";
      else {
        text += " From right to left, the shapes are ";
        listed = [...line].reverse();
      }
    } else if (rng.random() < 0.5) {
      text += " From top to bottom, the shapes are ";
      listed = [...line].reverse();
    } else text += " From bottom to top, the shapes are ";
    for (let k = 0; k < n; k++) {
      const label = listed[k]!;
      text += k + 1 === n ? `a ${label}.` : k + 2 === n ? `a ${label}, and ` : `a ${label}, `;
    }

    // The last swap's positions (-1: none yet).
    let last0 = -1;
    let last1 = -1;
    for (let step = 0; step < n; step++) {
      let a = rng.int(0, n - 1);
      let b = rng.int(0, n - 1);
      // With two shapes the only pair is always "the last swap"; fixed mode allows repeating it.
      const sameAsLast = (x: number, y: number) => last0 >= 0 && n > 2 && (x === last0 || x === last1) && (y === last0 || y === last1);
      while (a === b || sameAsLast(a, b)) {
        a = rng.int(0, n - 1);
        b = rng.int(0, n - 1);
      }
      last0 = a;
      last1 = b;
      text += ` The ${line[a]} and the ${line[b]} swap positions.`;
      const tmp = line[a]!;
      line[a] = line[b]!;
      line[b] = tmp;
    }

    const qa: QA[] = [];
    const asked: string[] = [];
    for (let q = 0; q < Math.min(3, n); q++) {
      const origin = horizontal ? (rng.random() < 0.5 ? "left" : "right") : rng.random() < 0.5 ? "top" : "bottom";
      const toIndex = (p: number) => (origin === "right" || origin === "top" ? n - p - 1 : p);
      let p = rng.int(0, n - 1);
      while (asked.includes(line[toIndex(p)]!)) p = rng.int(0, n - 1);
      asked.push(line[toIndex(p)]!);
      const nth = mode === "compat" ? COMPAT_ORDINALS[p]! : ordinal(p + 1);
      qa.push([`What shape is ${nth} from the ${origin}?`, line[toIndex(p)]!]);
    }
    return { questions: qa, description: ending(text, mode) };
  },
};
