import { escapeRegExp } from "../text-patterns.js";
import { intArg, stringArg } from "./arguments.js";
import type { Checker } from "./types.js";

/**
 * detectable_content:postscript: the marker ("P.S.", "P.P.S.", "ป.ล.", "பி.கு.", ...) anywhere in
 * the lower-cased response, allowing one optional space after each inner period ("P. S.").
 * Upstream keeps a table of seven markers; deriving the pattern from the marker gives the same
 * patterns for those seven and also works for markers outside the table.
 */
export const postscript: Checker = (response, kwargs) => {
  const marker = stringArg(kwargs, "postscript_marker").trim().toLowerCase();
  const pieces = marker.split(".").filter((piece) => piece !== "");
  if (pieces.length === 0) return false;
  const endsWithPeriod = marker.endsWith(".");
  const body = pieces.map(escapeRegExp).join("\\.\\s?") + (endsWithPeriod ? "\\." : "");
  return new RegExp(`\\s*${body}.*$`, "mu").test(response.toLowerCase());
};

/** detectable_content:number_placeholders: at least N non-empty "[...]" placeholders. */
export const placeholders: Checker = (response, kwargs) => {
  const target = intArg(kwargs, "num_placeholders");
  let count = 0;
  for (const match of response.matchAll(/\[.*?\]/gu)) {
    const inner = match[0].replace(/^\[+|\[+$/g, "").replace(/^\]+|\]+$/g, "");
    if (inner.trim() !== "") count++;
  }
  return count >= target;
};
