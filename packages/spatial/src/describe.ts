import { coordinatesDescription, fullDescription, partialDescription } from "./descriptions.js";
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
export function describeCanvas(shapes: readonly Shape[]): CanvasDescription {
  const rels = getRelationships(shapes);
  return {
    full: fullDescription(shapes, rels),
    partial: partialDescription(shapes, rels),
    coordinates: coordinatesDescription(shapes),
    coordinate: coordinatePairs(shapes, rels, "compat"),
  };
}
