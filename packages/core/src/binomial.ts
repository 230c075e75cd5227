/**
 * Binomial and multinomial variates, exact in distribution. A bootstrap of scores that take a few
 * distinct values (0/1 correctness, a confusion-matrix cell) only needs how many times each value
 * is drawn, and those counts are one multinomial draw: a resample then costs a few binomial draws
 * instead of one random index per sample (a million samples: microseconds instead of milliseconds).
 */

/** A source of uniform floats in [0, 1), e.g. `createRng(seed).random.bind(rng)`. */
export type UniformSource = () => number;

/** Below this mean (of the smaller tail) a draw inverts the distribution function; above, BTRS. */
const INVERSION_LIMIT = 10;

/**
 * One Binomial(n, p) draw: n trials of success probability p. For n·min(p, 1 − p) < 10 by
 * sequential inversion of the distribution function; otherwise by Hörmann's transformed rejection
 * with squeeze (BTRS, "The generation of binomial random variates", 1993), O(1) expected uniforms.
 */
export function binomial(uniform: UniformSource, n: number, p: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`binomial: n must be a non-negative integer, got ${n}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`binomial: p must be in [0, 1], got ${p}`);
  if (n === 0 || p === 0) return 0;
  if (p === 1) return n;
  // Both methods want the smaller tail; the other is its mirror image.
  if (p > 0.5) return n - binomial(uniform, n, 1 - p);
  return n * p < INVERSION_LIMIT ? byInversion(uniform, n, p) : byTransformedRejection(uniform, n, p);
}

/** Walks the probabilities P(0), P(1), ... (each from the last by the pmf's ratio) until u is used up. */
function byInversion(uniform: UniformSource, n: number, p: number): number {
  const q = 1 - p;
  const ratio = p / q;
  const a = (n + 1) * ratio;
  const first = q ** n;
  for (;;) {
    let u = uniform();
    let pk = first;
    let k = 0;
    // Rounding can leave u above the sum of every P(k): such a u is drawn again.
    while (u > pk && pk > 0 && k < n) {
      u -= pk;
      k++;
      pk *= a / k - ratio;
    }
    if (u <= pk) return k;
  }
}

function byTransformedRejection(uniform: UniformSource, n: number, p: number): number {
  const spq = Math.sqrt(n * p * (1 - p));
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const alpha = (2.83 + 5.1 / b) * spq;
  const r = p / (1 - p);
  const m = Math.floor((n + 1) * p);
  // log f(m) up to the terms that depend on k, for the exact acceptance test.
  const logAtMode = (m + 0.5) * Math.log((m + 1) / (r * (n - m + 1))) + stirlingTail(m) + stirlingTail(n - m);
  for (;;) {
    const u = uniform() - 0.5;
    let v = uniform();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    // `!(...)` also rejects the NaN of us = 0.
    if (!(k >= 0 && k <= n)) continue;
    // Inside the box the hat and the distribution agree: accept without logarithms.
    if (us >= 0.07 && v <= vr) return k;
    v = Math.log((v * alpha) / (a / (us * us) + b));
    const bound =
      logAtMode +
      (n + 1) * Math.log((n - m + 1) / (n - k + 1)) +
      (k + 0.5) * Math.log((r * (n - k + 1)) / (k + 1)) -
      stirlingTail(k) -
      stirlingTail(n - k);
    if (v <= bound) return k;
  }
}

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/**
 * ln k! − [(k + ½)·ln(k + 1) − (k + 1) + ½·ln 2π], the error of Stirling's formula for ln (k+1)!/(k+1):
 * exact (from summed logarithms) below 10, the asymptotic series 1/12 − 1/360 + 1/1260 above.
 */
const SMALL_TAILS = Array.from({ length: 10 }, (_, k) => {
  let logFactorial = 0;
  for (let i = 2; i <= k; i++) logFactorial += Math.log(i);
  return logFactorial - ((k + 0.5) * Math.log(k + 1) - (k + 1) + HALF_LOG_2PI);
});

function stirlingTail(k: number): number {
  if (k < 10) return SMALL_TAILS[k]!;
  const kp1sq = (k + 1) * (k + 1);
  return (1 / 12 - (1 / 360 - 1 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

/**
 * One multinomial draw of n trials over categories weighted by `weights` (non-negative integers,
 * e.g. how often each category occurs in the sample being resampled), into `out` (same length): a
 * chain of binomials, each category's count given the trials the earlier ones left.
 */
export function multinomial(uniform: UniformSource, n: number, weights: ArrayLike<number>, out: Uint32Array): void {
  if (out.length !== weights.length) throw new RangeError(`multinomial: out has ${out.length} places for ${weights.length} weights`);
  let rest = 0;
  for (let j = 0; j < weights.length; j++) {
    const w = weights[j]!;
    if (!Number.isInteger(w) || w < 0) throw new RangeError(`multinomial: weights must be non-negative integers, got ${w} at ${j}`);
    rest += w;
  }
  if (rest === 0 && n > 0) throw new RangeError("multinomial: every weight is zero");
  let left = n;
  for (let j = 0; j < weights.length; j++) {
    const w = weights[j]!;
    // Integer weights keep `rest` exact, so the last weighted category gets p = 1: every trial is placed.
    const count = left === 0 || w === 0 ? 0 : binomial(uniform, left, w / rest);
    out[j] = count;
    left -= count;
    rest -= w;
  }
}
