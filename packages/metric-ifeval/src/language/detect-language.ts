import { detectLatinLanguage } from "./latin-detector.js";
import { detectScript } from "./scripts.js";

export interface LanguageVerdict {
  /** ISO 639-1 code (e.g. "th", "id"), or "und" when the text gives no usable signal. */
  language: string;
  /** The dominant script ("Thai", "Latin", ...), "" for text without letters. */
  script: string;
}

/**
 * A small built-in language identifier standing in for SEA-HELM's fastText model: the dominant
 * script decides single-language scripts, and a function-word profile decides Latin-script text
 * among en, id, ms, vi, tl, jv and su. See the README for its accuracy limits.
 */
export function detectLanguage(text: string): LanguageVerdict {
  const verdict = detectScript(text);
  if (verdict.language !== "latin") return { language: verdict.language, script: verdict.script };
  return { language: detectLatinLanguage(text).language, script: verdict.script };
}

/** Indonesian and Malay are accepted for each other, as upstream does. */
const INTERCHANGEABLE: readonly (readonly string[])[] = [["id", "ms"]];

/** Whether a detected language counts as the expected one. */
export function languageMatches(detected: string, expected: string): boolean {
  if (detected === expected) return true;
  return INTERCHANGEABLE.some((group) => group.includes(detected) && group.includes(expected));
}
