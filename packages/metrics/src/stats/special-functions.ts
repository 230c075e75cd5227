/**
 * The few special functions the tests need, in double precision (relative error around 1e-14 in the
 * ranges used here). Written from the textbook series/continued-fraction definitions.
 */

// Lanczos approximation (g = 7, n = 9), accurate to ~1e-15 for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

const EPS = 1e-16;
const TINY = 1e-300;

/** Regularised upper incomplete gamma Q(s, x) = Γ(s, x) / Γ(s), for s > 0, x ≥ 0. */
export function gammaQ(s: number, x: number): number {
  if (x <= 0) return 1;
  const logPrefix = s * Math.log(x) - x - lnGamma(s);
  if (x < s + 1) {
    // Series for the lower function P, then Q = 1 − P.
    let term = 1 / s;
    let sum = term;
    for (let k = 1; k < 10_000; k++) {
      term *= x / (s + k);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    return Math.max(0, 1 - sum * Math.exp(logPrefix));
  }
  // Continued fraction for Q (modified Lentz).
  let b = x + 1 - s;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - s);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.min(1, Math.exp(logPrefix) * h);
}

/** Upper tail P(X ≥ x) of a chi-square distribution with `df` degrees of freedom. */
export function chiSquareSurvival(x: number, df: number): number {
  return gammaQ(df / 2, x / 2);
}

/**
 * P(X ≤ k) for X ~ Binomial(n, 1/2). Up to n = 1000 the terms are built by the exact ratio
 * C(n, i+1) = C(n, i)·(n − i)/(i + 1) starting from 2^−n (representable down to n ≈ 1074); beyond
 * that each term is taken in log space.
 */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let total = 0;
  if (n <= 1000) {
    let term = 2 ** -n;
    for (let i = 0; i <= k; i++) {
      total += term;
      term = (term * (n - i)) / (i + 1);
    }
    return Math.min(1, total);
  }
  const lnHalfN = -n * Math.LN2;
  const lnFactN = lnGamma(n + 1);
  for (let i = 0; i <= k; i++) {
    total += Math.exp(lnFactN - lnGamma(i + 1) - lnGamma(n - i + 1) + lnHalfN);
  }
  return Math.min(1, total);
}
