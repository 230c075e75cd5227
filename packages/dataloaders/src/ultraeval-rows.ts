/**
 * UltraEval rows (`make_dataset.py` output): one JSON object per line with `passage`, `question`,
 * `target_scores`, `answer` and dataset-specific keys. `target_scores` is read in file order even for
 * integer-like keys ("3", "10"), which `JSON.parse` would move to the front: its key order is taken
 * from the text itself.
 */
import { DataLoadError } from "@yardstick/core";
import { z } from "zod";

export const ultraEvalRowSchema = z.looseObject({
  /** A list holds lists in strategyqa's rows (its facts and decomposition). */
  passage: z.union([z.string(), z.array(z.union([z.string(), z.array(z.string())]))]).optional(),
  /** A list in wsc's and cluewsc's rows (the two spans: the noun, then the pronoun). */
  question: z.union([z.string(), z.array(z.string())]).optional(),
  /** Absent in some datasets' rows (bbh-cot's `{cot, input, answer}`): no options then. */
  target_scores: z.record(z.string(), z.number()).optional(),
  answer: z.unknown().optional(),
});

export interface UltraEvalRow {
  fields: Record<string, unknown>;
  /** `target_scores` as [option, score] pairs in file order. */
  targetScores: [string, number][];
}

/** Skips JSON whitespace from `i`. */
function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  return i;
}

/** The end (exclusive) of the JSON string starting at `i` (a quote). */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new Error("unterminated string");
}

/** The end (exclusive) of the JSON value starting at `i`; nested values are skipped by bracket depth. */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (d === '"') j = stringEnd(text, j) - 1;
      else if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    throw new Error("unterminated object or array");
  }
  let j = i;
  while (j < text.length && !",}] \t\r\n".includes(text[j]!)) j++;
  return j;
}

/** The keys of the top-level object's `target_scores` object, in the order the text gives them. */
export function targetScoresKeyOrder(line: string): string[] | undefined {
  let i = skipSpace(line, 0);
  if (line[i] !== "{") return undefined;
  i = skipSpace(line, i + 1);
  while (i < line.length && line[i] !== "}") {
    const keyEnd = stringEnd(line, i);
    const key = JSON.parse(line.slice(i, keyEnd)) as string;
    i = skipSpace(line, keyEnd);
    i = skipSpace(line, i + 1); // the colon
    const end = valueEnd(line, i);
    if (key === "target_scores") {
      if (line[i] !== "{") return undefined;
      const keys: string[] = [];
      let j = skipSpace(line, i + 1);
      while (j < end - 1 && line[j] !== "}") {
        const kEnd = stringEnd(line, j);
        keys.push(JSON.parse(line.slice(j, kEnd)) as string);
        j = skipSpace(line, kEnd);
        j = skipSpace(line, j + 1);
        j = skipSpace(line, valueEnd(line, j));
        if (line[j] === ",") j = skipSpace(line, j + 1);
      }
      return keys;
    }
    i = skipSpace(line, end);
    if (line[i] === ",") i = skipSpace(line, i + 1);
  }
  return undefined;
}

/** Parses and checks one row; the error names the file, line and key. */
export function parseUltraEvalRow(text: string, where: { file: string; line: number }): UltraEvalRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new DataLoadError(`not valid JSON: ${(cause as Error).message}`, { ...where, cause });
  }
  let fields = commonRow(value);
  if (fields === undefined) {
    const parsed = ultraEvalRowSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const key = issue.path.map(String).join(".") || "(row)";
      throw new DataLoadError(`not an UltraEval row: ${key}: ${issue.message}`, where);
    }
    fields = parsed.data;
  }
  const scores = fields.target_scores;
  if (scores === undefined) return { fields, targetScores: [] };
  // JSON.parse keeps text order except that integer-like keys go first; only then is the text read
  // again. Duplicate keys collapse (last wins, first position kept): the same for the order here.
  const keys = Object.keys(scores);
  const order = keys.some(isArrayIndex) ? [...new Set(targetScoresKeyOrder(text) ?? keys)] : keys;
  return { fields, targetScores: order.map((k) => [k, scores[k]!]) };
}

type UltraEvalRowFields = z.infer<typeof ultraEvalRowSchema>;

/**
 * The common row checked by hand (zod costs more than the rest of reading a row): string `passage`
 * and `question` (or absent) and numeric `target_scores`. Undefined for anything else, which the
 * schema then checks and explains.
 */
function commonRow(value: unknown): UltraEvalRowFields | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const row = value as Record<string, unknown>;
  if (row.passage !== undefined && typeof row.passage !== "string") return undefined;
  if (row.question !== undefined && typeof row.question !== "string") return undefined;
  const scores = row.target_scores;
  if (scores !== undefined) {
    if (typeof scores !== "object" || scores === null || Array.isArray(scores)) return undefined;
    for (const k in scores) if (typeof (scores as Record<string, unknown>)[k] !== "number") return undefined;
  }
  return row as UltraEvalRowFields;
}

/** Keys a JS object lists first, in numeric order: canonical array indices ("0", "10"; not "01"). */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}
