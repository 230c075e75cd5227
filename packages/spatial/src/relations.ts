import { type BBox, bboxes, type Shape } from "./shape.js";

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
  // Nearest first, ties in canvas order (what the stable Array.prototype.sort gives; an insertion
  // sort on these few indices is the same order without a comparator call per step).
  sortBy(rel.Left, (k) => -boxes[k]!.left);
  sortBy(rel.Right, (k) => boxes[k]!.right);
  sortBy(rel.Above, (k) => boxes[k]!.top);
  sortBy(rel.Below, (k) => -boxes[k]!.bottom);
  return rel;
}

/**
 * Sort keys, reused (sortBy does not nest). A Float64Array because keys are integers on some
 * canvases and fractions (triangle edges) on others: an array of them changed elements kind and
 * deoptimized its readers.
 */
const KEYS = new Float64Array(24);

/** Stable ascending insertion sort of indices by key. */
function sortBy(items: number[], key: (k: number) => number): void {
  if (items.length < 2) return;
  const keys = items.length <= KEYS.length ? KEYS : new Float64Array(items.length);
  for (let a = 0; a < items.length; a++) keys[a] = key(items[a]!);
  for (let a = 1; a < items.length; a++) {
    const item = items[a]!;
    const k = keys[a]!;
    let b = a - 1;
    while (b >= 0 && keys[b]! > k) {
      items[b + 1] = items[b]!;
      keys[b + 1] = keys[b]!;
      b--;
    }
    items[b + 1] = item;
    keys[b + 1] = k;
  }
}

/**
 * Per origin i, where each j lies: `x[j]` 1 = Left, 2 = Right, 0 = neither; `y[j]` 1 = Above,
 * 2 = Below, 0 = neither (Left/Above take precedence, as in the `includes` chains they replace).
 * Built once per canvas so descriptions and answers do not scan the lists for every pair.
 */
export interface DirectionCodes {
  x: Uint8Array;
  y: Uint8Array;
}

export function directionCodes(rel: Relations, n: number): DirectionCodes {
  return fillCodes(rel, new Uint8Array(n), new Uint8Array(n));
}

const SHARED: DirectionCodes = { x: new Uint8Array(24), y: new Uint8Array(24) };

/**
 * directionCodes in arrays shared by every caller on the thread (entries past n are stale): for a
 * caller that reads them before asking again. Spares two typed arrays per shape and description.
 */
export function sharedDirectionCodes(rel: Relations, n: number): DirectionCodes {
  if (n > SHARED.x.length) return directionCodes(rel, n);
  // A loop: TypedArray.prototype.fill is a C++ builtin call, dear for a few entries.
  for (let j = 0; j < n; j++) {
    SHARED.x[j] = 0;
    SHARED.y[j] = 0;
  }
  return fillCodes(rel, SHARED.x, SHARED.y);
}

function fillCodes(rel: Relations, x: Uint8Array, y: Uint8Array): DirectionCodes {
  for (const j of rel.Right) x[j] = 2;
  for (const j of rel.Left) x[j] = 1;
  for (const j of rel.Below) y[j] = 2;
  for (const j of rel.Above) y[j] = 1;
  return x === SHARED.x ? SHARED : { x, y };
}

export function getRelationships(shapes: readonly Shape[]): Relations[] {
  const boxes = bboxes(shapes);
  // A loop, not map: a packed array whether or not this is optimized (see shapeLabels).
  const rels: Relations[] = [];
  for (let i = 0; i < shapes.length; i++) rels.push(relationsOf(boxes, i));
  return rels;
}
