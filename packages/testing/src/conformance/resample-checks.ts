import type { CountedScore } from "@yardstick/core";

/**
 * What is wrong with a metric's `resampleByCounts` answer for task score `key` over `n` inputs: a
 * category per input, each below `categoryCount`, and the inputs' own counts scoring `expected`
 * (compute's value) within `tolerance`.
 */
export function countedScoreProblems(counted: CountedScore, n: number, key: string, expected: number, tolerance: number): string[] {
  const where = `resampleByCounts(…, "${key}")`;
  if (!(counted.categories instanceof Uint32Array)) return [`${where}: categories is not a Uint32Array`];
  if (counted.categories.length !== n) return [`${where}: ${counted.categories.length} categories for ${n} inputs`];
  if (!Number.isInteger(counted.categoryCount) || counted.categoryCount < 1) return [`${where}: categoryCount is ${counted.categoryCount}, expected a positive integer`];
  if (typeof counted.scoreOf !== "function") return [`${where}: scoreOf is not a function`];
  const counts = new Uint32Array(counted.categoryCount);
  for (const category of counted.categories) {
    if (category >= counted.categoryCount) return [`${where}: category ${category} is not below categoryCount ${counted.categoryCount}`];
    counts[category]!++;
  }
  const got = counted.scoreOf(counts);
  if (Number.isNaN(got) && Number.isNaN(expected)) return [];
  return Math.abs(got - expected) <= tolerance ? [] : [`${where}: the inputs' own counts score ${got}, but compute gives ${expected}`];
}
