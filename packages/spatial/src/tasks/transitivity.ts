import type { Relations } from "../relations.js";
import { bbox, type Shape, shapeLabel } from "../shape.js";
import { ending, headerSentence } from "../descriptions.js";
import { CanvasRejected, type QA, type SpatialTask, type TaskContext, type TaskOutput } from "./types.js";

type Axis = "horizontal" | "vertical";

function question(shapes: readonly Shape[], s1: number, s2: number): string {
  return `Where is the ${shapeLabel(shapes[s2]!)} relative to the ${shapeLabel(shapes[s1]!)}?`;
}

/** One chain sentence with the space that separates it from the one before. */
function chainSentence(axis: Axis, direction: string, prev: string, next: string): string {
  return axis === "horizontal"
    ? ` To the ${direction.toLowerCase()} of the ${prev} is a ${next}.`
    : ` ${direction} the ${prev} is a ${next}.`;
}

/** Upstream: chains from the origin's own lists, defaults to Right/Below, may hang (bounded here). */
function generateCompat(ctx: TaskContext): TaskOutput {
  const { shapes, rels, rng } = ctx;
  const n = shapes.length;
  const possible = (i: number): Axis[] => {
    const r = rels[i]!;
    const out: Axis[] = [];
    if (r.Left.length + r.Right.length > 1) out.push("horizontal");
    if (r.Above.length + r.Below.length > 1) out.push("vertical");
    return out;
  };
  if (!shapes.some((_, i) => possible(i).length > 0)) throw new CanvasRejected("transitivity: no shape has two others on one axis");
  let origin = rng.int(0, n - 1);
  while (possible(origin).length === 0) origin = rng.int(0, n - 1);
  const axis = rng.choice(possible(origin));
  const [dirA, dirB]: [keyof Relations, keyof Relations] = axis === "horizontal" ? ["Left", "Right"] : ["Above", "Below"];
  const centre = axis === "horizontal" ? 0 : 1;

  let description = `${headerSentence(n)} There is a ${shapeLabel(shapes[origin]!)} in the canvas.`;
  for (const direction of rng.shuffle([dirA, dirB])) {
    let prev = shapeLabel(shapes[origin]!);
    for (const k of rels[origin]![direction]) {
      const next = shapeLabel(shapes[k]!);
      description += chainSentence(axis, direction, prev, next);
      prev = next;
    }
  }

  const answer = (s1: number, s2: number): string => (rels[s1]![dirA].includes(s2) ? dirA : dirB);
  const validFirst = (s1: number, s2: number): boolean =>
    rels[s1]![dirA][0] !== s2 && rels[s1]![dirB][0] !== s2 && shapes[s1]!.center[centre] !== shapes[s2]!.center[centre];
  let anyValid = false;
  for (let a = 0; a < n && !anyValid; a++) for (let b = 0; b < n && !anyValid; b++) if (a !== b && validFirst(a, b)) anyValid = true;
  // Upstream would loop forever here, so such a canvas never reaches its data.
  if (!anyValid) throw new CanvasRejected("transitivity: every pair is adjacent or aligned on the chosen axis");
  const indices = Array.from({ length: n }, (_, k) => k);
  let [s1, s2] = rng.sample(indices, 2) as [number, number];
  while (!validFirst(s1, s2)) [s1, s2] = rng.sample(indices, 2) as [number, number];
  const qa: QA[] = [[question(shapes, s1, s2), answer(s1, s2)]];
  const used = new Set([`${s1},${s2}`]);
  for (let round = 0; round < 2; round++) {
    let found = false;
    let attempts = 0;
    let a = 0;
    let b = 0;
    while (!found) {
      [a, b] = rng.sample(indices, 2) as [number, number];
      found =
        !used.has(`${a},${b}`) &&
        !used.has(`${b},${a}`) &&
        (rels[b]![dirA].includes(a) || rels[b]![dirB].includes(a));
      if (attempts > 5 * n * n) break;
      attempts++;
    }
    if (!found) continue;
    qa.push([question(shapes, a, b), answer(a, b)]);
    used.add(`${a},${b}`);
  }
  return { questions: qa, description: ending(description, ctx.mode) };
}

/**
 * Fixed: the description is a chain of every shape in which each neighbour pair is strictly ordered on
 * both edges, so every chain sentence is true, no shape is omitted and every answer is entailed.
 */
