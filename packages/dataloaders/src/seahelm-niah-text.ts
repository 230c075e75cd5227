/**
 * How SEA-HELM's NIAH generator cuts its haystack into the sentences needles are put in front of:
 * lines are paragraphs (upstream splits on the characters `\r`, `|` and `\n`), paragraphs with no
 * text are dropped, and a sentence ends at a run of end marks (optionally followed by closing quotes
 * or brackets) followed by whitespace, unless the mark follows a digit, a single letter or a common
 * abbreviation.
 */
import { stripChars } from "./seahelm-generated.js";

const CLOSING_PUNCTUATION = "'\"”’』」｣》⟩)]}）］｝»";
const OTHER_QUOTES_AND_BRACKETS = "“”‘’『』「」｢｣《》（）［］｛｝«»";
const OTHER_PUNCTUATION = "｡。，、､…：；？！။";
const PY_WHITESPACE = " \t\n\r\x0b\x0c";
const PY_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const NOT_TEXT = PY_WHITESPACE + PY_PUNCTUATION + OTHER_PUNCTUATION + OTHER_QUOTES_AND_BRACKETS;

const hasText = (s: string): boolean => stripChars(s, NOT_TEXT) !== "";

const SENTENCE_ENDS: Record<string, string> = { zh: "｡。！？", my: "။.!?" };
const DEFAULT_ENDS = ".!?";

const escapeClass = (s: string): string => s.replace(/[\\\]^-]/g, "\\$&");

const ABBREVIATIONS = [
  String.raw`(?<!\b[a-z]\.)`,
  String.raw`(?<!\b(?:Mr|Dr|Ms|Sr|Jr|Co|vs|Lt|St|Rd)\.)`,
  String.raw`(?<!\b(?:i\.e|e\.g|a\.m|p\.m|M\.A|Mrs|Inc|Ltd|etc|Rev|Hon|Gen|Sgt|Rep|Sen|Ave|Col)\.)`,
  String.raw`(?<!\b(?:Ph\.D|Prof|Capt|Blvd|Corp)\.)`,
].join("");

function sentenceEnd(language: string): RegExp {
  const ends = escapeClass(SENTENCE_ENDS[language] ?? DEFAULT_ENDS);
  return new RegExp(`(${ABBREVIATIONS}(?<!\\d)[${ends}]+[${escapeClass(CLOSING_PUNCTUATION)}*_]*)(\\s+)`, "gu");
}

export const splitIntoParagraphs = (text: string): string[] => text.split(/[\r|\n]/u).filter(hasText);

export function splitIntoSentences(text: string, language: string): string[] {
  const re = sentenceEnd(language);
  const out: string[] = [];
  for (const para of splitIntoParagraphs(text)) {
    const marked = para.replace(re, "$1\u0000");
    for (const s of marked.split("\u0000")) if (hasText(s)) out.push(s.trim());
  }
  return out;
}
