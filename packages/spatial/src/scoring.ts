import type { TaskName } from "./constants.js";

/**
 * Upstream's lenient scores. Every rule lowercases both texts. Upstream never caps the
 * transitivity and coordinate scores, so repeating the right word scores more than 1; `compat`
 * keeps that, otherwise scores are capped at 1.
 */
export interface LenientOptions {
  compat?: boolean;
}

const DIRECTIONS = ["left", "right", "above", "below"];
const NOUNS = ["square", "circle", "triangle"];

/** Keeps the text between the first and second occurrence of "answer:" (or else "a:"). */
export function trimAnswerToken(actual: string): string {
  for (const token of ["answer:", "a:"]) {
    if (actual.includes(token)) {
      const parts = actual.split(token);
      return parts.length > 1 ? parts[1]! : parts[0]!;
    }
  }
  return actual;
}

/** Whitespace tokens like Python's str.split(). */
function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== "");
}

export function defaultScore(expected: string, actual: string): number {
  return trimAnswerToken(actual.toLowerCase()).includes(expected.toLowerCase()) ? 1 : 0;
}

export function transitivityScore(expected: string, actual: string, options: LenientOptions = {}): number {
  const exp = expected.toLowerCase();
  let text = actual.toLowerCase();
  for (const line of text.split("\n")) {
    if (DIRECTIONS.some((d) => line.includes(d))) {
      text = line;
      break;
    }
  }
  if (text.includes("no ") || text.includes("not ")) return 0;
  let s = 0;
  for (const w of words(text)) if (DIRECTIONS.includes(w)) s += w === exp ? 1 : -0.5;
  s = Math.max(0, s);
  return options.compat ? s : Math.min(1, s);
}

export function coordinateScore(expected: string, actual: string, options: LenientOptions = {}): number {
  const text = trimAnswerToken(actual.toLowerCase());
  const expWords = words(expected.toLowerCase());
  const inc = expWords.length === 1 ? 1 : 0.5;
  let s = 0;
  for (const w of words(text)) if (DIRECTIONS.includes(w)) s += expWords.includes(w) ? inc : -0.5;
  s = Math.max(0, s);
  return options.compat ? s : Math.min(1, s);
}

export function shuffleScore(expected: string, actual: string): number {
  let text = actual.toLowerCase();
  let cut: number | undefined;
  for (const noun of NOUNS) {
    const at = text.indexOf(noun);
    if (at >= 0) cut = Math.min(cut ?? Number.POSITIVE_INFINITY, at + noun.length);
  }
  if (cut !== undefined) text = text.slice(0, cut + 1);
  return text.includes(expected.toLowerCase()) ? 1 : 0;
}

export function lenientScore(task: TaskName, expected: string, actual: string, options: LenientOptions = {}): number {
  switch (task) {
    case "transitivity":
      return transitivityScore(expected, actual, options);
    case "coordinate":
      return coordinateScore(expected, actual, options);
    case "shuffle_tracking":
      return shuffleScore(expected, actual);
    default:
      return defaultScore(expected, actual);
  }
}

/** Lowercase, the text after the last "answer:", first line, no surrounding punctuation, single spaces. */
export function normalizeAnswer(text: string): string {
  let t = text.toLowerCase();
  const at = t.lastIndexOf("answer:");
  if (at >= 0) t = t.slice(at + "answer:".length);
  t = t.trim().split("\n")[0] ?? "";
  t = t.replace(/[*_`"'“”‘’]/g, "");
  t = t.replace(/^[\s.,;:!?()[\]]+|[\s.,;:!?()[\]]+$/g, "");
  t = t.replace(/^(?:a|an|the)\s+/, "");
  return t.replace(/\s+/g, " ");
}

export function strictScore(expected: string, actual: string): number {
  return normalizeAnswer(actual) === normalizeAnswer(expected) ? 1 : 0;
}
