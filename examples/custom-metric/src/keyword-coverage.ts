import { MetricError, type MetricInput, type MetricResult, type MetricV1 } from "@yardstick/core";
import { type KeywordCoverageOptions, parseKeywordCoverageOptions } from "./options.js";

export const KEYWORD_COVERAGE_ID = "keyword-coverage";

// JavaScript's \b is ASCII-only; this boundary also works for "café" or Thai/Tamil words.
const WORD_CHAR = "[\\p{L}\\p{M}\\p{N}_]";

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** The reference as a keyword list: a list of strings, or one string of comma-separated keywords. */
function keywordsOf(input: MetricInput): string[] {
  const { reference } = input;
  const list = typeof reference === "string" ? reference.split(",") : reference;
  if (!Array.isArray(list) || !list.every((k) => typeof k === "string")) {
    throw new MetricError("reference must be a list of keywords or a comma-separated string", { metricId: KEYWORD_COVERAGE_ID, sampleId: input.sampleId });
  }
  const keywords = list.map((k) => k.trim()).filter((k) => k !== "");
  if (keywords.length === 0) throw new MetricError("reference has no keywords", { metricId: KEYWORD_COVERAGE_ID, sampleId: input.sampleId });
  return keywords;
}

function contains(text: string, keyword: string, opts: KeywordCoverageOptions): boolean {
  const body = escapeRegExp(keyword);
  const source = opts.wholeWord ? `(?<!${WORD_CHAR})${body}(?!${WORD_CHAR})` : body;
  return new RegExp(source, opts.caseSensitive ? "u" : "iu").test(text);
}

/**
 * keyword-coverage: the share of reference keywords that the prediction mentions.
 * Task scores: `mean_coverage` (0–100) and `full_coverage` (% of samples mentioning every keyword).
 */
export function createKeywordCoverageMetric(settings: Partial<KeywordCoverageOptions> = {}): MetricV1 & { readonly orderIndependent: true } {
  const defaults = parseKeywordCoverageOptions(settings, "keyword-coverage settings");
  return {
    specVersion: "v1",
    id: KEYWORD_COVERAGE_ID,
    description: "Share of reference keywords mentioned by the prediction (mean_coverage, full_coverage)",
    textPairs: true,
    orderIndependent: true,
    compute(inputs: readonly MetricInput[], options: Record<string, unknown>): MetricResult {
      const opts = parseKeywordCoverageOptions({ ...defaults, ...options });
      if (inputs.length === 0) throw new MetricError("no samples to score", { metricId: KEYWORD_COVERAGE_ID });
      const perSample = inputs.map((input) => {
        if (typeof input.prediction !== "string") {
          throw new MetricError(`prediction is ${input.prediction === null ? "null" : typeof input.prediction}, expected a string`, {
            metricId: KEYWORD_COVERAGE_ID,
            sampleId: input.sampleId,
          });
        }
        const prediction = input.prediction;
        const keywords = keywordsOf(input);
        const found = keywords.filter((k) => contains(prediction, k, opts)).length;
        return { sampleId: input.sampleId, scores: { coverage: (100 * found) / keywords.length, complete: found === keywords.length ? 1 : 0 } };
      });
      const mean = (key: "coverage" | "complete") => perSample.reduce((sum, s) => sum + s.scores[key], 0) / perSample.length;
      return { scores: { mean_coverage: mean("coverage"), full_coverage: 100 * mean("complete") }, perSample };
    },
  };
}
