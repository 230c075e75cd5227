import type { CanvasRecord } from "./generate.js";
import { getRelationships } from "./relations.js";
import { shapeLabel } from "./shape.js";

/**
 * The statistics of spec §12 (statistical equivalence with the shipped upstream data), measured
 * on generated canvases. Fractions are in [0, 1].
 */
export interface ChecklistStats {
  canvases: number;
  /** [min x, max x, min y, max y] of centres per "size kind", e.g. "Large Circle". */
  centreRanges: Record<string, [number, number, number, number]>;
  singleAxisPairFraction: number;
  /** First-question answers of the balanced tasks, by index block. */
  existenceFirstYes: { firstHalf: number; secondHalf: number };
  countFirstZero: { firstQuarter: number; rest: number };
  countFirstNonZero: Record<string, number>;
  existenceYesAll: number;
  coordinateFirst: Record<string, number>;
  coordinateDiagonalFraction: number;
  trackingOps: Record<string, number>;
  shuffleDirection: Record<string, number>;
  transitivityAxis: Record<string, number>;
  transitivityDefaultedFraction: number;
  transitivityTwoItemFraction: number;
  trackingDuplicateFraction: number;
}

const inc = (o: Record<string, number>, k: string) => {
  o[k] = (o[k] ?? 0) + 1;
};

export function checklistStats(records: readonly CanvasRecord[]): ChecklistStats {
  const N = records.length;
  const ranges: Record<string, [number, number, number, number]> = {};
  let pairs = 0;
  let singleAxis = 0;
  const exYes = { firstHalf: 0, secondHalf: 0 };
  const cnt0 = { firstQuarter: 0, rest: 0 };
  const countNonZero: Record<string, number> = {};
  let exYesAll = 0;
  let exAll = 0;
  const coord: Record<string, number> = {};
  const ops: Record<string, number> = {};
  const shuffle: Record<string, number> = {};
  const axis: Record<string, number> = {};
  let defaulted = 0;
  let transitivityCount = 0;
  let twoItems = 0;
  let dup = 0;
  for (const r of records) {
    for (const s of r.shapes) {
      const key = `${s.size} ${s.kind}`;
      const [x, y] = s.center;
      const cur = ranges[key];
      ranges[key] = cur === undefined ? [x, x, y, y] : [Math.min(cur[0], x), Math.max(cur[1], x), Math.min(cur[2], y), Math.max(cur[3], y)];
    }
    const rels = getRelationships(r.shapes);
    for (let i = 0; i < r.shapes.length; i++)
      for (let j = 0; j < r.shapes.length; j++) {
        if (i === j) continue;
        pairs++;
        const rel = rels[i]!;
        const h = rel.Left.includes(j) || rel.Right.includes(j);
        const v = rel.Above.includes(j) || rel.Below.includes(j);
        if (h !== v) singleAxis++;
      }
    const ex = r.questions.existence;
    if (ex) {
      const yes = ex[0]![1] === "Yes" ? 1 : 0;
      if (r.index < Math.floor(N / 2)) exYes.firstHalf += yes;
      else exYes.secondHalf += yes;
      for (const [, a] of ex) {
        exAll++;
        if (a === "Yes") exYesAll++;
      }
    }
    const c = r.questions.count;
    if (c) {
      const a = c[0]![1];
      if (r.index < Math.floor(N / 4)) cnt0.firstQuarter += a === 0 ? 1 : 0;
      else {
        cnt0.rest += a === 0 ? 1 : 0;
        inc(countNonZero, String(a));
      }
    }
    const co = r.questions.coordinate;
    if (co) inc(coord, String(co[0]![1]));
    const et = r.descriptions.existence_tracking;
    if (et !== undefined) {
      const adds = (et.match(/ is added to the canvas/g) ?? []).length;
      const removes = (et.match(/ is removed from the canvas/g) ?? []).length;
      inc(ops, `${adds},${removes}`);
      const q = r.questions.existence_tracking!;
      // Upstream's duplicates are between the two few-shot questions (items 1 and 2).
      const few = q.slice(1).map(([text]) => text);
      if (new Set(few).size < few.length) dup++;
    }
    const sh = r.descriptions.shuffle_tracking;
    if (sh !== undefined) inc(shuffle, sh.match(/From (\w+ to \w+)/)?.[1] ?? "?");
    const tr = r.questions.transitivity;
    if (tr) {
      transitivityCount++;
      if (tr.length === 2) twoItems++;
      const [q, a] = tr[0]!;
      const horizontal = a === "Left" || a === "Right";
      inc(axis, horizontal ? "horizontal" : "vertical");
      const labels = r.shapes.map(shapeLabel);
      const m = String(q).match(/^Where is the (.+) relative to the (.+)\?$/)!;
      const s2 = labels.indexOf(m[1]!);
      const s1 = labels.indexOf(m[2]!);
      const rel = rels[s1]!;
      const related = horizontal ? rel.Left.includes(s2) || rel.Right.includes(s2) : rel.Above.includes(s2) || rel.Below.includes(s2);
      if (!related) defaulted++;
    }
  }
  const coordTotal = Object.values(coord).reduce((a, b) => a + b, 0);
  const diagonal = Object.entries(coord)
    .filter(([k]) => k.includes(" ") && k.trim().includes(" "))
    .reduce((a, [, v]) => a + v, 0);
  return {
    canvases: N,
    centreRanges: ranges,
    singleAxisPairFraction: singleAxis / pairs,
    existenceFirstYes: exYes,
    countFirstZero: cnt0,
    countFirstNonZero: countNonZero,
    existenceYesAll: exYesAll / Math.max(1, exAll),
    coordinateFirst: coord,
    coordinateDiagonalFraction: diagonal / Math.max(1, coordTotal),
    trackingOps: ops,
    shuffleDirection: shuffle,
    transitivityAxis: axis,
    transitivityDefaultedFraction: defaulted / Math.max(1, transitivityCount),
    transitivityTwoItemFraction: twoItems / Math.max(1, transitivityCount),
    trackingDuplicateFraction: dup / Math.max(1, N),
  };
}
