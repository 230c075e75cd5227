import { CANVAS_HEIGHT, CANVAS_WIDTH, X_MIN, Y_MAX } from "../constants.js";
import { shapePolygon } from "../geometry.js";
import { type Shape, shapeLabel, shapeMeasure } from "../shape.js";
import { BACKGROUND, hex, PALETTE } from "./palette.js";

/**
 * The canvas as SVG in canvas units (64×64, y flipped so "above" is up on screen). Circles are true
 * circles; squares and triangles use the exact upstream vertices.
 */
export function renderSvg(shapes: readonly Shape[], pixelSize = 512): string {
  const tx = (x: number) => +(x - X_MIN).toFixed(4);
  const ty = (y: number) => +(Y_MAX - y).toFixed(4);
  const parts = shapes.map((s) => {
    const fill = hex(PALETTE[s.color]);
    const title = `<title>${shapeLabel(s)}</title>`;
    if (s.kind === "Circle") {
      return `<circle cx="${tx(s.center[0])}" cy="${ty(s.center[1])}" r="${shapeMeasure(s)}" fill="${fill}">${title}</circle>`;
    }
    const points = shapePolygon(s)
      .map(([x, y]) => `${tx(x)},${ty(y)}`)
      .join(" ");
    return `<polygon points="${points}" fill="${fill}">${title}</polygon>`;
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixelSize}" height="${pixelSize}" viewBox="0 0 ${CANVAS_WIDTH} ${CANVAS_HEIGHT}">` +
    `<rect width="${CANVAS_WIDTH}" height="${CANVAS_HEIGHT}" fill="${hex(BACKGROUND)}" stroke="#888" stroke-width="0.2"/>` +
    parts.join("") +
    "</svg>\n"
  );
}
