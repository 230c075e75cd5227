import { COLORS, type Color, SHAPE_KINDS, type ShapeKind, SIZES, type Size } from "../constants.js";
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
