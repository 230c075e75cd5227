import { escapeRegExp, wordBoundary, wordCharClass } from "../text-patterns.js";
import { compare, intArg, relationArg, stringArg, stringListArg } from "./arguments.js";
import type { Checker, CheckerContext } from "./types.js";

/**
 * Languages whose keywords upstream matches as raw substrings, case-sensitively for existence and
 * absence (scripts without spaces between words, and Tagalog). Every other language matches whole
 * words, ignoring case. Upstream silently skips the keyword checks for languages outside its two
 * lists; here they use whole-word matching.
 */
const SUBSTRING_LANGUAGES = new Set(["my", "ta", "tl", "th", "lo", "km"]);

function keywordPattern(keyword: string, ctx: CheckerContext, ignoreCase: boolean): RegExp {
  const flags = ignoreCase ? "giu" : "gu";
  const literal = escapeRegExp(keyword);
  if (SUBSTRING_LANGUAGES.has(ctx.language)) return new RegExp(literal, flags);
  const b = wordBoundary(wordCharClass(ctx.pythonWordChars));
  return new RegExp(`${b}${literal}${b}`, flags);
}

const occurs = (response: string, keyword: string, ctx: CheckerContext): boolean =>
  keywordPattern(keyword, ctx, !SUBSTRING_LANGUAGES.has(ctx.language)).test(response);

/** keywords:existence: every keyword occurs. */
export const keywordsExist: Checker = (response, kwargs, ctx) =>
  stringListArg(kwargs, "keywords").every((keyword) => occurs(response, keyword, ctx));

/** keywords:forbidden_words: no forbidden word occurs. */
export const forbiddenWords: Checker = (response, kwargs, ctx) =>
  !stringListArg(kwargs, "forbidden_words").some((word) => occurs(response, word, ctx));

/** keywords:frequency: the keyword occurs exactly / at least / less than N times (any case). */
export const keywordFrequency: Checker = (response, kwargs, ctx) => {
  const keyword = stringArg(kwargs, "keyword");
  const relation = relationArg(kwargs);
  const target = intArg(kwargs, "frequency");
  const count = response.match(keywordPattern(keyword, ctx, true))?.length ?? 0;
  return compare(count, relation, target);
};

/**
 * keywords:number_frequency: the number occurs exactly / at least / less than N times. Like
 * upstream this counts substrings, so "5" is also found inside "15".
 */
export const numberFrequency: Checker = (response, kwargs) => {
  const number = stringArg(kwargs, "number");
  const relation = relationArg(kwargs);
  const target = intArg(kwargs, "frequency");
  const count = number === "" ? 0 : response.match(new RegExp(escapeRegExp(number), "gu"))?.length ?? 0;
  return compare(count, relation, target);
};
