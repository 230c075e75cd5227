import { bbox, type BBox, type Shape } from "./shape.js";

/** Indices of the shapes in each direction of one origin shape, nearest first. */
export interface Relations {
  Left: number[];
  Right: number[];
  Above: number[];
  Below: number[];
}

/**
 * The edge-based relation rule. j is Left of i when its left edge is strictly further left, unless
 * j strictly encloses i on that axis; likewise for the other directions. Ties on one edge make the
 * rule asymmetric (j Left of i without i Right of j), exactly as upstream.
 */
export function relationsOf(boxes: readonly BBox[], i: number): Relations {
  const bi = boxes[i]!;
  const rel: Relations = { Left: [], Right: [], Above: [], Below: [] };
  for (let j = 0; j < boxes.length; j++) {
    if (j === i) continue;
    const bj = boxes[j]!;
    if (!(bj.left < bi.left && bj.right > bi.right)) {
      if (bj.left < bi.left) rel.Left.push(j);
      if (bj.right > bi.right) rel.Right.push(j);
    }
    if (!(bj.top > bi.top && bj.bottom < bi.bottom)) {
      if (bj.top > bi.top) rel.Above.push(j);
      if (bj.bottom < bi.bottom) rel.Below.push(j);
    }
  }
  // Nearest first; Array.prototype.sort is stable, so ties keep canvas order.
  rel.Left.sort((a, b) => boxes[b]!.left - boxes[a]!.left);
  rel.Right.sort((a, b) => boxes[a]!.right - boxes[b]!.right);
  rel.Above.sort((a, b) => boxes[a]!.top - boxes[b]!.top);
  rel.Below.sort((a, b) => boxes[b]!.bottom - boxes[a]!.bottom);
  return rel;
}

export function getRelationships(shapes: readonly Shape[]): Relations[] {
  const boxes = shapes.map(bbox);
  return shapes.map((_, i) => relationsOf(boxes, i));
}
