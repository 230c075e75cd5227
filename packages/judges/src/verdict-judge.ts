/**
 * `seahelm-verdict`: one call per row asking whether the answer matches the official one (AA-LCR,
 * MathVision, BabyVision). The reply is searched for the positive and negative verdict words as
 * whole words (`\bCORRECT\b` / `\bINCORRECT\b`, BabyVision `\bTRUE\b` / `\bFALSE\b`); a reply holding
 * both scores 0, as upstream, and is marked `ambiguous`; a reply holding neither is an error.
 *
 * The prompt is formatted with `question`, `official_answer`/`groundtruth` (the row's label) and
 * `candidate_answer`/`modeloutput` (the answer; the vision tasks send the last `\boxed{…}` content).
 */
import { pyStr } from "@yardstick/config";
import { type Judgement, type JudgeRequest, type JudgeV2, type ModelResponse, PY_DOT, type Sample, type StoredAnswer } from "@yardstick/core";
import { z } from "zod";
import { answersByTurn, cachedParser, chatRequest, excerpt, formatFor, parseJudgeOptions, pyWordPattern } from "./common.js";

export const VERDICT_JUDGE_ID = "seahelm-verdict";

export const verdictOptionsSchema = z.object({
  judge_prompts: z.object({ system_prompt: z.string().optional(), criteria_prompt: z.string() }),
  metric_class: z.string().optional(),
  /** The verdict words; default from `metric_class` (BabyVision TRUE/FALSE, else CORRECT/INCORRECT). */
  verdict_words: z.object({ positive: z.string().regex(/^\w+$/), negative: z.string().regex(/^\w+$/) }).optional(),
  /** Send the last `\boxed{…}` of the answer; default true for MathVision and BabyVision. */
  extract_boxed: z.boolean().optional(),
});

interface VerdictSettings {
  system?: string;
  template: string;
  positive: RegExp;
  negative: RegExp;
  words: { positive: string; negative: string };
  extractBoxed: boolean;
}

const BOXED_CLASSES = new Set(["MathVisionJudgeMetric", "BabyVisionJudgeMetric"]);

const settings = cachedParser((options): VerdictSettings => {
  const o = parseJudgeOptions(VERDICT_JUDGE_ID, verdictOptionsSchema, options);
  const words = o.verdict_words ?? (o.metric_class === "BabyVisionJudgeMetric" ? { positive: "TRUE", negative: "FALSE" } : { positive: "CORRECT", negative: "INCORRECT" });
  return {
    ...(o.judge_prompts.system_prompt !== undefined ? { system: o.judge_prompts.system_prompt } : {}),
    template: o.judge_prompts.criteria_prompt,
    positive: pyWordPattern(words.positive),
    negative: pyWordPattern(words.negative),
    words,
    extractBoxed: o.extract_boxed ?? BOXED_CLASSES.has(o.metric_class ?? ""),
  };
});

// Upstream's pattern: one or two backslashes, `boxed{`, content with up to two levels of nested braces
// (the innermost level greedy on one line), case-insensitive.
const BOXED = new RegExp(`\\\\{1,2}boxed\\{((?:[^{}]|\\{(?:[^{}]|\\{${PY_DOT}*\\})*\\})*)\\}`, "giu");

/** The content of the last `\boxed{…}`, stripped; the whole answer when there is none. */
export function lastBoxed(text: string): string {
  const all = [...text.matchAll(BOXED)];
  return all.length > 0 ? all.at(-1)![1]!.trim() : text;
}

function buildRequests(sample: Sample, answers: readonly StoredAnswer[], options: Record<string, unknown>): JudgeRequest[] {
  const s = settings(options);
  const answer = answersByTurn(answers).model.get(1);
  if (!answer) return [];
  const candidate = s.extractBoxed ? lastBoxed(answer.text) : answer.text;
  const official = pyStr(sample.label ?? sample.raw.label ?? sample.raw.answer);
  const question = sample.prompts[0]?.question ?? sample.raw.question ?? "";
  const user = formatFor(sample, "verdict prompt", s.template, {
    question,
    official_answer: official,
    groundtruth: official,
    candidate_answer: candidate,
    modeloutput: candidate,
  });
  return [{ id: "verdict", request: chatRequest(s.system, user) }];
}

function parse(response: ModelResponse, options: Record<string, unknown>): Judgement {
  let s: VerdictSettings;
  try {
    s = settings(options);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const text = typeof response.text === "string" ? response.text : "";
  const positive = s.positive.test(text);
  const negative = s.negative.test(text);
  if (positive && negative) {
    // Upstream scores a reply naming both verdicts 0; kept, and marked so the metric can count it.
    return { label: "ambiguous", score: 0, data: { ambiguous: true }, rationale: text.trim() };
  }
  if (positive) return { label: s.words.positive, score: 1 };
  if (negative) return { label: s.words.negative, score: 0 };
  return { error: `the judge reply names neither ${s.words.positive} nor ${s.words.negative}: ${excerpt(text)}` };
}

export const verdictJudge: JudgeV2 = {
  specVersion: "v2",
  id: VERDICT_JUDGE_ID,
  buildRequests,
  parse,
  checkOptions(options) {
    settings(options);
  },
};
