import { stripPunctuation } from "../text-patterns.js";
import { stringArg } from "./arguments.js";
import type { Checker } from "./types.js";

/**
 * combination:repeat_prompt: starts with the prompt (case-insensitive) and then answers it;
 * repeating the prompt alone fails.
 */
export const repeatPrompt: Checker = (response, kwargs) => {
  const text = response.trim().toLowerCase();
  const prompt = stringArg(kwargs, "prompt_to_repeat").trim().toLowerCase();
  if (!text.startsWith(prompt)) return false;
  return text.slice(prompt.length).trim() !== "";
};

/** combination:two_responses: exactly two non-empty answers separated by "******". */
export const twoResponses: Checker = (response) => {
  const parts = response
    .trim()
    .split("******")
    .filter((part) => stripPunctuation(part.trim()) !== "");
  return parts.length === 2;
};
