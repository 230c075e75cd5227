/**
 * Gold and predicted labels of a classification task as small integer codes instead of string
 * arrays (a million samples: 8 MB of typed codes instead of 16 MB of pointers), with the counts
 * F1Acc needs in one pass. Codes follow first appearance, gold labels first, so sums over classes
 * run in the order the string versions in classification.ts use and give the same floats.
 */
export class LabelCodes {
  /** Label of each code. */
  readonly names: string[] = [];
  private readonly codes = new Map<string, number>();

  codeOf(label: string): number {
    let code = this.codes.get(label);
    if (code === undefined) {
      code = this.names.length;
      this.codes.set(label, code);
      this.names.push(label);
    }
    return code;
  }

  /** The code of a label seen before, or undefined. */
  known(label: string): number | undefined {
    return this.codes.get(label);
  }
}

/** Per-class counts of coded gold and predicted labels. */
export interface ClassCounts {
  support: Uint32Array;
  truePositives: Uint32Array;
  falsePositives: Uint32Array;
  falseNegatives: Uint32Array;
}

export function classCounts(gold: Uint32Array, pred: Uint32Array, classCount: number): ClassCounts {
  const counts = {
    support: new Uint32Array(classCount),
    truePositives: new Uint32Array(classCount),
    falsePositives: new Uint32Array(classCount),
    falseNegatives: new Uint32Array(classCount),
  };
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i]!;
    const p = pred[i]!;
    counts.support[g]!++;
    if (p === g) counts.truePositives[g]!++;
    else {
      counts.falsePositives[p]!++;
      counts.falseNegatives[g]!++;
    }
  }
  return counts;
}

/** Mean recall over the classes with gold support, in code order (`balancedAccuracy`). */
export function codedBalancedAccuracy(c: ClassCounts): number {
  let sum = 0;
  let present = 0;
  for (let k = 0; k < c.support.length; k++) {
    if (c.support[k] === 0) continue;
    sum += c.truePositives[k]! / c.support[k]!;
    present++;
  }
  return sum / present;
}

/** Macro F1 over the given classes, in the order given (`macroF1`). */
export function codedMacroF1(c: ClassCounts, classes: readonly number[]): number {
  if (classes.length === 0) return 0;
  let sum = 0;
  for (const k of classes) {
    const tp = c.truePositives[k]!;
    const denom = 2 * tp + c.falsePositives[k]! + c.falseNegatives[k]!;
    sum += denom === 0 ? 0 : (2 * tp) / denom;
  }
  return sum / classes.length;
}
