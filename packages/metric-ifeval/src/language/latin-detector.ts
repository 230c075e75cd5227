import { FUNCTION_WORD_WEIGHTS, LATIN_LANGUAGES } from "./latin-profiles.js";

// Letters that only Vietnamese uses among the supported languages (ă ơ ư đ and the precomposed
// tone-marked vowels of the Latin Extended Additional block).
const VIETNAMESE_LETTER = /[ăơưđ\u1ea0-\u1ef9]/u;
const WORD = /[\p{L}\p{M}']+/gu;

/** Share of words that must be function words of the winner; below it the text is "und". */
const MIN_FUNCTION_WORD_SHARE = 0.05;

export interface LatinVerdict {
  language: string;
  /** Weighted function-word hits per language. */
  scores: Record<string, number>;
  wordCount: number;
}

/** Identifies a Latin-script text as one of en, id, ms, vi, tl, jv, su, or "und". */
export function detectLatinLanguage(text: string): LatinVerdict {
  const words = text.normalize("NFC").toLowerCase().match(WORD) ?? [];
  const scores: Record<string, number> = Object.fromEntries(LATIN_LANGUAGES.map((l) => [l, 0]));
  for (const raw of words) {
    const word = raw.replace(/^'+|'+$/g, "");
    for (const [language, weight] of FUNCTION_WORD_WEIGHTS.get(word) ?? []) scores[language] = (scores[language] ?? 0) + weight;
    // A Vietnamese-only letter is as strong a signal as a distinctive function word.
    if (VIETNAMESE_LETTER.test(word)) scores.vi = (scores.vi ?? 0) + 1;
  }
  let language = "und";
  let best = 0;
  for (const candidate of LATIN_LANGUAGES) {
    const score = scores[candidate] ?? 0;
    if (score > best) {
      best = score;
      language = candidate;
    }
  }
  if (best < Math.max(0.5, MIN_FUNCTION_WORD_SHARE * words.length)) language = "und";
  return { language, scores, wordCount: words.length };
}
