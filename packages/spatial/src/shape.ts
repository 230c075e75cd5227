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
  const [cx, cy] = shape.center;
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

/** Every label, precomputed: labels are looked up very often while writing descriptions. */
const LABELS = Object.fromEntries(
  SHAPE_KINDS.map((kind) => [
    kind,
    Object.fromEntries(COLORS.map((color) => [color, Object.fromEntries(SIZES.map((size) => [size, `${size} ${color} ${kind}`.toLowerCase()]))])),
  ]),
) as Record<ShapeKind, Record<Color, Record<Size, string>>>;

/** `"large red circle"`: size, colour and kind in lowercase. */
export function shapeLabel(shape: Pick<Shape, "kind" | "color" | "size">): string {
  return LABELS[shape.kind][shape.color][shape.size];
}

const KIND_INDEX: Record<ShapeKind, number> = { Square: 0, Circle: 1, Triangle: 2 };
const COLOR_INDEX: Record<Color, number> = { Red: 0, Blue: 1, Yellow: 2, Green: 3 };
const SIZE_INDEX: Record<Size, number> = { Small: 0, Large: 1 };

/**
 * The combination's index 0..23 in attribute order (kind, colour, size), as a number: a cheaper
 * map key than comboKey, which builds a string per call.
 */
export function comboIndex(shape: Pick<Shape, "kind" | "color" | "size">): number {
  return KIND_INDEX[shape.kind] * 8 + COLOR_INDEX[shape.color] * 2 + SIZE_INDEX[shape.size];
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
