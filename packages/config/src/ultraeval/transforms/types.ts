/** The shape of an UltraEval transform, ported: a record in, the prompt text and the gold answer out. */
import { DataLoadError } from "@yardstick/core";
import type { UltraEvalTransformBridge } from "../python-transform-bridge.js";

/** An UltraEval row with `target_scores` kept in file order (a JS object would reorder integer-like keys). */
export interface UltraEvalRecord {
  fields: Record<string, unknown>;
  targetScores: readonly (readonly [string, number])[];
}

export interface TransformContext {
  /** The renamed task name (`bbh_word-sorting_gen`): some transforms branch on it. */
  taskName: string;
  fewshot: number;
}

export interface TransformResult {
  /** The prompt for this record. */
  input: string;
  /** The gold continuation shown after `input` in few-shot examples (a list: its first item). */
  output: string | string[];
  /** What the metric compares with (upstream's `processed_output`). */
  processedOutput: string | string[];
}

export type UltraEvalTransform = (record: UltraEvalRecord, ctx: TransformContext) => TransformResult;

/** The UltraEval postprocess functions that ported transforms apply to gold answers. */
export type UltraEvalGoldPostName = "gsm8k_post" | "math_post" | "exact_match_post" | "common_math_post";

/**
 * Runs UltraEval's postprocess `name` (the `ultraeval:<name>` postprocessor) on a gold answer; an
 * upstream `None` is "". Injected, because the postprocessors live in another plugin package.
 */
export type UltraEvalGoldPostprocess = (name: UltraEvalGoldPostName, text: string) => string;

export interface UltraEvalTransformSettings {
  postprocess: UltraEvalGoldPostprocess;
  /** Runs the transforms without a port as the original Python files (`createPythonTransformBridge()`). */
  bridge?: UltraEvalTransformBridge;
}

/** The ported transforms, looked up by a config's `transform` path. */
export interface UltraEvalTransforms {
  /** The port of `transformPath` (`./` and backslashes allowed), or undefined when there is none. */
  get(transformPath: string): UltraEvalTransform | undefined;
  /** The python3 bridge for the transforms without a port, when one was configured. */
  readonly bridge?: UltraEvalTransformBridge;
}

/** A record that lacks a key the transform reads: a clear error naming the key. */
export function field(record: UltraEvalRecord, key: string): unknown {
  if (!Object.hasOwn(record.fields, key)) throw new DataLoadError(`the record has no "${key}", which the transform reads`);
  return record.fields[key];
}

/** Python `str(x)` for the values records hold (strings, numbers); lists and objects are refused. */
export function text(record: UltraEvalRecord, key: string): string {
  const v = field(record, key);
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isInteger(v)) return String(v);
  throw new DataLoadError(`the record's "${key}" is ${Array.isArray(v) ? "a list" : typeof v}, expected text`);
}

/** `list(target_scores.values()).index(1)`: the first correct option. */
export function correctIndex(record: UltraEvalRecord): number {
  const i = record.targetScores.findIndex(([, v]) => v === 1);
  if (i < 0) throw new DataLoadError("target_scores has no option scored 1");
  return i;
}

/** The first option scored 1, stripped (ppl transforms' gold). */
export function correctOption(record: UltraEvalRecord): string {
  return record.targetScores[correctIndex(record)]![0];
}

/** `(A)`, `(B)`, ...: option letters as `chr(65 + idx)`. */
export function letter(index: number): string {
  return String.fromCharCode(65 + index);
}

/** `data["passage"][0]` and `[1]`: the record's passage as a list of two texts (a sentence pair, a document and its summary). */
export function passagePair(record: UltraEvalRecord): [string, string] {
  const passage = field(record, "passage");
  const [first, second] = Array.isArray(passage) ? passage : [];
  if (typeof first !== "string" || typeof second !== "string") throw new DataLoadError('the record\'s "passage" must be a list of two texts');
  return [first, second];
}

/** `data["question"][0]` and `[1]`: rows whose question is a list of two texts (wsc's spans, multirc's question and claim). */
export function questionPair(record: UltraEvalRecord): [string, string] {
  const q = field(record, "question");
  const [first, second] = Array.isArray(q) ? q : [];
  if (typeof first !== "string" || typeof second !== "string") throw new DataLoadError('the record\'s "question" must be a list of two texts');
  return [first, second];
}

/** The record's answers: a text or a list of texts (upstream's ExactMatchPost takes either). */
function answers(r: UltraEvalRecord): string | string[] {
  const a = field(r, "answer");
  if (typeof a === "string" || (Array.isArray(a) && a.every((x) => typeof x === "string"))) return a;
  throw new DataLoadError('the record\'s "answer" must be a text or a list of texts');
}

/** The gold as upstream leaves it: the answers as given, and each through exact_match_post, in a list. */
export function exactMatchGold(r: UltraEvalRecord, post: UltraEvalGoldPostprocess): { output: string | string[]; processedOutput: string[] } {
  const a = answers(r);
  return { output: a, processedOutput: (typeof a === "string" ? [a] : a).map((x) => post("exact_match_post", x)) };
}

/** Gold as the stripped correct option, for output and processed output alike (most ppl transforms). */
export function strippedGold(record: UltraEvalRecord): { output: string; processedOutput: string } {
  const gold = correctOption(record).trim();
  return { output: gold, processedOutput: gold };
}

/**
 * Gold as the correct option's bare letter (`A`, no parentheses); with `lettersNamed`, a fixed answer
 * list of that many letters, past which upstream's `answers[index]` fails.
 */
export function letterGold(record: UltraEvalRecord, lettersNamed?: number): { output: string; processedOutput: string } {
  const i = correctIndex(record);
  if (lettersNamed !== undefined && i >= lettersNamed) {
    throw new DataLoadError(`the correct option is number ${i + 1}, but the transform names only ${lettersNamed} answers`);
  }
  return { output: letter(i), processedOutput: letter(i) };
}
