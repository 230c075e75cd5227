/**
 * SEA-HELM PathTraversalMetric (LongProc Path Traversal): the `<Route>` block must equal the
 * reference route (both trimmed). Partial accuracy is the share of reference lines that match
 * from the top.
 *
 * Upstream counts the first differing line as matched (`i += 1` after the loop stops on it), so a
 * route wrong from its first line scores 1/n. Here the count is the number of matching lines; the
 * `upstreamPartialCount` option restores upstream's count.
 */
import type { MetricV1 } from "@yardstick/core";
import { pyStrip } from "@yardstick/core";
import { z } from "zod";
import { accuracyMetric, labelString, type LongprocOutcome, longprocBaseOptions, taggedBlock } from "./common.js";

export const PATH_TRAVERSAL_ID = "seahelm-path-traversal";

export const seahelmPathTraversalOptionsSchema = z.strictObject({
  ...longprocBaseOptions,
  /** Count the first differing line as matched, as upstream does. */
  upstreamPartialCount: z.boolean().default(false),
});

/** Accuracy and partial accuracy of one extracted route against the reference route. */
export function scoreRoute(route: string | null, reference: string, upstreamPartialCount = false): LongprocOutcome {
  if (route === null) return { accuracy: 0, partial: 0, extracted: 0, error: "Parsing error" };
  const pred = pyStrip(route);
  const gold = pyStrip(reference);
  if (pred === gold) return { accuracy: 1, partial: 1, extracted: 1 };
  const goldLines = gold.split("\n");
  const predLines = pred.split("\n");
  const n = Math.min(goldLines.length, predLines.length);
  let matched = n;
  let error: string | undefined;
  for (let i = 0; i < n; i++) {
    if (goldLines[i] !== predLines[i]) {
      matched = upstreamPartialCount ? i + 1 : i;
      error = `line: ${i} | gt: ${goldLines[i]} | pr: ${predLines[i]}`;
      break;
    }
  }
  return { accuracy: 0, partial: matched / goldLines.length, extracted: 1, ...(error ? { error } : {}) };
}

export function createSeahelmPathTraversalMetric(): MetricV1 {
  return accuracyMetric({
    id: PATH_TRAVERSAL_ID,
    description: "SEA-HELM LongProc Path Traversal: the <Route> block equals the reference route (accuracy; partial accuracy by lines)",
    textPairs: true,
    schema: seahelmPathTraversalOptionsSchema,
    score: (input, response, opts) =>
      scoreRoute(taggedBlock(response, "<Route>", "</Route>"), labelString(PATH_TRAVERSAL_ID, input), opts.upstreamPartialCount),
  });
}
