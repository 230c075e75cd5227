/**
 * MT19937 as seeded by numpy's legacy `np.random.seed(int)` (Matsumoto & Nishimura's
 * `init_genrand`), plus the two numpy `RandomState` draws SEA-HELM relies on:
 * `randint(0, n)` (masked rejection sampling on 32-bit outputs) and `random_sample()`.
 * Reproducing them lets the bootstrap median of ROUGE-L match upstream's `np.random.seed(4156)`.
 */
const N = 624;
const M = 397;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;
const MATRIX_A = 0x9908b0df;

export class Mt19937 {
  private readonly mt = new Uint32Array(N);
  private index = N;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`MT19937 seed must be an integer in [0, 2^32 - 1], got ${String(seed)}`);
    }
    this.mt[0] = seed >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = this.mt[i - 1]!;
      const x = (prev ^ (prev >>> 30)) >>> 0;
      // 1812433253 * x + i modulo 2^32, split to stay within exact double arithmetic.
      this.mt[i] = (Math.imul(1812433253, x) + i) >>> 0;
    }
  }

  /** The next 32-bit output (genrand_int32). */
  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  private twist(): void {
    const mt = this.mt;
    for (let k = 0; k < N; k++) {
      const y = (mt[k]! & UPPER) | (mt[(k + 1) % N]! & LOWER);
      mt[k] = mt[(k + M) % N]! ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
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
