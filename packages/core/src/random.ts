import { createHash } from "node:crypto";

/**
 * Seeded pseudo-random numbers for every package, using only 32-bit integer operations (`Math.imul`,
 * shifts) so each stream is bit-identical on every JS engine and machine. Three algorithms, because
 * stored outputs depend on each stream and must not change:
 *
 * - {@link createRng}: xoshiro128** 1.1 (Blackman & Vigna), the general-purpose generator. Seeded
 *   from an integer through SplitMix64 (metrics: bootstrap, paired tests) or from a string key
 *   through SHA-256 (spatial: one stream per canvas).
 * - {@link mulberry32}: a one-word generator of floats (engine: headline-interval resampling;
 *   testing: dev-server faults and latency, the conformance shuffle; bench data).
 * - {@link Mt19937}: numpy's legacy `RandomState` stream, where upstream Python results must be
 *   reproduced (SEA-HELM's ROUGE bootstrap under `np.random.seed(4156)`).
 */

/** The four 32-bit xoshiro128** state words (unsigned). */
export type RngState = [number, number, number, number];

/** A generator's methods read its state through `this`: call them on it (bind one to pass it on). */
export interface Rng {
  /** Next raw 32-bit output as an unsigned integer in [0, 2^32). */
  nextUint32(): number;
  /** Uniform float in [0, 1) from one draw (32 bits of resolution). */
  nextFloat(): number;
  /**
   * Uniform integer in [0, bound) by scaling one draw: floor(u · bound / 2^32). The bias is at most
   * bound / 2^32 (2.3e-5 relative for 100,000 items), negligible for resampling, and the arithmetic
   * is exact IEEE-754, so results stay reproducible.
   */
  nextInt(bound: number): number;
  /** Uniform float in [0, 1) from two draws (53 bits), as Python's `random.random()` builds it. */
  random(): number;
  /** Exactly uniform integer in [lo, hi], both inclusive (rejection sampling). */
  int(lo: number, hi: number): number;
  /** One element, exactly uniform. */
  choice<T>(items: readonly T[]): T;
  /** Fisher–Yates in place (from the end, exact draws); returns `items`. */
  shuffle<T>(items: T[]): T[];
  /** k distinct elements in random order (like Python's random.sample). */
  sample<T>(items: readonly T[], k: number): T[];
  /** Copy of the current state words. */
  state(): RngState;
}

const MASK64 = (1n << 64n) - 1n;
const INV_2_32 = 1 / 4294967296;

/** A SplitMix64 stream, used only for seeding (BigInt is too slow for the hot path). */
export function createSplitMix64(seed: bigint): () => bigint {
  let state = BigInt.asUintN(64, seed);
  return () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  };
}

/**
 * Expands an integer seed into the four xoshiro128** state words (Vigna's recommended seeding: two
 * SplitMix64 outputs, low word first; never all zero).
 */
export function seedState(seed: number): RngState {
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`seed must be a non-negative safe integer, got ${String(seed)}`);
  }
  const next = createSplitMix64(BigInt(seed));
  const a = next();
  const b = next();
  const words: RngState = [Number(a & 0xffffffffn), Number(a >> 32n), Number(b & 0xffffffffn), Number(b >> 32n)];
  // SplitMix64 is a bijection per step, so an all-zero state is practically impossible; guard anyway.
  if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1;
  return words;
}

/** The state words for a string key: the first 16 bytes of its SHA-256, little-endian words. */
export function seedStateFromKey(key: string): RngState {
  const digest = createHash("sha256").update(key).digest();
  const words: RngState = [digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12)];
  if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1;
  return words;
}

/**
 * A xoshiro128** generator seeded from an integer (via SplitMix64), a string key (via SHA-256), or
 * four explicit state words (not all zero).
 */
export function createRng(seed: number | string | readonly [number, number, number, number]): Rng {
  const init = typeof seed === "number" ? seedState(seed) : typeof seed === "string" ? seedStateFromKey(seed) : seed;
  return new Xoshiro128(init);
}

/**
 * The state lives in an Int32Array (signed words: the same bits as unsigned ones) rather than in
 * closure variables, where every update of a word beyond the small-integer range allocated a heap
 * number — generators run millions of draws (a spatial dataset makes one per canvas). Exact draws
 * reduce with an integer quotient instead of a floating-point `%` (fmod); the results are the same.
 */
class Xoshiro128 implements Rng {
  private readonly s = new Int32Array(4);

  constructor(init: readonly [number, number, number, number]) {
    const s = this.s;
    s[0] = init[0];
    s[1] = init[1];
    s[2] = init[2];
    s[3] = init[3];
    if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) throw new RangeError("xoshiro128** state must not be all zero");
  }

  nextUint32(): number {
    const s = this.s;
    const s0 = s[0]!;
    const s1 = s[1]!;
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    const s2 = s[2]! ^ s0;
    const s3 = s[3]! ^ s1;
    s[1] = s1 ^ s2;
    s[0] = s0 ^ s3;
    s[2] = s2 ^ t;
    s[3] = (s3 << 11) | (s3 >>> 21);
    return result;
  }

  nextFloat(): number {
    return this.nextUint32() * INV_2_32;
  }

  nextInt(bound: number): number {
    if (!Number.isInteger(bound) || bound < 1 || bound > 2 ** 31) {
      throw new RangeError(`bound must be an integer in [1, 2^31], got ${String(bound)}`);
    }
    return Math.floor(this.nextUint32() * INV_2_32 * bound);
  }

  random(): number {
    const hi = this.nextUint32() >>> 5;
    const lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Exactly uniform in [0, n): rejection keeps every value equally likely. */
  private below(n: number): number {
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`random range must be a positive integer, got ${n}`);
    const limit = Math.floor(4294967296 / n) * n;
    for (;;) {
      const x = this.nextUint32();
      // x % n: the quotient of two integers below 2^32 is exact after floor, and so is the product.
      if (x < limit) return x - Math.floor(x / n) * n;
    }
  }

  int(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }

  choice<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("cannot choose from an empty list");
    return items[this.below(items.length)] as T;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }

  sample<T>(items: readonly T[], k: number): T[] {
    if (k > items.length) throw new RangeError(`sample of ${k} from ${items.length} items`);
    const pool = [...items];
    const out: T[] = [];
    for (let i = 0; i < k; i++) {
      const j = i + this.below(pool.length - i);
      const tmp = pool[i] as T;
      pool[i] = pool[j] as T;
      pool[j] = tmp;
      out.push(pool[i] as T);
    }
    return out;
  }

  state(): RngState {
    const s = this.s;
    return [s[0]! >>> 0, s[1]! >>> 0, s[2]! >>> 0, s[3]! >>> 0];
  }
}

