/**
 * Exact n-gram counting on small integers. Within one segment (hypothesis plus its references)
 * every distinct unit (character or token) gets an id; every distinct n-gram then gets an id from
 * the pair (id of its (n−1)-gram prefix, id of its last unit). Equal n-grams get equal ids, so
 * clipped match counts are array lookups — the same numbers Python's Counter arithmetic gives,
 * without building a string per n-gram.
 */

/** Assigns consecutive ids to strings (one instance per segment). */
export class StringInterner {
  private readonly ids = new Map<string, number>();
  get size(): number {
    return this.ids.size;
  }
  idsOf(units: readonly string[]): Int32Array {
    const out = new Int32Array(units.length);
    for (let i = 0; i < units.length; i++) {
      const u = units[i]!;
      let id = this.ids.get(u);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(u, id);
      }
      out[i] = id;
    }
    return out;
  }
}

/**
 * Ids for the code points of strings through a reusable table for the BMP and a map for astral
 * characters; returns one id per code point. Call `reset()` when the segment is done.
 */
export class CharInterner {
  private static readonly table = new Int32Array(0x10000).fill(-1);
  private readonly touched: number[] = [];
  private astral: Map<number, number> | undefined;
  private count = 0;
  get size(): number {
    return this.count;
  }
  idsOf(s: string): Int32Array {
    const table = CharInterner.table;
    const out = new Int32Array(s.length);
    let k = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
          this.astral ??= new Map();
          let id = this.astral.get(cp);
          if (id === undefined) {
            id = this.count++;
            this.astral.set(cp, id);
          }
          out[k++] = id;
          i++;
          continue;
        }
      }
      let id = table[c]!;
      if (id < 0) {
        id = this.count++;
        table[c] = id;
        this.touched.push(c);
      }
      out[k++] = id;
    }
    return k === s.length ? out : out.slice(0, k);
  }
  reset(): void {
    const table = CharInterner.table;
    for (const c of this.touched) table[c] = -1;
    this.touched.length = 0;
    this.astral = undefined;
    this.count = 0;
  }
}

export interface NgramIdSets {
  /** ids[text][n - 1]: the id of the n-gram starting at each position (length max(0, len − n + 1)). */
  ids: Int32Array[][];
  /** distinct[n - 1]: number of distinct n-grams over all texts. */
  distinct: number[];
}

// Reusable (prefix id, unit) → n-gram id table for the common case of a small key range; entries
// touched by a segment are reset afterwards. Larger key ranges fall back to a Map.
const DENSE_LIMIT = 1 << 20;
let dense: Int32Array | undefined;

/** N-gram ids of orders 1..maxOrder for several unit-id sequences sharing one unit alphabet of size `base`. */
export function ngramIds(units: readonly Int32Array[], maxOrder: number, base: number): NgramIdSets {
  const ids: Int32Array[][] = units.map((u) => [u]);
  const distinct = [base];
  for (let n = 2; n <= maxOrder; n++) {
    // prefix id < distinct[n − 2] and unit < base, so key = prefix·base + unit is exact and unique.
    const range = distinct[n - 2]! * base;
    const useDense = range <= DENSE_LIMIT;
    if (useDense) dense ??= new Int32Array(DENSE_LIMIT).fill(-1);
    const table = dense!;
    const index = useDense ? undefined : new Map<number, number>();
    const touched: number[] = [];
    let next = 0;
    for (let t = 0; t < units.length; t++) {
      const u = units[t]!;
      const prev = ids[t]![n - 2]!;
      const count = Math.max(0, u.length - n + 1);
      const cur = new Int32Array(count);
      for (let i = 0; i < count; i++) {
        const key = prev[i]! * base + u[i + n - 1]!;
        let id: number | undefined;
        if (index === undefined) {
          id = table[key]!;
          if (id < 0) {
            id = next++;
            table[key] = id;
            touched.push(key);
          }
        } else {
          id = index.get(key);
          if (id === undefined) {
            id = next++;
            index.set(key, id);
          }
        }
        cur[i] = id;
      }
      ids[t]!.push(cur);
    }
    for (const key of touched) table[key] = -1;
    distinct.push(next);
  }
  return { ids, distinct };
}

let scratch = new Int32Array(1024);
let scratch2 = new Int32Array(1024);

function ensure(size: number): void {
  if (scratch.length < size) {
    scratch = new Int32Array(Math.max(size, scratch.length * 2));
    scratch2 = new Int32Array(scratch.length);
  }
}

/** Σ over n-grams of min(count in hyp, count in ref). */
export function clippedMatches(hyp: Int32Array, ref: Int32Array, distinct: number): number {
  ensure(distinct);
  const counts = scratch;
  for (let i = 0; i < ref.length; i++) counts[ref[i]!]!++;
  let matches = 0;
  for (let i = 0; i < hyp.length; i++) {
    const id = hyp[i]!;
    if (counts[id]! > 0) {
      counts[id]!--;
      matches++;
    }
  }
  for (let i = 0; i < ref.length; i++) counts[ref[i]!] = 0;
  return matches;
}

/** Σ over n-grams of min(count in hyp, max over refs of count in ref) — BLEU's multi-reference clipping. */
export function clippedMatchesMaxRef(hyp: Int32Array, refs: readonly Int32Array[], distinct: number): number {
  if (refs.length === 1) return clippedMatches(hyp, refs[0]!, distinct);
  ensure(distinct);
  const max = scratch;
  const tmp = scratch2;
  for (const ref of refs) {
    for (let i = 0; i < ref.length; i++) tmp[ref[i]!]!++;
    for (let i = 0; i < ref.length; i++) {
      const id = ref[i]!;
      if (tmp[id]! > max[id]!) max[id] = tmp[id]!;
    }
    for (let i = 0; i < ref.length; i++) tmp[ref[i]!] = 0;
  }
  let matches = 0;
  for (let i = 0; i < hyp.length; i++) {
    const id = hyp[i]!;
    if (max[id]! > 0) {
      max[id]!--;
      matches++;
    }
  }
  for (const ref of refs) for (let i = 0; i < ref.length; i++) max[ref[i]!] = 0;
  return matches;
}
