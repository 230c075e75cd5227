import type { Mode } from "./constants.js";
import { SpatialGenerationError } from "./errors.js";
import { sharedDirectionCodes, type Relations } from "./relations.js";
import { type Shape, shapeLabel, shapeLabels, shapeMeasure } from "./shape.js";

/** `There are 3 shapes in a canvas. ` / `There is 1 shape in a canvas. ` */
export function header(n: number): string {
  return `${headerSentence(n)} `;
}

/** The header without its trailing space. */
export function headerSentence(n: number): string {
  return n === 1 ? "There is 1 shape in a canvas." : `There are ${n} shapes in a canvas.`;
}

/**
 * How a text built as sentences separated by one space ends: compat keeps upstream's trailing
 * space, fixed ends at the last full stop. Building text this way spares trimming it afterwards
 * (trimming flattens each description's string, about a tenth of a 3-shape canvas's generation).
 */
export function ending(text: string, mode: Mode): string {
  return mode === "compat" && text !== "" ? `${text} ` : text;
}

/** Where j is as seen from i: `to the above left of`, `left of`, or a bare `above`. */
export function directionPhrase(rel: Relations, j: number): string {
  const x = rel.Left.includes(j) ? "left" : rel.Right.includes(j) ? "right" : undefined;
  const y = rel.Above.includes(j) ? "above" : rel.Below.includes(j) ? "below" : undefined;
  if (x !== undefined && y !== undefined) return `to the ${y} ${x} of`;
  if (x !== undefined) return `${x} of`;
  if (y !== undefined) return y;
  // Upstream crashes here too; it needs overlapping shapes, which sampling rules out.
  throw new SpatialGenerationError(`shape ${j} has no relation on either axis (overlapping shapes?)`);
}

/** Upstream ends every sentence with ". ", leaving a trailing space; fixed mode trims it. */
export function finish(text: string, mode: Mode): string {
  return mode === "compat" ? text : text.trimEnd();
}

const X_WORDS = [undefined, "left", "right"] as const;
const Y_WORDS = [undefined, "above", "below"] as const;
/** directionPhrase for each (x code, y code) of directionCodes; "" where it throws. */
const PHRASES: readonly (readonly string[])[] = X_WORDS.map((x) =>
  Y_WORDS.map((y) => (x !== undefined && y !== undefined ? `to the ${y} ${x} of` : x !== undefined ? `${x} of` : (y ?? ""))),
);

function relational(shapes: readonly Shape[], rels: readonly Relations[], onlyLater: boolean, mode: Mode): string {
  const n = shapes.length;
  let out = headerSentence(n);
  const labels = shapeLabels(shapes);
  for (let i = 0; i < n; i++) {
    out += ` There is a ${labels[i]} in the canvas.`;
    const codes = sharedDirectionCodes(rels[i]!, n);
    for (let j = onlyLater ? i + 1 : 0; j < n; j++) {
      if (j === i) continue;
      const phrase = PHRASES[codes.x[j]!]![codes.y[j]!]!;
      out += ` A ${labels[j]} is ${phrase === "" ? directionPhrase(rels[i]!, j) : phrase} this ${labels[i]}.`;
    }
  }
  return ending(out, mode);
}

/** Every shape with its relation to every other; compat (default) ends with upstream's trailing space. */
export function fullDescription(shapes: readonly Shape[], rels: readonly Relations[], mode: Mode = "compat"): string {
  return relational(shapes, rels, false, mode);
}

/** Each pair once (the later shape relative to the earlier); compat (default) ends with a space. */
export function partialDescription(shapes: readonly Shape[], rels: readonly Relations[], mode: Mode = "compat"): string {
  return relational(shapes, rels, true, mode);
}

/** Labels, centres and sizes; compat (default) ends with a space. */
export function coordinatesDescription(shapes: readonly Shape[], mode: Mode = "compat"): string {
  let out = headerSentence(shapes.length);
  for (const s of shapes) {
    const measure = s.kind === "Circle" ? `radius ${shapeMeasure(s)}` : `side length ${shapeMeasure(s)}`;
    out += ` There is a ${shapeLabel(s)} at (${s.center[0]}, ${s.center[1]}) with ${measure}.`;
  }
  return ending(out, mode);
}
