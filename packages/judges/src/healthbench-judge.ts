/**
 * `seahelm-healthbench`: one call per rubric item of a HealthBench row. The judge sees the
 * conversation (each message as `role: content`, then `Assistant: <answer>`) and the rubric item as
 * `[points] criterion`, and replies with a JSON object whose `criteria_met` is a boolean; the last
 * `{…}` object of the reply is read. The item's points go into the judgement for the metric.
 */
import type { Judgement, JudgeRequest, JudgeV2, ModelResponse, Sample, StoredAnswer, TaskSpec } from "@yardstick/core";
import { z } from "zod";
import { answersByTurn, cachedParser, chatRequest, excerpt, formatFor, idNumber, isRecord, parseJudgeOptions, rowError } from "./common.js";
import { criterionRequestId } from "./criteria-judge.js";

export const HEALTHBENCH_JUDGE_ID = "seahelm-healthbench";

export const healthbenchOptionsSchema = z.object({
  judge_prompts: z.object({ system_prompt: z.string().optional(), criteria_prompt: z.string() }),
  metric_class: z.string().optional(),
});

const parseOptions = cachedParser((o) => parseJudgeOptions(HEALTHBENCH_JUDGE_ID, healthbenchOptionsSchema, o));

interface RubricItem {
  criterion: string;
  points: number;
}

/** The row's rubric items (`criteria`, or the dataset's own `rubrics`). */
export function rubricItems(sample: Sample): RubricItem[] {
  const items = sample.raw.criteria ?? sample.raw.rubrics;
  if (!Array.isArray(items) || items.length === 0) throw rowError(sample, "the row has no rubric items (expected a non-empty list `criteria` of {criterion, points})");
  return items.map((c, i) => {
    if (!isRecord(c) || typeof c.criterion !== "string" || typeof c.points !== "number") {
      throw rowError(sample, `criteria[${i}] is not {criterion: string, points: number}`);
    }
    return { criterion: c.criterion, points: c.points };
  });
}

function conversationText(sample: Sample, answer: string): string {
  const messages = sample.raw.conversations ?? sample.raw.prompt;
  if (!Array.isArray(messages)) throw rowError(sample, "the row has no conversation (expected a list `conversations` of {role, content})");
  const lines = messages.map((m, i) => {
    if (!isRecord(m) || typeof m.role !== "string" || typeof m.content !== "string") throw rowError(sample, `conversations[${i}] is not {role, content}`);
    return `${m.role}: ${m.content}`;
  });
  lines.push(`Assistant: ${answer.trim()}`);
  return lines.join("\n\n");
}

function buildRequests(sample: Sample, answers: readonly StoredAnswer[], options: Record<string, unknown>): JudgeRequest[] {
  const o = parseOptions(options);
  const items = rubricItems(sample);
  const answer = answersByTurn(answers).model.get(1);
  if (!answer) return [];
  const conversation = conversationText(sample, answer.text);
  return items.map((item, i) => ({
    id: criterionRequestId(i),
    request: chatRequest(
      o.judge_prompts.system_prompt,
      formatFor(sample, `rubric prompt of criteria[${i}]`, o.judge_prompts.criteria_prompt, {
        conversation,
        rubric_item: `[${item.points}] ${item.criterion}`,
      }),
    ),
  }));
}

/** Flat `{…}` objects (no nested braces), as upstream finds them; the last one that parses wins. */
const FLAT_OBJECT = /\{[^{}]*\}/g;

export function readCriteriaMet(text: string): { met?: boolean; explanation?: string; problem?: string } {
  const objects = text.match(FLAT_OBJECT);
  if (!objects) return { problem: "no JSON object" };
  const last = objects.at(-1)!;
  let value: unknown;
  try {
    value = JSON.parse(last);
  } catch {
    // Some judges escape the quotes of the key; upstream retries with them unescaped.
    try {
      value = JSON.parse(last.replaceAll('\\"criteria_met\\"', '"criteria_met"'));
    } catch {
      return { problem: `the last {…} is not JSON: ${excerpt(last)}` };
    }
  }
  if (!isRecord(value) || typeof value.criteria_met !== "boolean") return { problem: `"criteria_met" is not a boolean in ${excerpt(last)}` };
  return { met: value.criteria_met, ...(typeof value.explanation === "string" ? { explanation: value.explanation } : {}) };
}

function parse(response: ModelResponse, options: Record<string, unknown>, ctx: { sample: Sample; task: TaskSpec; request: JudgeRequest }): Judgement {
  const index = idNumber(ctx.request.id, "criterion-");
  const items = ctx.sample.raw.criteria ?? ctx.sample.raw.rubrics;
  const criterion = index !== undefined && Array.isArray(items) ? items[index] : undefined;
  const points = isRecord(criterion) && typeof criterion.points === "number" ? criterion.points : undefined;
  const data: Record<string, unknown> = { criterion: index, ...(points !== undefined ? { points } : {}) };
  try {
    parseOptions(options);
  } catch (error) {
    return { error: (error as Error).message, data };
  }
  if (index === undefined) return { error: `unknown rubric request id "${ctx.request.id}"`, data };
  if (points === undefined) return { error: `the row has no points for criteria[${index}]`, data };
  const text = typeof response.text === "string" ? response.text : "";
  const read = readCriteriaMet(text);
  if (read.met === undefined) return { error: `the judge reply has no usable {"criteria_met": true|false}: ${read.problem}`, data };
  return {
    label: read.met ? "met" : "unmet",
    score: read.met ? 1 : 0,
    ...(read.explanation !== undefined ? { rationale: read.explanation } : {}),
    data,
  };
}

export const healthbenchJudge: JudgeV2 = {
  specVersion: "v2",
  id: HEALTHBENCH_JUDGE_ID,
  buildRequests,
  parse,
  checkOptions(options) {
    parseOptions(options);
  },
};
