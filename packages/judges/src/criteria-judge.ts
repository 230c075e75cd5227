/**
 * `seahelm-criteria`: one judge call per criterion of a row (kalahi-judge, syntax-criteria,
 * mt-bench-judge). The judge answers `<reflection>…</reflection><classification>CLASS_X</classification>`
 * and `classifications` maps the class to a score. The criterion's index, turn and severity go into
 * the judgement, so the metrics match judgements to criteria by index (never by the order of ids).
 *
 * `judge_prompts.criteria_prompt` is either one template over `prompt`, `response`, `keyPointText` and
 * `reference_text_block`, or (mt-bench-judge) one template per turn (`turn_1`, `turn_2`, ...) over
 * `transcript`, `response` and `keyPointText`.
 */
import type { Judgement, JudgeRequest, JudgeV2, ModelResponse, Sample, StoredAnswer, TaskSpec } from "@yardstick/core";
import { z } from "zod";
import {
  answersByTurn,
  cachedParser,
  chatRequest,
  excerpt,
  formatFor,
  idNumber,
  isRecord,
  parseJudgeOptions,
  rowError,
  turnUserPrompt,
} from "./common.js";

export const CRITERIA_JUDGE_ID = "seahelm-criteria";

export const criteriaOptionsSchema = z.object({
  classifications: z
    .record(z.string(), z.number())
    .refine((r) => Object.keys(r).length > 0, "classifications must name at least one class"),
  judge_prompts: z.object({
    system_prompt: z.string().optional(),
    criteria_prompt: z.union([z.string(), z.record(z.string(), z.string())]),
    /** Formatted with `reference` and put in `reference_text_block` for criteria with `include_reference`. */
    reference_prompt: z.string().optional(),
  }),
  metric_class: z.string().optional(),
});

type CriteriaOptions = z.output<typeof criteriaOptionsSchema>;

const parseOptions = cachedParser((o) => parseJudgeOptions(CRITERIA_JUDGE_ID, criteriaOptionsSchema, o));

/** A criterion as the row holds it. */
interface RowCriterion {
  criterion: string;
  include_reference?: boolean;
  /** LINDSEA: high, medium, low or generic. */
  severity?: string;
  /** mt-bench-judge: the 0-based turn the criterion is about. */
  turn?: number;
}

export function rowCriteria(sample: Sample): RowCriterion[] {
  const criteria = sample.raw.criteria;
  if (!Array.isArray(criteria) || criteria.length === 0) throw rowError(sample, "the row has no criteria (expected a non-empty list `criteria`)");
  return criteria.map((c, i) => {
    if (!isRecord(c) || typeof c.criterion !== "string") throw rowError(sample, `criteria[${i}] has no string "criterion"`);
    return c as unknown as RowCriterion;
  });
}

export function criterionRequestId(index: number, turn?: number): string {
  return turn === undefined ? `criterion-${index}` : `turn${turn}-criterion-${index}`;
}

function buildRequests(sample: Sample, answers: readonly StoredAnswer[], options: Record<string, unknown>, ctx: { task: TaskSpec }): JudgeRequest[] {
  const o = parseOptions(options);
  const criteria = rowCriteria(sample);
  const { model } = answersByTurn(answers);
  if (model.size === 0) return [];
  const firstValues = sample.prompts[0] ?? {};
  const prompts = o.judge_prompts;
  return criteria.map((c, i) => {
    const keyPointText = formatFor(sample, `text of criteria[${i}]`, c.criterion, firstValues);
    if (typeof prompts.criteria_prompt === "string") {
      const response = model.get(1)?.text ?? "";
      const user = formatFor(sample, `criterion prompt of criteria[${i}]`, prompts.criteria_prompt, {
        prompt: turnUserPrompt(sample, ctx.task, 1, model.get(1)),
        response,
        keyPointText,
        reference_text_block: referenceBlock(sample, o, c, i),
      });
      return { id: criterionRequestId(i), request: chatRequest(prompts.system_prompt, user) };
    }
    // Per-turn prompts: the criterion names its 0-based turn; later turns show the earlier ones as fixed.
    const turn0 = typeof c.turn === "number" ? c.turn : 0;
    const turn = turn0 + 1;
    const template = prompts.criteria_prompt[`turn_${turn}`];
    if (template === undefined) throw rowError(sample, `criteria[${i}] is about turn ${turn}, but criteria_prompt has no "turn_${turn}"`);
    const user = formatFor(sample, `criterion prompt of criteria[${i}]`, template, {
      transcript: transcript(sample, ctx.task, model, turn),
      response: model.get(turn)?.text ?? "",
      keyPointText,
    });
    return { id: criterionRequestId(i, turn), request: chatRequest(prompts.system_prompt, user) };
  });
}