export function strictChain(shapes: readonly Shape[], axis: Axis): number[] | undefined {
  let cached = chains.get(shapes);
  if (cached === undefined || cached.n !== shapes.length) chains.set(shapes, (cached = { n: shapes.length }));
  if (!(axis in cached)) cached[axis] = computeStrictChain(shapes, axis);
  const chain = cached[axis];
  return chain === undefined ? undefined : [...chain];
}

/**
 * The chains of a canvas, computed once: accepts() and generate() ask for them up to five times
 * per canvas. Keyed by the shapes array (the same one is passed to both); `n` guards against a
 * caller changing the array in between.
 */
const chains = new WeakMap<readonly Shape[], { n: number; horizontal?: readonly number[] | undefined; vertical?: readonly number[] | undefined }>();

function computeStrictChain(shapes: readonly Shape[], axis: Axis): number[] | undefined {
  const boxes = shapes.map(bbox);
  const lo = (k: number) => (axis === "horizontal" ? boxes[k]!.left : boxes[k]!.bottom);
  const hi = (k: number) => (axis === "horizontal" ? boxes[k]!.right : boxes[k]!.top);
  const order = shapes.map((_, k) => k).sort((a, b) => lo(a) - lo(b) || hi(a) - hi(b));
  for (let k = 1; k < order.length; k++) {
    const a = order[k - 1]!;
    const b = order[k]!;
    if (!(lo(a) < lo(b) && hi(a) < hi(b))) return undefined;
  }
  return order;
}

function generateFixed(ctx: TaskContext): TaskOutput {
  const { shapes, rng } = ctx;
  const n = shapes.length;
  const axes = (["horizontal", "vertical"] as const).filter((a) => strictChain(shapes, a) !== undefined);
  if (axes.length === 0) throw new CanvasRejected("transitivity: the shapes form no strict chain on either axis");
  const axis = rng.choice(axes);
  const chain = strictChain(shapes, axis)!;
  // Position in the chain per shape; unordered pairs below are numbered min * n + max (not strings).
  const pos: number[] = [];
  chain.forEach((k, p) => {
    pos[k] = p;
  });
  const originPos = rng.int(1, n - 2);
  const origin = chain[originPos]!;
  // Ascending chain order means "further left" / "further down" for lower positions.
  const [lowDir, highDir] = axis === "horizontal" ? ["Left", "Right"] : ["Below", "Above"];
  let description = `${headerSentence(n)} There is a ${shapeLabel(shapes[origin]!)} in the canvas.`;
  for (const direction of rng.shuffle([lowDir!, highDir!])) {
    const step = direction === lowDir ? -1 : 1;
    let prev = shapeLabel(shapes[origin]!);
    for (let p = originPos + step; p >= 0 && p < n; p += step) {
      const next = shapeLabel(shapes[chain[p]!]!);
      description += chainSentence(axis, direction, prev, next);
      prev = next;
    }
  }
  const answer = (s1: number, s2: number): string => (pos[s2]! < pos[s1]! ? lowDir! : highDir!);
  const pairKey = (a: number, b: number) => (a < b ? a * n + b : b * n + a);
  const pairs: [number, number][] = [];
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (a !== b) pairs.push([a, b]);
  const [s1, s2] = rng.choice(pairs.filter(([a, b]) => Math.abs(pos[a]! - pos[b]!) >= 2));
  const qa: QA[] = [[question(shapes, s1, s2), answer(s1, s2)]];
  const used = new Set([pairKey(s1, s2)]);
  for (let round = 0; round < 2; round++) {
    const free = pairs.filter(([a, b]) => !used.has(pairKey(a, b)));
    if (free.length === 0) break;
    const [a, b] = rng.choice(free);
    qa.push([question(shapes, a, b), answer(a, b)]);
    used.add(pairKey(a, b));
  }
  return { questions: qa, description: ending(description, ctx.mode) };
}

export const transitivityTask: SpatialTask = {
  name: "transitivity",
  selectExpected: () => undefined,
  accepts(shapes, mode) {
    return mode === "compat" || shapes.length < 3 || strictChain(shapes, "horizontal") !== undefined || strictChain(shapes, "vertical") !== undefined;
  },
  generate(ctx) {
    if (ctx.shapes.length < 3) return undefined;
    return ctx.mode === "compat" ? generateCompat(ctx) : generateFixed(ctx);
  },
};
