import { pyStrip } from "@yardstick/core";
import { InstructionArgumentError, intArg, stringArg, stringListArg } from "../checkers/arguments.js";
import { constrainedResponse, highlightedSections, title } from "../checkers/detectable-format.js";
import { forbiddenWords } from "../checkers/keywords.js";
import type { Checker } from "../checkers/types.js";
import { countMatches, escapeRegExp } from "../text-patterns.js";
import { compareEnglish, englishRelationArg } from "./arguments.js";
import { countWords, splitIntoSentences, wordTokens } from "./sentences.js";

/**
 * The 25 instructions of google's IFEval (`instructions_registry.INSTRUCTION_DICT` as SEA-HELM
 * ships it). Where google's check equals one of SEA-IFEval's (title, highlighted sections,
 * constrained response in English, forbidden words) that checker is reused; the others differ in
 * details (sentence splitting, empty paragraphs, bullets without a space, substring keywords...)
 * and are written here after google's. Patterns that upstream splices in unescaped (keywords,
 * section splitters, postscript markers) are matched literally.
 */

const count = (text: string, pattern: RegExp) => countMatches(text, pattern);

/** Python's `str.isupper()` / `str.islower()`: some cased character, and none of the other case. */
const isUpper = (s: string) => s !== s.toLowerCase() && s === s.toUpperCase();
const isLower = (s: string) => s !== s.toUpperCase() && s === s.toLowerCase();
const hasLetter = (s: string) => /\p{L}/u.test(s);

/**
 * Whether the detected language is `expected`. Upstream's langdetect raises on text without
 * letters and the instruction then counts as followed; so it does here.
 */
function inLanguage(response: string, expected: string, detect: (text: string) => string): boolean {
  if (!hasLetter(response)) return true;
  return detect(response) === expected;
}

export const responseLanguage: Checker = (response, kwargs, ctx) => inLanguage(response, stringArg(kwargs, "language"), ctx.detectLanguage);

export const numberOfSentences: Checker = (response, kwargs) =>
  compareEnglish(splitIntoSentences(response).length, englishRelationArg(kwargs, "relation"), intArg(kwargs, "num_sentences"));

/** At least N `[...]` (empty brackets count too). */
export const placeholders: Checker = (response, kwargs) => count(response, /\[.*?\]/gu) >= intArg(kwargs, "num_placeholders");

/** Exactly N lines starting with "*" (not "**") or "-". */
export const bulletLists: Checker = (response, kwargs) =>
  count(response, /^\s*\*[^*].*$/gmu) + count(response, /^\s*-.*$/gmu) === intArg(kwargs, "num_bullets");

/** At least N sections: the text split at "<splitter> <number>" has N + 1 parts. */
export const sections: Checker = (response, kwargs) => {
  const splitter = stringArg(kwargs, "section_spliter").trim();
  const parts = response.split(new RegExp(`\\s?${escapeRegExp(splitter)}\\s?\\d+\\s?`, "u"));
  return parts.length - 1 >= intArg(kwargs, "num_sections");
};

/** Exactly N paragraphs between "***" dividers; an empty one is allowed only first or last. */
export const paragraphs: Checker = (response, kwargs) => {
  const parts = response.split(/\s?\*\*\*\s?/u);
  let n = parts.length;
  for (const [i, part] of parts.entries()) {
    if (part.trim() !== "") continue;
    if (i !== 0 && i !== parts.length - 1) return false;
    n--;
  }
  return n === intArg(kwargs, "num_paragraphs");
};

/** The marker on some line (lower-cased); "P.S." and "P.P.S" allow a space after inner periods, as upstream. */
export const postscript: Checker = (response, kwargs) => {
  const marker = stringArg(kwargs, "postscript_marker").trim();
  let body: string;
  if (marker === "P.P.S") body = "p\\.\\s?p\\.\\s?s";
  else if (marker === "P.S.") body = "p\\.\\s?s\\.";
  else body = escapeRegExp(marker.toLowerCase());
  return new RegExp(`\\s*${body}.*$`, "mu").test(response.toLowerCase());
};

/** Each keyword occurs somewhere, ignoring case (a substring match, as upstream's `re.search`). */
export const keywordsExist: Checker = (response, kwargs) =>
  stringListArg(kwargs, "keywords").every((k) => new RegExp(escapeRegExp(k), "iu").test(response));

export const keywordFrequency: Checker = (response, kwargs) => {
  const keyword = stringArg(kwargs, "keyword").trim();
  const occurrences = keyword === "" ? 0 : count(response, new RegExp(escapeRegExp(keyword), "giu"));
  return compareEnglish(occurrences, englishRelationArg(kwargs, "relation"), intArg(kwargs, "frequency"));
};

export const numberOfWords: Checker = (response, kwargs) =>
  compareEnglish(countWords(response), englishRelationArg(kwargs, "relation"), intArg(kwargs, "num_words"));

/** The whole response, after an optional opening and closing code fence, parses as JSON. */
export const jsonFormat: Checker = (response) => {
  let text = response.trim();
  for (const prefix of ["```json", "```Json", "```JSON", "```"]) if (text.startsWith(prefix)) text = text.slice(prefix.length);
  if (text.endsWith("```")) text = text.slice(0, -3);
  try {
    JSON.parse(text.trim());
    return true;
  } catch {
    return false;
  }
};