function referenceBlock(sample: Sample, o: CriteriaOptions, c: RowCriterion, i: number): string {
  if (c.include_reference !== true) return "";
  const template = o.judge_prompts.reference_prompt;
  if (template === undefined || template === "") throw rowError(sample, `criteria[${i}] includes the reference, but judge_prompts has no reference_prompt`);
  return `\n${formatFor(sample, "reference block", template, { reference: sample.label ?? sample.raw.label })}\n`;
}

/** mt-bench-judge's transcript: the user turns, each earlier answer marked as fixed. */
function transcript(sample: Sample, task: TaskSpec, model: Map<number, StoredAnswer>, turn: number): string {
  const parts: string[] = [];
  for (let t = 1; t <= turn; t++) {
    parts.push(`[User]\n${turnUserPrompt(sample, task, t, model.get(t))}`);
    if (t < turn) parts.push(`[Assistant (fixed)]\n${model.get(t)?.text ?? ""}`);
  }
  return parts.join("\n\n");
}

const CLASSIFICATION = /<classification>\s*([\p{L}\p{N}_]+)\s*<\/classification>/gu;
const REFLECTION = /<reflection>([\s\S]*?)<\/reflection>/g;

/** The last `<classification>` of a reply (as LINDSEA's and MT-Bench-judge's metrics read it) and the last reflection. */
export function readClassification(text: string): { cls?: string; reflection?: string } {
  const classes = [...text.matchAll(CLASSIFICATION)].map((m) => m[1]!);
  const reflections = [...text.matchAll(REFLECTION)].map((m) => m[1]!.trim());
  return { ...(classes.length > 0 ? { cls: classes.at(-1)! } : {}), ...(reflections.length > 0 ? { reflection: reflections.at(-1)! } : {}) };
}

function parse(response: ModelResponse, options: Record<string, unknown>, ctx: { sample: Sample; task: TaskSpec; request: JudgeRequest }): Judgement {
  const index = idNumber(ctx.request.id, "criterion-");
  const turn = idNumber(ctx.request.id, "turn");
  const criterion = index !== undefined && Array.isArray(ctx.sample.raw.criteria) ? ctx.sample.raw.criteria[index] : undefined;
  const severity = isRecord(criterion) && typeof criterion.severity === "string" ? criterion.severity : undefined;
  const data: Record<string, unknown> = { criterion: index, ...(turn !== undefined ? { turn } : {}), ...(severity !== undefined ? { severity } : {}) };
  let o: CriteriaOptions;
  try {
    o = parseOptions(options);
  } catch (error) {
    return { error: (error as Error).message, data };
  }
  if (index === undefined) return { error: `unknown criteria request id "${ctx.request.id}"`, data };
  const text = typeof response.text === "string" ? response.text : "";
  const { cls, reflection } = readClassification(text);
  const rationale = reflection !== undefined ? { rationale: reflection } : {};
  if (cls === undefined) return { error: `the judge reply has no <classification>: ${excerpt(text)}`, ...rationale, data };
  const score = o.classifications[cls];
  if (score === undefined) {
    return { label: cls, error: `unknown class "${cls}" (expected one of ${Object.keys(o.classifications).join(", ")})`, ...rationale, data };
  }
  return { label: cls, score, ...rationale, data };
}

export const criteriaJudge: JudgeV2 = {
  specVersion: "v2",
  id: CRITERIA_JUDGE_ID,
  buildRequests,
  parse,
  checkOptions(options) {
    parseOptions(options);
  },
};
