import type { Rng, RngState } from "@yardstick/core";

const INV_2_32 = 1 / 4294967296;

/**
 * `createRng(state)` of @yardstick/core (xoshiro128**) with the same stream and the same results for
 * every method (tested), for the per-canvas generators: the state lives in an Int32Array rather than
 * in closure variables, where every update of a word beyond the small-integer range allocated a heap
 * number, and exact draws reduce with an integer quotient instead of a floating-point `%` (fmod).
 */
export class CanvasRng implements Rng {
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
