import { languageMatches } from "../language/detect-language.js";
import { stringArg } from "./arguments.js";
import type { Checker } from "./types.js";

/**
 * language:response_language: the response is written in `kwargs.response_language`. Indonesian
 * and Malay are accepted for each other; with `upstreamResponseLanguage` only the upstream
 * direction (Malay accepted for "id", nothing else for "ms") is.
 */
export const responseLanguage: Checker = (response, kwargs, ctx) => {
  const expected = stringArg(kwargs, "response_language");
  const detected = ctx.detectLanguage(response.replaceAll("\n", " "));
  if (ctx.upstreamResponseLanguage) return detected === expected || (expected === "id" && detected === "ms");
  return languageMatches(detected, expected);
};
