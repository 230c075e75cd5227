import { COLORS, type Color, SHAPE_KINDS, type ShapeKind, SIZES, type Size } from "../constants.js";
import type { Rng } from "@yardstick/core";
import { comboIndex, type Shape } from "../shape.js";

export interface AttributeQuery {
  kind: ShapeKind | undefined;
  size: Size | undefined;
  color: Color | undefined;
}

/** Every (kind|any, size|any, colour|any) query except the all-any one: 59, in upstream's order. */
export function attributeQueries(): readonly AttributeQuery[] {
  return QUERIES;
}

const QUERIES: readonly AttributeQuery[] = buildQueries();

function buildQueries(): AttributeQuery[] {
  const out: AttributeQuery[] = [];
  for (const kind of [...SHAPE_KINDS, undefined])
    for (const size of [...SIZES, undefined])
      for (const color of [...COLORS, undefined]) {
        if (kind === undefined && size === undefined && color === undefined) continue;
        out.push({ kind, size, color });
      }
  return out;
}

export function matches(shape: Shape, q: AttributeQuery): boolean {
  return (
    (q.kind === undefined || shape.kind === q.kind) &&
    (q.size === undefined || shape.size === q.size) &&
    (q.color === undefined || shape.color === q.color)
  );
}

/** `"large red "` style prefix with a trailing space, or "". */
export function adjectives(q: AttributeQuery): string {
  return (q.size ? `${q.size.toLowerCase()} ` : "") + (q.color ? `${q.color.toLowerCase()} ` : "");
}

/** Bit of a (kind, colour, size) combination, 0..23. */
export function comboBit(shape: Pick<Shape, "kind" | "color" | "size">): number {
  return 1 << comboIndex(shape);
}

/** For each query, the bits of the combinations it matches (so a canvas is answered with a few ANDs). */
export const QUERY_MASKS: readonly number[] = QUERIES.map((q) => {
  let mask = 0;
  for (const kind of SHAPE_KINDS)
    for (const color of COLORS)
      for (const size of SIZES) if (matches({ kind, color, size, center: [0, 0] }, q)) mask |= comboBit({ kind, color, size });
  return mask;
});

export function popcount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/** Scratch indices for the query draws below (one canvas at a time on a thread). */
const SCRATCH = new Int32Array(QUERIES.length);

/**
 * Picks the three questions of the existence and count tasks as query indices, with exactly the
 * draws of `rng.sample(qa, 3)` (no expected answer), or of `first = rng.choice(pool)` (pool: the
 * queries with the expected answer) then `rng.sample(every other query, 2)`, without building the
 * 59 (question, answer) pairs and the filtered copies they took.
 * `wanted(k)` says whether query k has the expected answer; undefined when nothing is expected.
 * Returns undefined when no query has the expected answer.
 */
export function pickQueries(rng: Rng, wanted: ((k: number) => boolean) | undefined): [number, number, number] | undefined {
  const m = QUERIES.length;
  const pool = SCRATCH;
  if (wanted === undefined) {
    for (let k = 0; k < m; k++) pool[k] = k;
    partialShuffle(rng, pool, m, 3);
    return [pool[0]!, pool[1]!, pool[2]!];
  }
  let p = 0;
  for (let k = 0; k < m; k++) if (wanted(k)) pool[p++] = k;
  if (p === 0) return undefined;
  // rng.choice(items) draws items[below(length)], as rng.int(0, length - 1) does.
  const first = pool[rng.int(0, p - 1)]!;
  let r = 0;
  for (let k = 0; k < m; k++) if (k !== first) pool[r++] = k;
  partialShuffle(rng, pool, r, 2);
  return [first, pool[0]!, pool[1]!];
}

/** rng.sample's draws on pool[0, len): afterwards pool[0, k) holds the sample in order. */
function partialShuffle(rng: Rng, pool: Int32Array, len: number, k: number): void {
  for (let i = 0; i < k; i++) {
    const j = i + rng.int(0, len - i - 1);
    const tmp = pool[i]!;
    pool[i] = pool[j]!;
    pool[j] = tmp;
  }
}
