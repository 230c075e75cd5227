import { type BBox, bbox, type Shape, shapeMeasure } from "./shape.js";

/**
 * Exact intersection of shapes as closed convex polygons (touching counts as intersecting).
 * Circles are the 64-gon that shapely's `Point.buffer(r)` produces, so tangency and near-misses
 * are decided the same way as upstream.
 */
export type Polygon = readonly (readonly [number, number])[];

const CIRCLE_SEGMENTS = 64;
const SQRT3 = Math.sqrt(3);
const UNIT_CIRCLE = Array.from({ length: CIRCLE_SEGMENTS }, (_, k) => {
  const a = (2 * Math.PI * k) / CIRCLE_SEGMENTS;
  return [Math.cos(a), Math.sin(a)] as const;
});

/**
 * Every vertex comes from this one literal, and every polygon is a packed array: vertices of
 * integers (squares) and of fractions (circles, triangles) from separate literals, and a mapped
 * circle next to literal squares, were arrays of different elements kinds, which deoptimized
 * separatedAlongEdges. One allocation site settles on doubles for all.
 */
function vertex(x: number, y: number): readonly [number, number] {
  return [x, y];
}

export function shapePolygon(shape: Shape): Polygon {
  const [cx, cy] = shape.center;
  const m = shapeMeasure(shape);
  if (shape.kind === "Circle") {
    const out: (readonly [number, number])[] = [];
    for (const [c, s] of UNIT_CIRCLE) out.push(vertex(cx + m * c, cy + m * s));
    return out;
  }
  if (shape.kind === "Square") {
    const b = bbox(shape);
    return [vertex(b.left, b.bottom), vertex(b.right, b.bottom), vertex(b.right, b.top), vertex(b.left, b.top)];
  }
  const half = Math.floor(m / 2);
  return [vertex(cx - half, cy - m / (2 * SQRT3)), vertex(cx + half, cy - m / (2 * SQRT3)), vertex(cx, cy + m / SQRT3)];
}

function separatedAlongEdges(a: Polygon, b: Polygon): boolean {
  for (let i = 0; i < a.length; i++) {
    const p = a[i]!;
    const q = a[(i + 1) % a.length]!;
    const nx = q[1] - p[1];
    const ny = p[0] - q[0];
    let aMin = Number.POSITIVE_INFINITY;
    let aMax = Number.NEGATIVE_INFINITY;
    for (const v of a) {
      const d = v[0] * nx + v[1] * ny;
      if (d < aMin) aMin = d;
      if (d > aMax) aMax = d;
    }
    let bMin = Number.POSITIVE_INFINITY;
    let bMax = Number.NEGATIVE_INFINITY;
    for (const v of b) {
      const d = v[0] * nx + v[1] * ny;
      if (d < bMin) bMin = d;
      if (d > bMax) bMax = d;
    }
    if (aMax < bMin || bMax < aMin) return true;
  }
  return false;
}

/** Separating-axis test for two convex polygons; closed sets, so shared edges or points intersect. */
export function polygonsIntersect(a: Polygon, b: Polygon): boolean {
  return !separatedAlongEdges(a, b) && !separatedAlongEdges(b, a);
}

/** Disjoint boxes cannot intersect: the cheap test that settles almost every pair. */
export function boxesTouch(ba: BBox, bb: BBox): boolean {
  return !(ba.right < bb.left || bb.right < ba.left || ba.top < bb.bottom || bb.top < ba.bottom);
}

/** Radii of the circles around and inside each polygon (centred on the shape's centre). */
function radii(shape: Shape): [outer: number, inner: number] {
  const m = shapeMeasure(shape);
  if (shape.kind === "Circle") return [m, m * Math.cos(Math.PI / CIRCLE_SEGMENTS)];
  if (shape.kind === "Square") return [m / Math.SQRT2, m / 2];
  return [m / SQRT3, m / (2 * SQRT3)];
}

/** Margin that keeps the circle shortcuts away from floating-point ties, which the exact test settles. */
const EPS = 1e-9;

/**
 * Exact intersection. Circle bounds settle most close pairs without the separating-axis test
 * (which costs 128 axes for two 64-gons): beyond the circumscribed circles they are disjoint,
 * within the inscribed ones they overlap; only the band in between needs the polygons.
 */
export function shapesIntersect(a: Shape, b: Shape, polyA?: Polygon, polyB?: Polygon): boolean {
  if (!boxesTouch(bbox(a), bbox(b))) return false;
  return quickIntersect(a, b) ?? polygonsIntersect(polyA ?? shapePolygon(a), polyB ?? shapePolygon(b));
}

/** The circle-bound shortcut alone: true/false when it decides, undefined when the polygons must. */
export function quickIntersect(a: Shape, b: Shape): boolean | undefined {
  const d = Math.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]);
  const [outA, inA] = radii(a);
  const [outB, inB] = radii(b);
  if (d > outA + outB + EPS) return false;
  if (d < inA + inB - EPS) return true;
  return undefined;
}
