import { stringArg } from "./arguments.js";
import type { Checker } from "./types.js";

/** startend:first_word: the trimmed response starts with the word (case-insensitive). */
export const firstWord: Checker = (response, kwargs) =>
  response.trim().toLowerCase().startsWith(stringArg(kwargs, "first_word").toLowerCase());

/** startend:end_checker: the trimmed response ends with the phrase (case-insensitive). */
export const endPhrase: Checker = (response, kwargs) =>
  response.trim().toLowerCase().endsWith(stringArg(kwargs, "end_phrase").toLowerCase());

/** startend:quotation: wrapped in double quotes with something inside them. */
export const quotation: Checker = (response) => {
  const text = response.trim();
  if (!(text.startsWith('"') && text.endsWith('"'))) return false;
  return text.replace(/^"+|"+$/g, "").trim() !== "";
};
