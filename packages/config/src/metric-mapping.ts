/**
 * SEA-HELM `metric_class` → yardstick metric id, and how the answer is cut out of the response
 * before scoring (the `seahelm-answer-tag` postprocessor's mode).
 */
import { judgedMetricFor } from "./seahelm-judge.js";

const METRIC_IDS: Record<string, string> = {
  F1AccMetric: "seahelm-f1acc",
  SuperGPQAMetric: "seahelm-f1acc",
  QuestionAnsweringMetric: "seahelm-qa",
  TranslationMetric: "seahelm-translation",
  SummarizationMetric: "seahelm-summarization",
  LogProbMetric: "seahelm-logprob",
  MinimalPairsMetric: "seahelm-minimal-pairs",
  PragmaticReasoningMetric: "seahelm-pragmatic",
  MinimalPairsLogProbMetric: "seahelm-minimal-pairs-logprob",
  PragmaticReasoningLogProbMetric: "seahelm-pragmatic-logprob",
  IFEvalMetric: "ifeval",
  BBHExactMatch: "seahelm-bbh-exact-match",
  MathMetric: "seahelm-math",
  NIAH: "seahelm-niah",
  NIAHMetric: "seahelm-niah",
  Cwe: "seahelm-cwe",
  CweMetric: "seahelm-cwe",
  CountdownMetric: "seahelm-countdown",
  HtmlToTsvMetric: "seahelm-html-to-tsv",
  PathTraversalMetric: "seahelm-path-traversal",
  ToMTrackingMetric: "seahelm-tom-tracking",
  TravelPlanningMetric: "seahelm-travel-planning",
  LiveCodeBenchMetric: "seahelm-livecodebench",
};

/**
 * SEA-HELM has two classes named `IFEvalMetric`: the multilingual one (`instruction_following`) and
 * google's English IFEval (`english_evals/ifeval/ifeval.py`), which reports other scores. The
 * metric file tells them apart; both live in @yardstick/metric-ifeval.
 */
const ENGLISH_IFEVAL_FILE = /(^|\/)english_evals\/ifeval\//;

/** The metric id for a class; unknown classes become `seahelm:<ClassName>` (the runner reports them as missing). */
export function metricIdForClass(metricClass: string, metricFile?: string): string {
  if (metricClass === "IFEvalMetric" && metricFile !== undefined && ENGLISH_IFEVAL_FILE.test(metricFile)) return "ifeval:en";
  return METRIC_IDS[metricClass] ?? judgedMetricFor(metricClass)?.metric ?? `seahelm:${metricClass}`;
}

export type AnswerTagMode = "labels" | "line" | "until-close-tag" | "none";

/** Classes whose answer is one of the gold labels (regex alternation built from the label set). */
const LABEL_CLASSES = new Set([
  "F1AccMetric",
  "SuperGPQAMetric",
  "MinimalPairsMetric",
  "PragmaticReasoningMetric",
  // The logprob twins score the same label sets; kept as generate tasks they extract like F1Acc.
  "LogProbMetric",
  "MinimalPairsLogProbMetric",
  "PragmaticReasoningLogProbMetric",
]);

const CLOSE_TAG_CLASSES = new Set(["NIAH", "NIAHMetric", "Cwe", "CweMetric"]);

/** Classes that score the whole response (math-verify parses the full text; IFEval checks it all). */
const WHOLE_RESPONSE_CLASSES = new Set(["MathMetric", "IFEvalMetric"]);

export function answerTagMode(metricClass: string, tag: string | null): AnswerTagMode {
  if (tag === null || tag === "") return "none";
  if (LABEL_CLASSES.has(metricClass)) return "labels";
  if (CLOSE_TAG_CLASSES.has(metricClass)) return "until-close-tag";
  if (WHOLE_RESPONSE_CLASSES.has(metricClass)) return "none";
  return "line";
}

/**
 * Extraction details of particular SEA-HELM metric classes, as options of `seahelm-answer-tag`:
 * minimal pairs and pragmatic reasoning match the tag case-sensitively and only at its first
 * occurrence (their regex is `tag[\s*]*(labels)*`, flags 0); NIAH and CWE score a response without
 * the tag and closing tag as empty (`return_original_response_on_failure=False`).
 */
export function answerTagExtraOptions(metricClass: string): Record<string, unknown> {
  if (metricClass === "MinimalPairsMetric" || metricClass === "PragmaticReasoningMetric") {
    return { caseInsensitive: false, firstTagOnly: true };
  }
  if (CLOSE_TAG_CLASSES.has(metricClass)) return { emptyOnNoMatch: true };
  return {};
}
