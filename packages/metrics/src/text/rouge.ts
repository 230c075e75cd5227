/**
 * google-research `rouge-score` compatible ROUGE-N, ROUGE-L and ROUGE-Lsum (`RougeScorer`
 * semantics, default tokenizer). Values are 0–1 like rouge-score's.
 */
import { createPorterStemmer } from "./porter-stemmer.js";

export interface RougeValue {
  precision: number;
  recall: number;
  fmeasure: number;
}

export type RougeType = string; // "rouge1".."rouge9", "rougeL", "rougeLsum"
export const DEFAULT_ROUGE_TYPES: readonly RougeType[] = ["rouge1", "rouge2", "rougeL", "rougeLsum"];

const ROUGE_N = /^rouge([1-9])$/;

export function isRougeType(t: string): boolean {
  return t === "rougeL" || t === "rougeLsum" || ROUGE_N.test(t);
}

const NON_ALNUM = /[^a-z0-9]+/g;

/**
 * rouge-score's default tokenizer: lowercase, every run of characters outside [a-z0-9] becomes a
 * space, split, optionally Porter-stem tokens longer than 3 characters, drop empty tokens.
 * Non-ASCII letters therefore vanish (Thai, Chinese, accented letters...), exactly as upstream.
 */
export function rougeTokenize(text: string, stem?: (w: string) => string): string[] {
  const parts = text.toLowerCase().replace(NON_ALNUM, " ").split(" ");
  const out: string[] = [];
  for (const p of parts) {
    if (p === "") continue;
    const tok = stem !== undefined && p.length > 3 ? stem(p) : p;
    // Stemming only edits letters, so `tok` is still [a-z0-9]*; drop it if it became empty.
    if (tok !== "") out.push(tok);
  }
  return out;
}

export function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

