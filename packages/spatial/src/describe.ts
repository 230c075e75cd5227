import type { Mode } from "./constants.js";
import { coordinatesDescription, finish, fullDescription, partialDescription } from "./descriptions.js";
import { getRelationships } from "./relations.js";
import type { Shape } from "./shape.js";
import { coordinatePairs } from "./tasks/coordinate.js";
import type { QA } from "./tasks/types.js";

export interface CanvasDescription {
  full: string;
  partial: string;
  coordinates: string;
  /** Every pair i<j in canvas order with its coordinate-task answer (upstream's exact strings). */
  coordinate: QA[];
}

/** Upstream's descriptions and coordinate answers of a given canvas, byte for byte (compat text). */
export function describeCanvas(shapes: readonly Shape[], mode: Mode = "compat"): CanvasDescription {
  const rels = getRelationships(shapes);
  const d = {
    full: fullDescription(shapes, rels),
    partial: partialDescription(shapes, rels),
    coordinates: coordinatesDescription(shapes),
    coordinate: coordinatePairs(shapes, rels, mode),
  };
  if (mode === "compat") return d;
  // As generate writes them in fixed mode: no trailing space after the last sentence.
  return {
    full: finish(d.full, mode),
    partial: finish(d.partial, mode),
    coordinates: finish(d.coordinates, mode),
    coordinate: d.coordinate.map(([q, a]): QA => [q.trimEnd(), typeof a === "string" ? a.trimEnd() : a]),
  };
}
