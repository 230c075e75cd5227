import type { Color, ShapeKind, Size } from "./constants.js";
import { COLORS, SHAPE_KINDS, SIZES, X_MAX, X_MIN, Y_MAX, Y_MIN } from "./constants.js";

/** One shape on the canvas. Centres are integers; the origin is the canvas centre and y grows up. */
export interface Shape {
  kind: ShapeKind;
  color: Color;
  size: Size;
  center: readonly [number, number];
}

/** Axis-aligned bounding box; the relation rule compares these edges, not centres. */
export interface BBox {
  left: number;
  right: number;
  bottom: number;
  top: number;
}

const SQRT3 = Math.sqrt(3);

/** Circle radius or square/triangle side length. */
export function shapeMeasure(shape: Pick<Shape, "kind" | "size">): number {
  if (shape.kind === "Circle") return shape.size === "Small" ? 1 : 4;
  return shape.size === "Small" ? 2 : 4;
}

export function bbox(shape: Shape): BBox {
  // Indexing, not destructuring: optimized code still called the array iterator for it.
  const cx = shape.center[0];
  const cy = shape.center[1];
  const m = shapeMeasure(shape);
  switch (shape.kind) {
    case "Circle":
      return { left: cx - m, right: cx + m, bottom: cy - m, top: cy + m };
    case "Square": {
      // Upstream floors half the side, so odd sides would be off-centre; the sides used are even.
      const left = cx - Math.floor(m / 2);
      const bottom = cy - Math.floor(m / 2);
      return { left, right: left + m, bottom, top: bottom + m };
    }
    case "Triangle":
      return {
        left: cx - Math.floor(m / 2),
        right: cx + Math.floor(m / 2),
        bottom: cy - m / (2 * SQRT3),
        top: cy + m / SQRT3,
      };
  }
}

/**
 * The combination's index 0..23 in attribute order (kind, colour, size). Comparisons with the
 * literals rather than keyed lookups in tables: this runs for every label and set key, on shapes of
 * several object layouts, where keyed lookups measured 10% of generation.
 */
export function comboIndex(shape: Pick<Shape, "kind" | "color" | "size">): number {
  const { kind, color, size } = shape;
  const k = kind === "Square" ? 0 : kind === "Circle" ? 8 : kind === "Triangle" ? 16 : unknown("kind", kind);
  const c = color === "Red" ? 0 : color === "Blue" ? 2 : color === "Yellow" ? 4 : color === "Green" ? 6 : unknown("colour", color);
  const z = size === "Small" ? 0 : size === "Large" ? 1 : unknown("size", size);
  return k + c + z;
}

function unknown(what: string, value: unknown): never {
  throw new TypeError(`unknown shape ${what}: ${String(value)}`);
}

/** Every label by comboIndex, precomputed: labels are looked up very often while writing descriptions. */
const LABELS: readonly string[] = SHAPE_KINDS.flatMap((kind) =>
  COLORS.flatMap((color) => SIZES.map((size) => `${size} ${color} ${kind}`.toLowerCase())),
);

/** `"large red circle"`: size, colour and kind in lowercase. */
export function shapeLabel(shape: Pick<Shape, "kind" | "color" | "size">): string {
  return LABELS[comboIndex(shape)]!;
}

/**
 * `shapes.map(shapeLabel)` as a loop. Arrays shared between functions are built with push, never
 * with `Array.prototype.map`: the builtin returns a packed array, TurboFan's inlined map a holey one,
 * so once a caller was optimized every consumer compiled for the other kind deoptimized ("wrong
 * map") and was compiled again.
 */
export function shapeLabels(shapes: readonly Shape[]): string[] {
  const labels: string[] = [];
  for (let k = 0; k < shapes.length; k++) labels.push(shapeLabel(shapes[k]!));
  return labels;
}

/** `shapes.map(bbox)` as a loop (a packed array, see shapeLabels). */
export function bboxes(shapes: readonly Shape[]): BBox[] {
  const boxes: BBox[] = [];
  for (let k = 0; k < shapes.length; k++) boxes.push(bbox(shapes[k]!));
  return boxes;
}

/** Identity ignores position, as upstream's __eq__/__hash__ do. */
export function comboKey(shape: Pick<Shape, "kind" | "color" | "size">): string {
  return `${shape.kind}/${shape.color}/${shape.size}`;
}

export function inBounds(shape: Shape): boolean {
  const b = bbox(shape);
  return b.left >= X_MIN && b.right <= X_MAX && b.bottom >= Y_MIN && b.top <= Y_MAX;
}

/** The JSON form of a shape in the original data files. */
export interface ShapeJson {
  shape: ShapeKind;
  color: Color;
  size: Size;
  center: [number, number];
}

export function shapeToJson(shape: Shape): ShapeJson {
  return { shape: shape.kind, color: shape.color, size: shape.size, center: [shape.center[0], shape.center[1]] };
}

export function shapeFromJson(json: ShapeJson): Shape {
  return { kind: json.shape, color: json.color, size: json.size, center: [json.center[0], json.center[1]] };
}
