import { createHash } from "node:crypto";

/**
 * A small seeded PRNG (xoshiro128**). Pure 32-bit integer arithmetic, so the stream is identical on
 * every machine and Node version; seeded through SHA-256 so any string key gives a good state.
 */
export interface Rng {
  /** Uniform float in [0, 1). */
  random(): number;
  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number;
  choice<T>(items: readonly T[]): T;
  shuffle<T>(items: T[]): T[];
  /** k distinct elements in random order (like Python's random.sample). */
  sample<T>(items: readonly T[], k: number): T[];
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

export function createRng(key: string): Rng {
  const digest = createHash("sha256").update(key).digest();
  let s0 = digest.readUInt32LE(0);
  let s1 = digest.readUInt32LE(4);
  let s2 = digest.readUInt32LE(8);
  let s3 = digest.readUInt32LE(12);
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;

  const nextUint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 = (s2 ^ s0) >>> 0;
    s3 = (s3 ^ s1) >>> 0;
    s1 = (s1 ^ s2) >>> 0;
    s0 = (s0 ^ s3) >>> 0;
    s2 = (s2 ^ t) >>> 0;
    s3 = rotl(s3, 11);
    return result;
  };

  const random = (): number => {
    // 53 random bits, like Python's random.random().
    const hi = nextUint32() >>> 5;
    const lo = nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  };

  const below = (n: number): number => {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`random range must be a positive integer, got ${n}`);
    // Rejection sampling keeps the draw exactly uniform.
    const limit = Math.floor(4294967296 / n) * n;
    for (;;) {
      const x = nextUint32();
      if (x < limit) return x % n;
    }
  };

  const rng: Rng = {
    random,
    int: (lo, hi) => lo + below(hi - lo + 1),
    choice: (items) => {
      if (items.length === 0) throw new RangeError("cannot choose from an empty list");
      return items[below(items.length)] as (typeof items)[number];
    },
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = below(i + 1);
        const tmp = items[i] as (typeof items)[number];
        items[i] = items[j] as (typeof items)[number];
        items[j] = tmp;
      }
      return items;
    },
    sample: (items, k) => {
      if (k > items.length) throw new RangeError(`sample of ${k} from ${items.length} items`);
      const pool = [...items];
      const out: (typeof items)[number][] = [];
      for (let i = 0; i < k; i++) {
        const j = i + below(pool.length - i);
        const tmp = pool[i] as (typeof items)[number];
        pool[i] = pool[j] as (typeof items)[number];
        pool[j] = tmp;
        out.push(pool[i] as (typeof items)[number]);
      }
      return out;
    },
  };
  return rng;
}
