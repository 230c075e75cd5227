/** A small seeded PRNG (mulberry32): the order check must shuffle the same way on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A seeded Fisher–Yates shuffle that never returns the input order for two or more items (a shuffle
 * that happens to be the identity would make the order check vacuous).
 */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  if (out.length < 2) return out;
  const random = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  if (out.every((item, i) => item === items[i])) out.reverse();
  return out;
}