/**
 * mulberry32 (Tommy Ettinger): floats in [0, 1) with 32 bits of resolution from a single word of
 * state. Small and fast; statistically weaker than xoshiro128**, so new code should use
 * {@link createRng}. Kept for the streams that stored outputs depend on.
 */
export function mulberry32(seed: number): () => number {
  // The state lives in a typed array: a closure variable holding a uint32 above the small-integer
  // range would be boxed as a new heap number on every draw (millions per task in the engine).
  const state = new Uint32Array(1);
  state[0] = seed >>> 0;
  return () => {
    state[0] = state[0]! + 0x6d2b79f5;
    let t = state[0]!;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 32-bit FNV-1a over UTF-16 code units: a stable hash for deriving seeds and per-token values. */
export function hashString32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const MT_N = 624;
const MT_M = 397;
const MT_UPPER = 0x80000000;
const MT_LOWER = 0x7fffffff;
const MT_MATRIX_A = 0x9908b0df;

/**
 * MT19937 as seeded by numpy's legacy `np.random.seed(int)` (Matsumoto & Nishimura's
 * `init_genrand`), plus the two numpy `RandomState` draws SEA-HELM relies on:
 * `randint(0, n)` (masked rejection sampling on 32-bit outputs) and `random_sample()`.
 * Reproducing them lets the bootstrap median of ROUGE-L match upstream's `np.random.seed(4156)`.
 */
export class Mt19937 {
  private readonly mt = new Uint32Array(MT_N);
  private index = MT_N;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`MT19937 seed must be an integer in [0, 2^32 - 1], got ${String(seed)}`);
    }
    this.mt[0] = seed >>> 0;
    for (let i = 1; i < MT_N; i++) {
      const prev = this.mt[i - 1]!;
      const x = (prev ^ (prev >>> 30)) >>> 0;
      // 1812433253 * x + i modulo 2^32 (Math.imul keeps it exact).
      this.mt[i] = (Math.imul(1812433253, x) + i) >>> 0;
    }
  }

  /**
   * MT19937 seeded by `init_by_array(key)`, as CPython's `random.seed(int)` does (the key is the
   * seed's 32-bit words, least significant first). See `python-random.ts`.
   */
  static fromKey(key: readonly number[]): Mt19937 {
    const m = new Mt19937(19650218);
    const mt = m.mt;
    const len = Math.max(key.length, 1);
    let i = 1;
    let j = 0;
    for (let k = Math.max(MT_N, len); k > 0; k--) {
      const prev = mt[i - 1]!;
      const x = (prev ^ (prev >>> 30)) >>> 0;
      mt[i] = ((mt[i]! ^ Math.imul(x, 1664525)) + (key[j] ?? 0) + j) >>> 0;
      i++;
      j++;
      if (i >= MT_N) {
        mt[0] = mt[MT_N - 1]!;
        i = 1;
      }
      if (j >= len) j = 0;
    }
    for (let k = MT_N - 1; k > 0; k--) {
      const prev = mt[i - 1]!;
      const x = (prev ^ (prev >>> 30)) >>> 0;
      mt[i] = ((mt[i]! ^ Math.imul(x, 1566083941)) - i) >>> 0;
      i++;
      if (i >= MT_N) {
        mt[0] = mt[MT_N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    return m;
  }

  /** The next 32-bit output (genrand_int32). */
  nextUint32(): number {
    if (this.index >= MT_N) this.twist();
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  private twist(): void {
    const mt = this.mt;
    for (let k = 0; k < MT_N; k++) {
      const y = (mt[k]! & MT_UPPER) | (mt[(k + 1) % MT_N]! & MT_LOWER);
      mt[k] = mt[(k + MT_M) % MT_N]! ^ (y >>> 1) ^ (y & 1 ? MT_MATRIX_A : 0);
    }
    this.index = 0;
  }

  /** numpy `random_sample()`: a double in [0, 1) from two outputs (27 + 26 bits). */
  randomSample(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /**
   * numpy legacy `randint(0, n)` for n ≤ 2^32: draws 32-bit values, masks them with the smallest
   * all-ones mask covering n − 1, and rejects values above n − 1. n = 1 consumes no draw.
   */
  randint(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 0x100000000) {
      throw new RangeError(`randint bound must be an integer in [1, 2^32], got ${String(n)}`);
    }
    const rng = n - 1;
    if (rng === 0) return 0;
    if (rng === 0xffffffff) return this.nextUint32();
    let mask = rng;
    mask |= mask >>> 1;
    mask |= mask >>> 2;
    mask |= mask >>> 4;
    mask |= mask >>> 8;
    mask |= mask >>> 16;
    mask >>>= 0;
    for (;;) {
      const v = (this.nextUint32() & mask) >>> 0;
      if (v <= rng) return v;
    }
  }
}
