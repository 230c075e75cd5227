/**
 * A seeded random generator that draws the same numbers as CPython's `random.Random(int_seed)`
 * (MT19937 seeded by `init_by_array`, `_randbelow` by rejection on `getrandbits`). SEA-HELM's
 * generated tasks (NIAH, CWE) derive every choice from such generators, so using the same stream
 * makes the seed-only parts of their data (per-sample seeds, word orders, needle picks) equal to
 * upstream's. Only the methods those generators use are here.
 */

const N = 624;
const M = 397;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;
const MATRIX_A = 0x9908b0df;

export class PythonRandom {
  private readonly mt = new Uint32Array(N);
  private index = N + 1;

  /** `seed` is a non-negative integer below 2**53 (Python seeds with its absolute value). */
  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
    let n = Math.abs(seed);
    // Python splits the seed into 32-bit words, least significant first; 0 is the single word 0.
    const key: number[] = [];
    do {
      key.push(n % 2 ** 32);
      n = Math.floor(n / 2 ** 32);
    } while (n > 0);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]!;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
    this.index = N;
  }

  private initByArray(key: number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private twist(): void {
    const mt = this.mt;
    for (let kk = 0; kk < N; kk++) {
      const y = (mt[kk]! & UPPER_MASK) | (mt[(kk + 1) % N]! & LOWER_MASK);
      mt[kk] = (mt[(kk + M) % N]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0)) >>> 0;
    }
    this.index = 0;
  }

  /** The next 32-bit output (`genrand_uint32`). */
  uint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.random()`: 53 random bits as a float in [0, 1). */
  random(): number {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `getrandbits(k)` for 0 < k <= 32. */
  private getrandbits(k: number): number {
    return this.uint32() >>> (32 - k);
  }

  /** `_randbelow(n)`: uniform in [0, n), n <= 2**32, by rejection sampling as CPython does. */
  randbelow(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > 2 ** 32) throw new RangeError(`randbelow needs 0 < n <= 2**32, got ${n}`);
    const k = Math.floor(Math.log2(n)) + 1; // n.bit_length()
    let r = k > 32 ? this.uint32() : this.getrandbits(k);
    while (r >= n) r = k > 32 ? this.uint32() : this.getrandbits(k);
    return r;
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

  /** `sample(range(n), k)`: k distinct integers of [0, n), in CPython's draw order. */
  sampleRange(n: number, k: number): number[] {
    if (k < 0 || k > n) throw new RangeError(`sample larger than population or negative (k=${k}, n=${n})`);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    const result: number[] = [];
    if (n <= setsize) {
      const pool = Array.from({ length: n }, (_, i) => i);
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result.push(pool[j]!);
        pool[j] = pool[n - i - 1]!;
      }
      return result;
    }
    const selected = new Set<number>();
    for (let i = 0; i < k; i++) {
      let j = this.randbelow(n);
      while (selected.has(j)) j = this.randbelow(n);
      selected.add(j);
      result.push(j);
    }
    return result;
  }
}
