/**
 * The two sklearn scores F1AccMetric uses, written out for string labels:
 * `balanced_accuracy_score` and `f1_score(average="macro")` with zero_division treated as 0.
 */

/** Mean recall over the classes present in `gold` (predicted-only classes are ignored, as in sklearn). */
export function balancedAccuracy(gold: readonly string[], pred: readonly string[]): number {
  const support = new Map<string, number>();
  const hits = new Map<string, number>();
  gold.forEach((g, i) => {
    support.set(g, (support.get(g) ?? 0) + 1);
    if (pred[i] === g) hits.set(g, (hits.get(g) ?? 0) + 1);
  });
  let sum = 0;
  for (const [label, n] of support) sum += (hits.get(label) ?? 0) / n;
  return sum / support.size;
}

/**
 * Macro F1 over `labels`; when `labels` is omitted, over the sorted union of gold and predicted
 * labels (sklearn's default). A class with no true or predicted member scores 0.
 */
export function macroF1(gold: readonly string[], pred: readonly string[], labels?: readonly string[]): number {
  const set = labels ?? unionOf(gold, pred).sort();
  if (set.length === 0) return 0;
  let sum = 0;
  for (const label of set) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    gold.forEach((g, i) => {
      const p = pred[i];
      if (p === label && g === label) tp++;
      else if (p === label) fp++;
      else if (g === label) fn++;
    });
    const denom = 2 * tp + fp + fn;
    sum += denom === 0 ? 0 : (2 * tp) / denom;
  }
  return sum / set.length;
}

/** The distinct labels of both lists (no spread copy of them: they may hold a million labels). */
function unionOf(gold: readonly string[], pred: readonly string[]): string[] {
  const seen = new Set(gold);
  for (const p of pred) seen.add(p);
  return [...seen];
}
