import type { Relations } from "../relations.js";
import { type BBox, bboxes, type Shape, shapeLabel, shapeLabels } from "../shape.js";
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
  const chain = chainsOf(shapes)[axis];
  return chain === undefined ? undefined : [...chain];
}

interface Chains {
  shapes: readonly Shape[];
  n: number;
  horizontal: readonly number[] | undefined;
  vertical: readonly number[] | undefined;
}

/**
 * The chains of the last canvas asked about, computed once: accepts() and generate() need them for
 * the same canvas, one after the other. Keyed by the shapes array (the same one is passed to both);
 * `n` guards against a caller changing the array in between. (One entry rather than a WeakMap
 * keyed by every canvas: its ephemerons showed in the garbage collector's time.)
 */
let lastChains: Chains | undefined;

function chainsOf(shapes: readonly Shape[]): Chains {
  const n = shapes.length;
  if (lastChains !== undefined && lastChains.shapes === shapes && lastChains.n === n) return lastChains;
  const boxes = bboxes(shapes);
  const horizontal = computeStrictChain(edges(boxes, "horizontal"));
  lastChains = { shapes, n, horizontal, vertical: computeStrictChain(edges(boxes, "vertical")) };
  return lastChains;
}

/**
 * Each box's low and high edge on one axis, in arrays reused by every call (read before the next).
 * Float64Arrays because vertical edges are integers on some canvases and fractions (triangles) on
 * others: plain arrays of them changed elements kind and deoptimized computeStrictChain.
 */
interface Edges {
  n: number;
  lo: Float64Array;
  hi: Float64Array;
}

const EDGES: Edges = { n: 0, lo: new Float64Array(24), hi: new Float64Array(24) };

function edges(boxes: readonly BBox[], axis: Axis): Edges {
  const n = boxes.length;
  const e = n <= EDGES.lo.length ? EDGES : { n, lo: new Float64Array(n), hi: new Float64Array(n) };
  e.n = n;
  for (let k = 0; k < n; k++) {
    const b = boxes[k]!;
    e.lo[k] = axis === "horizontal" ? b.left : b.bottom;
    e.hi[k] = axis === "horizontal" ? b.right : b.top;
  }
  return e;
}

/** Shapes ordered by (lo, hi), ties in canvas order; undefined unless both edges strictly increase along it. */
function computeStrictChain({ n, lo, hi }: Edges): number[] | undefined {
  const order: number[] = [];
  // A stable insertion sort: the order Array.prototype.sort gives with the comparator (lo, then hi).
  for (let k = 0; k < n; k++) {
    let p = order.length;
    order.push(k);
    while (p > 0) {
      const q = order[p - 1]!;
      if (lo[q]! < lo[k]! || (lo[q] === lo[k] && hi[q]! <= hi[k]!)) break;
      order[p] = q;
      p--;
    }
    order[p] = k;
  }
  for (let k = 1; k < n; k++) {
    const a = order[k - 1]!;
    const b = order[k]!;
    if (!(lo[a]! < lo[b]! && hi[a]! < hi[b]!)) return undefined;
  }
  return order;
}

/** Pair codes a * n + b, reused per canvas (at most 24 * 23 ordered pairs). */
const PAIRS = new Int32Array(24 * 24);

function generateFixed(ctx: TaskContext): TaskOutput {
  const { shapes, rng } = ctx;
  const n = shapes.length;
  const chains = chainsOf(shapes);
  if (chains.horizontal === undefined && chains.vertical === undefined) {
    throw new CanvasRejected("transitivity: the shapes form no strict chain on either axis");
  }
  // rng.choice over the axes that have a chain (one draw even when only one has).
  let axis: Axis;
  if (chains.horizontal !== undefined && chains.vertical !== undefined) axis = rng.int(0, 1) === 0 ? "horizontal" : "vertical";
  else {
    rng.int(0, 0);
    axis = chains.horizontal !== undefined ? "horizontal" : "vertical";
  }
  const chain = chains[axis]!;
  // Position in the chain per shape; unordered pairs below are numbered min * n + max (not strings).
  const pos: number[] = [];
  for (let p = 0; p < n; p++) pos[chain[p]!] = p;
  const originPos = rng.int(1, n - 2);
  const origin = chain[originPos]!;
  // Ascending chain order means "further left" / "further down" for lower positions.
  const lowDir = axis === "horizontal" ? "Left" : "Below";
  const highDir = axis === "horizontal" ? "Right" : "Above";
  const labels = shapeLabels(shapes);
  let description = `${headerSentence(n)} There is a ${labels[origin]} in the canvas.`;
  // rng.shuffle([lowDir, highDir]): one draw, 1 keeps the order.
  const lowFirst = rng.int(0, 1) === 1;
  for (let side = 0; side < 2; side++) {
    const direction = (side === 0) === lowFirst ? lowDir : highDir;
    const step = direction === lowDir ? -1 : 1;
    let prev = labels[origin]!;
    for (let p = originPos + step; p >= 0 && p < n; p += step) {
      const next = labels[chain[p]!]!;
      description += chainSentence(axis, direction, prev, next);
      prev = next;
    }
  }
  const answer = (s1: number, s2: number): string => (pos[s2]! < pos[s1]! ? lowDir : highDir);
  const ask = (a: number, b: number): QA => [`Where is the ${labels[b]} relative to the ${labels[a]}?`, answer(a, b)];
  const pairKey = (a: number, b: number) => (a < b ? a * n + b : b * n + a);
  // rng.choice over the ordered pairs (a, b), a != b, in loop order, at least two apart in the chain.
  let count = 0;
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (a !== b && Math.abs(pos[a]! - pos[b]!) >= 2) PAIRS[count++] = a * n + b;
  const first = PAIRS[rng.int(0, count - 1)]!;
  const qa: QA[] = [ask(Math.floor(first / n), first % n)];
  const used = [pairKey(Math.floor(first / n), first % n)];
  for (let round = 0; round < 2; round++) {
    // rng.choice over the ordered pairs whose unordered pair was not asked yet.
    count = 0;
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (a !== b && !used.includes(pairKey(a, b))) PAIRS[count++] = a * n + b;
    if (count === 0) break;
    const code = PAIRS[rng.int(0, count - 1)]!;
    const a = Math.floor(code / n);
    const b = code % n;
    qa.push(ask(a, b));
    used.push(pairKey(a, b));
  }
  return { questions: qa, description: ending(description, ctx.mode) };
}

export const transitivityTask: SpatialTask = {
  name: "transitivity",
  selectExpected: () => undefined,
  accepts(shapes, mode) {
    if (mode === "compat" || shapes.length < 3) return true;
    const chains = chainsOf(shapes);
    return chains.horizontal !== undefined || chains.vertical !== undefined;
  },
  generate(ctx) {
    if (ctx.shapes.length < 3) return undefined;
    return ctx.mode === "compat" ? generateCompat(ctx) : generateFixed(ctx);
  },
};
