/**
 * numpy's `Generator` stream as `np.random.default_rng(seed)` builds it: a SeedSequence spreads the
 * integer seed into four 64-bit words, which seed a PCG64 (128-bit LCG, XSL-RR output). Implemented
 * here because SEA-HELM's leaderboard bootstrap draws with `default_rng(94370244)`, and its numbers
 * are reproduced only by the same stream. 128-bit arithmetic uses BigInt: slow, but the bootstrap
 * draws a few hundred thousand numbers at most.
 */

const MASK32 = 0xffffffffn;
const MASK64 = (1n << 64n) - 1n;
const MASK128 = (1n << 128n) - 1n;
const PCG_MULTIPLIER = 0x2360ed051fc65da44385df649fccf645n;

// SeedSequence's hash constants (O'Neill's seed_seq_fe design as numpy adopts it).
const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const POOL_SIZE = 4;

/** The seed's 32-bit words, least significant first (numpy's coercion of a non-negative int). */
function entropyWords(seed: bigint): number[] {
  if (seed < 0n) throw new RangeError("a numpy seed must be non-negative");
  const words: number[] = [];
  let rest = seed;
  do {
    words.push(Number(rest & MASK32));
    rest >>= 32n;
  } while (rest > 0n);
  return words;
}

/** `SeedSequence(seed).generate_state(n, uint64)`: n 64-bit words. */
export function seedSequenceState(seed: number | bigint, nWords64: number): bigint[] {
  const entropy = entropyWords(BigInt(seed));
  let hashConst = INIT_A;
  const hashmix = (value: number): number => {
    let v = (value ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_A) >>> 0;
    v = Math.imul(v, hashConst) >>> 0;
    return (v ^ (v >>> 16)) >>> 0;
  };
  const mix = (x: number, y: number): number => {
    const r = (Math.imul(MIX_MULT_L, x) - Math.imul(MIX_MULT_R, y)) >>> 0;
    return (r ^ (r >>> 16)) >>> 0;
  };
  const pool: number[] = [];
  for (let i = 0; i < POOL_SIZE; i++) pool.push(hashmix(entropy[i] ?? 0));
  for (let src = 0; src < POOL_SIZE; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) if (src !== dst) pool[dst] = mix(pool[dst]!, hashmix(pool[src]!));
  }
  for (let src = POOL_SIZE; src < entropy.length; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) pool[dst] = mix(pool[dst]!, hashmix(entropy[src]!));
  }
  let outConst = INIT_B;
  const words32: number[] = [];
  for (let i = 0; i < nWords64 * 2; i++) {
    let v = (pool[i % POOL_SIZE]! ^ outConst) >>> 0;
    outConst = Math.imul(outConst, MULT_B) >>> 0;
    v = Math.imul(v, outConst) >>> 0;
    words32.push((v ^ (v >>> 16)) >>> 0);
  }
  const out: bigint[] = [];
  for (let i = 0; i < nWords64; i++) out.push((BigInt(words32[2 * i + 1]!) << 32n) | BigInt(words32[2 * i]!));
  return out;
}

/** numpy's `Generator(PCG64(seed))`: the draws SEA-HELM's aggregation uses. */
export class NumpyGenerator {
  private state: bigint;
  private readonly inc: bigint;
  /** PCG64 hands out 32-bit draws in pairs: the high half of a 64-bit output waits here. */
  private pendingHigh: number | undefined;

  constructor(seed: number | bigint) {
    const [s0, s1, i0, i1] = seedSequenceState(seed, 4) as [bigint, bigint, bigint, bigint];
    const initState = (s0 << 64n) | s1;
    const initSeq = (i0 << 64n) | i1;
    this.inc = ((initSeq << 1n) | 1n) & MASK128;
    this.state = 0n;
    this.step();
    this.state = (this.state + initState) & MASK128;
    this.step();
  }

  private step(): void {
    this.state = (this.state * PCG_MULTIPLIER + this.inc) & MASK128;
  }

  /** One raw 64-bit output (XSL-RR of the stepped state). */
  nextUint64(): bigint {
    this.step();
    const xored = ((this.state >> 64n) ^ this.state) & MASK64;
    const rot = this.state >> 122n;
    return ((xored >> rot) | (xored << ((64n - rot) & 63n))) & MASK64;
  }

  /** One 32-bit output: the low half of a fresh 64-bit draw, then its high half. */
  nextUint32(): number {
    if (this.pendingHigh !== undefined) {
      const high = this.pendingHigh;
      this.pendingHigh = undefined;
      return high;
    }
    const next = this.nextUint64();
    this.pendingHigh = Number(next >> 32n);
    return Number(next & MASK32);
  }

  /** `random()`: a double in [0, 1) from the top 53 bits of one 64-bit draw. */
  random(): number {
    return Number(this.nextUint64() >> 11n) / 9007199254740992;
  }

  /** `random(size=n)`. */
  randomArray(n: number): number[] {
    return Array.from({ length: n }, () => this.random());
  }

  /**
   * `integers(low, high, size=n)` (int64, high exclusive) for ranges up to 2^32: Lemire's bounded
   * method over 32-bit draws, as numpy does; a range of one value draws nothing.
   */
  integers(low: number, high: number, n: number): number[] {
    const range = high - 1 - low;
    if (!Number.isInteger(low) || !Number.isInteger(high) || range < 0) throw new RangeError(`integers: empty range [${low}, ${high})`);
    if (range > 0xffffffff) throw new RangeError("integers: ranges above 2^32 are not implemented");
    const out: number[] = new Array(n);
    if (range === 0) return out.fill(low);
    if (range === 0xffffffff) {
      for (let i = 0; i < n; i++) out[i] = low + this.nextUint32();
      return out;
    }
    const rangeExcl = BigInt(range + 1);
    const threshold = BigInt((0xffffffff - range) % (range + 1));
    for (let i = 0; i < n; i++) {
      let m = BigInt(this.nextUint32()) * rangeExcl;
      let leftover = m & MASK32;
      if (leftover < rangeExcl) {
        while (leftover < threshold) {
          m = BigInt(this.nextUint32()) * rangeExcl;
          leftover = m & MASK32;
        }
      }
      out[i] = low + Number(m >> 32n);
    }
    return out;
  }
}