function scoreNgrams(target: readonly string[], prediction: readonly string[], n: number): RougeValue {
  const count = (tokens: readonly string[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (let i = 0; i + n <= tokens.length; i++) {
      const key = n === 1 ? tokens[i]! : tokens.slice(i, i + n).join(" ");
      m.set(key, (m.get(key) ?? 0) + 1);
    }
    return m;
  };
  const t = count(target);
  const p = count(prediction);
  let overlap = 0;
  let tTotal = 0;
  let pTotal = 0;
  for (const [k, c] of t) {
    overlap += Math.min(c, p.get(k) ?? 0);
    tTotal += c;
  }
  for (const c of p.values()) pTotal += c;
  const precision = overlap / Math.max(pTotal, 1);
  const recall = overlap / Math.max(tTotal, 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** Maps tokens to small integers so the LCS inner loop compares numbers. */
function intern(dict: Map<string, number>, tokens: readonly string[]): Int32Array {
  const out = new Int32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    let id = dict.get(t);
    if (id === undefined) {
      id = dict.size;
      dict.set(t, id);
    }
    out[i] = id;
  }
  return out;
}

/** LCS length with two rolling rows. */
export function lcsLength(a: Int32Array, b: Int32Array): number {
  const cols = b.length;
  let prev = new Int32Array(cols + 1);
  let cur = new Int32Array(cols + 1);
  for (let i = 1; i <= a.length; i++) {
    const ai = a[i - 1]!;
    for (let j = 1; j <= cols; j++) {
      if (ai === b[j - 1]) cur[j] = prev[j - 1]! + 1;
      else {
        const up = prev[j]!;
        const left = cur[j - 1]!;
        cur[j] = Math.max(up, left);
      }
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[cols]!;
}

/** Indices into `ref` of one LCS, read back the way rouge-score does (prefers moving up on ties). */
export function lcsIndices(ref: Int32Array, can: Int32Array): number[] {
  const rows = ref.length;
  const cols = can.length;
  const w = cols + 1;
  const t = new Int32Array((rows + 1) * w);
  for (let i = 1; i <= rows; i++) {
    const ri = ref[i - 1]!;
    for (let j = 1; j <= cols; j++) {
      if (ri === can[j - 1]) t[i * w + j] = t[(i - 1) * w + j - 1]! + 1;
      else {
        const up = t[(i - 1) * w + j]!;
        const left = t[i * w + j - 1]!;
        t[i * w + j] = Math.max(up, left);
      }
    }
  }
  const out: number[] = [];
  let i = rows;
  let j = cols;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      out.push(i - 1);
      i--;
      j--;
    } else if (t[i * w + j - 1]! > t[(i - 1) * w + j]!) j--;
    else i--;
  }
  return out.reverse();
}

function scoreLcs(target: readonly string[], prediction: readonly string[]): RougeValue {
  if (target.length === 0 || prediction.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const dict = new Map<string, number>();
  const lcs = lcsLength(intern(dict, target), intern(dict, prediction));
  const precision = lcs / prediction.length;
  const recall = lcs / target.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

/** Summary-level LCS (ROUGE paper §3.2) with ROUGE-1.5.5's guard against counting a token twice. */
export function summaryLevelLcs(refSents: readonly (readonly string[])[], canSents: readonly (readonly string[])[]): RougeValue {
  const zero = { precision: 0, recall: 0, fmeasure: 0 };
  if (refSents.length === 0 || canSents.length === 0) return zero;
  let m = 0;
  let n = 0;
  for (const s of refSents) m += s.length;
  for (const s of canSents) n += s.length;
  if (m === 0 || n === 0) return zero;
  const dict = new Map<string, number>();
  const refIds = refSents.map((s) => intern(dict, s));
  const canIds = canSents.map((s) => intern(dict, s));
  const refCounts = new Int32Array(dict.size);
  const canCounts = new Int32Array(dict.size);
  for (const s of refIds) for (const id of s) refCounts[id]!++;
  for (const s of canIds) for (const id of s) canCounts[id]!++;
  let hits = 0;
  for (const r of refIds) {
    const union = new Set<number>();
    for (const c of canIds) for (const idx of lcsIndices(r, c)) union.add(idx);
    const sorted = [...union].sort((a, b) => a - b);
    for (const idx of sorted) {
      const tok = r[idx]!;
      if (canCounts[tok]! > 0 && refCounts[tok]! > 0) {
        hits++;
        canCounts[tok]!--;
        refCounts[tok]!--;
      }
    }
  }
  const recall = hits / m;
  const precision = hits / n;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

export interface RougeSettings {
  rougeTypes: readonly RougeType[];
  useStemmer: boolean;
}

export interface RougeScorer {
  readonly settings: RougeSettings;
  tokenize(text: string): string[];
  /** rouge-score `score(target, prediction)`. */
  score(target: string, prediction: string): Record<RougeType, RougeValue>;
  /** rouge-score `score_multi(targets, prediction)`: per type, the target with the best F (first on ties). */
  scoreMulti(targets: readonly string[], prediction: string): Record<RougeType, RougeValue>;
}

export function createRougeScorer(partial: Partial<RougeSettings> = {}): RougeScorer {
  const settings: RougeSettings = { rougeTypes: DEFAULT_ROUGE_TYPES, useStemmer: false, ...partial };
  for (const t of settings.rougeTypes) if (!isRougeType(t)) throw new RangeError(`invalid rouge type "${t}"`);
  const stem = settings.useStemmer ? createPorterStemmer() : undefined;
  const tokenize = (text: string): string[] => rougeTokenize(text, stem);
  // rouge-score splits Lsum summaries into sentences on "\n" and drops empty lines.
  const sentences = (text: string): string[][] =>
    text
      .split("\n")
      .filter((s) => s.length > 0)
      .map(tokenize);

  const score = (target: string, prediction: string): Record<RougeType, RougeValue> => {
    const result: Record<RougeType, RougeValue> = {};
    let t: string[] | undefined;
    let p: string[] | undefined;
    for (const type of settings.rougeTypes) {
      if (type === "rougeLsum") {
        result[type] = summaryLevelLcs(sentences(target), sentences(prediction));
        continue;
      }
      t ??= tokenize(target);
      p ??= tokenize(prediction);
      result[type] = type === "rougeL" ? scoreLcs(t, p) : scoreNgrams(t, p, Number(type.slice(5)));
    }
    return result;
  };

  return {
    settings,
    tokenize,
    score,
    scoreMulti(targets, prediction) {
      if (targets.length === 0) throw new RangeError("no targets to score against");
      const all = targets.map((t) => score(t, prediction));
      const out: Record<RougeType, RougeValue> = {};
      for (const type of settings.rougeTypes) {
        let best = all[0]![type]!;
        for (const s of all) if (s[type]!.fmeasure > best.fmeasure) best = s[type]!;
        out[type] = best;
      }
      return out;
    },
  };
}
