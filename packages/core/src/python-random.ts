/**
 * Python's `random.Random(seed)` for integer seeds: the same MT19937 stream (seeded by
 * `init_by_array`) and the same `getrandbits`, `_randbelow`, `random()` and `sample()` draws, so
 * choices made by upstream Python code under a fixed seed can be reproduced.
 */
import { Mt19937 } from "./random.js";

/** The 32-bit words of |seed|, least significant first (CPython's `random_seed` for ints). */
function seedKey(seed: number): number[] {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`Python random seed must be a safe integer, got ${String(seed)}`);
  let n = BigInt(Math.abs(seed));
  const key: number[] = [];
  while (n > 0n) {
    key.push(Number(n & 0xffffffffn));
    n >>= 32n;
  }
  return key.length === 0 ? [0] : key;
}

export class PythonRandom {
  private readonly mt: Mt19937;

  constructor(seed: number) {
    this.mt = Mt19937.fromKey(seedKey(seed));
  }

  /** `getrandbits(k)` for 0 ≤ k ≤ 32. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0 || k > 32) throw new RangeError(`getrandbits supports 0..32 bits here, got ${String(k)}`);
    if (k === 0) return 0;
    return this.mt.nextUint32() >>> (32 - k);
  }

  /** `_randbelow_with_getrandbits(n)`: rejection sampling on n.bit_length() bits. */
  randbelow(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > 0xffffffff) throw new RangeError(`randbelow needs 1 ≤ n < 2^32, got ${String(n)}`);
    const bits = 32 - Math.clz32(n);
    let r = this.getrandbits(bits);
    while (r >= n) r = this.getrandbits(bits);
    return r;
  }

  /** `random()`: 53 bits from two outputs. */
  random(): number {
    const a = this.mt.nextUint32() >>> 5;
    const b = this.mt.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `sample(population, k)` for a sequence: the pool algorithm for small populations, set tracking otherwise. */
  sample<T>(population: readonly T[], k: number): T[] {
    return this.sampleRange(population.length, k).map((i) => population[i]!);
  }

  /** `sample(range(n), k)`: k distinct integers of [0, n) in CPython's draw order, without building the range. */
  sampleRange(n: number, k: number): number[] {
    if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError("Sample larger than population or is negative");
    const result: number[] = new Array(k);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = Array.from({ length: n }, (_, i) => i);
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j]!;
        pool[j] = pool[n - i - 1]!;
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = j;
      }
    }
    return result;
  }

  /** `randint(a, b)`, both ends included. */
  randint(a: number, b: number): number {
    return a + this.randbelow(b - a + 1);
  }

  /** `choice(seq)`. */
  choice<T>(seq: readonly T[]): T {
    if (seq.length === 0) throw new RangeError("cannot choose from an empty sequence");
    return seq[this.randbelow(seq.length)]!;
  }

  /** `shuffle(x)` in place. */
  shuffle<T>(x: T[]): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const t = x[i]!;
      x[i] = x[j]!;
      x[j] = t;
    }
  }
}
