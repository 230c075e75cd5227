/**
 * SEA-HELM ToMTrackingMetric (LongProc Theory-of-Mind tracking): the "- ..." bullet lines of the
 * response (the tracked steps) are normalised and compared with those of the reference answer.
 * Accuracy: the same list. Partial accuracy: the share of reference bullets before the first
 * difference (when one list is a prefix of the other, the shorter length).
 *
 * Upstream's first-difference search zips with `strict=True` and so raises when one list is a
 * prefix of the other, although the branch after it handles that case; here it is handled.
 */
import type { MetricV1 } from "@yardstick/core";
import { PY_PUNCTUATION, pyLower, pySplit, pyStrip } from "@yardstick/core";
import { z } from "zod";
import { accuracyMetric, labelString, type LongprocOutcome, longprocBaseOptions } from "./common.js";

export const TOM_TRACKING_ID = "seahelm-tom-tracking";

export const seahelmTomTrackingOptionsSchema = z.strictObject({ ...longprocBaseOptions });

const DROPPED = new Set([...PY_PUNCTUATION, "\u2019"]);
// Python's \b is Unicode-aware; JS's is ASCII-only, so the word boundaries are spelled out.
const FILLER_WORDS =
  /(?<![\p{L}\p{N}_])(a|an|the|on|in|at|step|thinks|think|believes|believe|is|are|of|location|know|knows|belief)(?![\p{L}\p{N}_])/gu;

/** Lowercase, drop ASCII punctuation and ’, drop the filler words, collapse whitespace. */
export function normalizeBelief(text: string): string {
  let kept = "";
  for (const ch of pyLower(text)) if (!DROPPED.has(ch)) kept += ch;
  return pySplit(kept.replace(FILLER_WORDS, " ")).join(" ");
}

/** The normalised contents of the lines that start with "-" (empty ones left out). */
export function beliefLines(text: string): string[] {
  const out: string[] = [];
  for (const line of pyStrip(text).split("\n")) {
    if (!line.startsWith("-")) continue;
    const belief = normalizeBelief(pyStrip(line.slice(1)));
    if (belief !== "") out.push(belief);
  }
  return out;
}

export function scoreBeliefs(response: string, reference: string): LongprocOutcome {
  const pred = beliefLines(response);
  const gold = beliefLines(reference);
  const n = Math.min(pred.length, gold.length);
  let firstDiff = -1;
  for (let i = 0; i < n; i++) {
    if (pred[i] !== gold[i]) {
      firstDiff = i;
      break;
    }
  }
  if (firstDiff < 0 && pred.length === gold.length) return { accuracy: 1, partial: 1 };
  // No reference bullets but some predicted: upstream divides by zero; nothing was matched.
  if (gold.length === 0) return { accuracy: 0, partial: 0, error: "the reference has no bullet lines" };
  if (firstDiff >= 0) {
    return { accuracy: 0, partial: firstDiff / gold.length, error: `line: ${firstDiff} | gt: ${gold[firstDiff]} | pr: ${pred[firstDiff]}` };
  }
  return { accuracy: 0, partial: n / gold.length };
}

export function createSeahelmTomTrackingMetric(): MetricV1 {
  return accuracyMetric({
    id: TOM_TRACKING_ID,
    description: "SEA-HELM LongProc ToM tracking: the tracked belief steps equal the reference ones (accuracy; partial accuracy)",
    textPairs: true,
    schema: seahelmTomTrackingOptionsSchema,
    score: (input, response) => scoreBeliefs(response, labelString(TOM_TRACKING_ID, input)),
  });
}
