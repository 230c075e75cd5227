import { CANVAS_WIDTH, X_MIN, Y_MAX } from "../constants.js";
import { shapePolygon } from "../geometry.js";
import { bbox, type Shape, shapeMeasure } from "../shape.js";
import { BACKGROUND, PALETTE } from "./palette.js";
import { encodePng } from "./png-encode.js";

function insideConvex(poly: readonly (readonly [number, number])[], x: number, y: number): boolean {
  // Counter-clockwise vertices: inside when left of (or on) every edge.
  for (let i = 0; i < poly.length; i++) {
    const [ax, ay] = poly[i]!;
    const [bx, by] = poly[(i + 1) % poly.length]!;
    if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0) return false;
  }
  return true;
}

/** Rasterises the canvas directly (pixel-centre sampling) into RGB bytes. */
export function rasterize(shapes: readonly Shape[], size = 256): Uint8Array {
  const rgb = new Uint8Array(size * size * 3);
  const [br, bg, bb] = BACKGROUND;
  if (br === bg && bg === bb) rgb.fill(br);
  else for (let i = 0; i < size * size; i++) rgb.set(BACKGROUND, i * 3);
  const scale = size / CANVAS_WIDTH;
  for (const s of shapes) {
    const b = bbox(s);
    const poly = s.kind === "Circle" ? undefined : shapePolygon(s);
    const r = shapeMeasure(s);
    const px0 = Math.max(0, Math.floor((b.left - X_MIN) * scale));
    const px1 = Math.min(size - 1, Math.ceil((b.right - X_MIN) * scale));
    const py0 = Math.max(0, Math.floor((Y_MAX - b.top) * scale));
    const py1 = Math.min(size - 1, Math.ceil((Y_MAX - b.bottom) * scale));
    const fill = PALETTE[s.color];
    for (let py = py0; py <= py1; py++)
      for (let px = px0; px <= px1; px++) {
        const x = X_MIN + (px + 0.5) / scale;
        const y = Y_MAX - (py + 0.5) / scale;
        const inside =
          poly === undefined ? (x - s.center[0]) ** 2 + (y - s.center[1]) ** 2 <= r * r : insideConvex(poly, x, y);
        if (inside) {
          const at = (py * size + px) * 3;
          rgb[at] = fill[0];
          rgb[at + 1] = fill[1];
          rgb[at + 2] = fill[2];
        }
      }
  }
  return rgb;
}

export function renderPng(shapes: readonly Shape[], size = 256): Buffer {
  return encodePng(size, size, rasterize(shapes, size));
}
