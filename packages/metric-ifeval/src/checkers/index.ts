import { repeatPrompt, twoResponses } from "./combination.js";
import { placeholders, postscript } from "./detectable-content.js";
import { bulletLists, constrainedResponse, highlightedSections, jsonFormat, sections, title } from "./detectable-format.js";
import { forbiddenWords, keywordFrequency, keywordsExist, numberFrequency } from "./keywords.js";
import { numberOfParagraphs, numberOfSentences, numberOfWords } from "./length-constraints.js";
import { responseLanguage } from "./response-language.js";
import { endPhrase, firstWord, quotation } from "./start-end.js";
import type { Checker } from "./types.js";

/** The 21 SEA-IFEval instruction checkers, keyed by the row's `metadata.subcategory`. */
export const CHECKERS = {
  "length_constraints:number_words": numberOfWords,
  "length_constraints:number_sentences": numberOfSentences,
  "length_constraints:number_paragraphs": numberOfParagraphs,
  "detectable_content:postscript": postscript,
  "detectable_content:number_placeholders": placeholders,
  "detectable_format:title": title,
  "detectable_format:number_bullet_lists": bulletLists,
  "detectable_format:multiple_sections": sections,
  "detectable_format:number_highlighted_sections": highlightedSections,
  "detectable_format:json_format": jsonFormat,
  "detectable_format:constrained_response": constrainedResponse,
  "startend:first_word": firstWord,
  "startend:end_checker": endPhrase,
  "startend:quotation": quotation,
  "keywords:existence": keywordsExist,
  "keywords:forbidden_words": forbiddenWords,
  "keywords:frequency": keywordFrequency,
  "keywords:number_frequency": numberFrequency,
  "combination:repeat_prompt": repeatPrompt,
  "combination:two_responses": twoResponses,
  "language:response_language": responseLanguage,
} as const satisfies Record<string, Checker>;

export type InstructionId = keyof typeof CHECKERS;

export const INSTRUCTION_IDS = Object.keys(CHECKERS) as InstructionId[];

export function isInstructionId(value: unknown): value is InstructionId {
  return typeof value === "string" && Object.hasOwn(CHECKERS, value);
}

export { InstructionArgumentError, type Kwargs, RELATIONS, type Relation } from "./arguments.js";
export type { Checker, CheckerContext } from "./types.js";
