/** Canvas geometry and the attribute vocabularies of the spatial benchmark. */

export const CANVAS_WIDTH = 64;
export const CANVAS_HEIGHT = 64;
export const X_MIN = -32;
export const X_MAX = 32;
export const Y_MIN = -32;
export const Y_MAX = 32;

/**
 * Attribute orders. Upstream keeps these in Python sets, whose order depends on PYTHONHASHSEED;
 * a fixed order is what makes generation reproducible.
 */
export const SHAPE_KINDS = ["Square", "Circle", "Triangle"] as const;
export const COLORS = ["Red", "Blue", "Yellow", "Green"] as const;
export const SIZES = ["Small", "Large"] as const;

export type ShapeKind = (typeof SHAPE_KINDS)[number];
export type Color = (typeof COLORS)[number];
export type Size = (typeof SIZES)[number];

export const TASK_NAMES = [
  "existence",
  "count",
  "transitivity",
  "coordinate",
  "existence_tracking",
  "shuffle_tracking",
] as const;
export type TaskName = (typeof TASK_NAMES)[number];

/** Description types a prompt can use; `image` carries a picture instead of text. */
export const DESCRIPTION_TYPES = ["full", "partial", "coordinates", "transitivity", "shuffle_tracking", "image"] as const;
export type DescriptionType = (typeof DESCRIPTION_TYPES)[number];

export type Mode = "fixed" | "compat";

/** Number of distinct (kind, colour, size) combinations. */
export const COMBINATION_COUNT = SHAPE_KINDS.length * COLORS.length * SIZES.length;