const FIRST_WORD_STOPS = new Set([".", ",", "?", "!", "'", '"']);

/** Exactly N paragraphs split at "\n\n" (blank ones not counted), the nth starting with the word. */
export const nthParagraphFirstWord: Checker = (response, kwargs) => {
  const wanted = intArg(kwargs, "num_paragraphs");
  const nth = intArg(kwargs, "nth_paragraph");
  if (nth <= 0 || nth > wanted) throw new InstructionArgumentError(`kwargs.nth_paragraph is ${nth}, expected 1 to num_paragraphs (${wanted})`);
  const firstWord = stringArg(kwargs, "first_word").toLowerCase();
  const parts = response.split("\n\n");
  const n = parts.filter((p) => p.trim() !== "").length;
  // Upstream indexes the unfiltered parts with the filtered count.
  if (nth > n) return false;
  const paragraph = parts[nth - 1]!.trim();
  if (paragraph === "") return false;
  const word = (paragraph.split(/\s+/u)[0] ?? "").replace(/^'+/u, "").replace(/^"+/u, "");
  let first = "";
  for (const ch of word) {
    if (FIRST_WORD_STOPS.has(ch)) break;
    first += ch.toLowerCase();
  }
  return n === wanted && first === firstWord;
};

/** Two different non-empty answers around "******"; an empty part is allowed only first or last. */
export const twoResponses: Checker = (response) => {
  const parts = response.split("******");
  const valid: string[] = [];
  for (const [i, part] of parts.entries()) {
    if (part.trim() !== "") valid.push(part);
    else if (i !== 0 && i !== parts.length - 1) return false;
  }
  return valid.length === 2 && valid[0]!.trim() !== valid[1]!.trim();
};

export const repeatPrompt: Checker = (response, kwargs) =>
  response.trim().toLowerCase().startsWith(stringArg(kwargs, "prompt_to_repeat").trim().toLowerCase());

/** Ends with the phrase, ignoring case, surrounding whitespace and surrounding double quotes. */
export const endChecker: Checker = (response, kwargs) =>
  pyStrip(response.trim(), '"').toLowerCase().endsWith(stringArg(kwargs, "end_phrase").trim().toLowerCase());

export const letterFrequency: Checker = (response, kwargs) => {
  const letter = stringArg(kwargs, "letter").trim().toLowerCase();
  if (!/^[a-z]$/.test(letter)) throw new InstructionArgumentError(`kwargs.letter is ${JSON.stringify(kwargs.letter)}, expected one ASCII letter`);
  let n = 0;
  for (const ch of response.toLowerCase()) if (ch === letter) n++;
  return compareEnglish(n, englishRelationArg(kwargs, "let_relation"), intArg(kwargs, "let_frequency"));
};

export const englishCapital: Checker = (response, _kwargs, ctx) => isUpper(response) && inLanguage(response, "en", ctx.detectLanguage);

export const englishLowercase: Checker = (response, _kwargs, ctx) => isLower(response) && inLanguage(response, "en", ctx.detectLanguage);

export const noComma: Checker = (response) => !response.includes(",");

/** Words in capitals (a hyphenated word counts once) compare to N. */
export const capitalWordFrequency: Checker = (response, kwargs) =>
  compareEnglish(wordTokens(response).filter(isUpper).length, englishRelationArg(kwargs, "capital_relation"), intArg(kwargs, "capital_frequency"));

/** Wrapped in double quotes (at least two characters). */
export const quotation: Checker = (response) => {
  const text = response.trim();
  return text.length > 1 && text.startsWith('"') && text.endsWith('"');
};

export const ENGLISH_CHECKERS = {
  "keywords:existence": keywordsExist,
  "keywords:frequency": keywordFrequency,
  "keywords:forbidden_words": forbiddenWords,
  "keywords:letter_frequency": letterFrequency,
  "language:response_language": responseLanguage,
  "length_constraints:number_sentences": numberOfSentences,
  "length_constraints:number_paragraphs": paragraphs,
  "length_constraints:number_words": numberOfWords,
  "length_constraints:nth_paragraph_first_word": nthParagraphFirstWord,
  "detectable_content:number_placeholders": placeholders,
  "detectable_content:postscript": postscript,
  "detectable_format:number_bullet_lists": bulletLists,
  "detectable_format:constrained_response": constrainedResponse,
  "detectable_format:number_highlighted_sections": highlightedSections,
  "detectable_format:multiple_sections": sections,
  "detectable_format:json_format": jsonFormat,
  "detectable_format:title": title,
  "combination:two_responses": twoResponses,
  "combination:repeat_prompt": repeatPrompt,
  "startend:end_checker": endChecker,
  "change_case:capital_word_frequency": capitalWordFrequency,
  "change_case:english_capital": englishCapital,
  "change_case:english_lowercase": englishLowercase,
  "punctuation:no_comma": noComma,
  "startend:quotation": quotation,
} as const satisfies Record<string, Checker>;

export type EnglishInstructionId = keyof typeof ENGLISH_CHECKERS;

export const ENGLISH_INSTRUCTION_IDS = Object.keys(ENGLISH_CHECKERS) as EnglishInstructionId[];

export function isEnglishInstructionId(value: unknown): value is EnglishInstructionId {
  return typeof value === "string" && Object.hasOwn(ENGLISH_CHECKERS, value);
}
