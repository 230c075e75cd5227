import type { Color } from "../constants.js";

/** RGB fill per shape colour; saturated so a vision model can tell them apart at small sizes. */
export const PALETTE: Record<Color, readonly [number, number, number]> = {
  Red: [214, 39, 40],
  Blue: [31, 119, 180],
  Yellow: [240, 200, 0],
  Green: [44, 160, 44],
};

export const BACKGROUND: readonly [number, number, number] = [255, 255, 255];

export function hex(rgb: readonly [number, number, number]): string {
  return `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}
