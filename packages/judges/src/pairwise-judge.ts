/**
 * `seahelm-pairwise`: SEA-HELM's MT-Bench judge (FastChat prompts). Each turn of the judged model is
 * compared with the baseline's answer twice, once with the model as assistant A and once as B, so a
 * judge's position bias cannot decide the result. The verdict of one call is parsed strictly: exactly
 * one of the verdict labels, or an error. `seahelm-pairwise-judge` combines the two orders.
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
  modelTurns,
  parseJudgeOptions,
  rowError,
} from "./common.js";

export const PAIRWISE_JUDGE_ID = "seahelm-pairwise";

const turnPromptSchema = z.object({ system_prompt: z.string(), prompt_template: z.string() });
const labelsSchema = z.object({ A_wins: z.string().min(1), B_wins: z.string().min(1), Tie: z.string().min(1).optional() });

export const pairwiseOptionsSchema = z.object({
  judge_prompts: z.object({
    "without-reference": z.array(turnPromptSchema).min(1),
    "with-reference": z.array(turnPromptSchema).min(1).optional(),
  }),
  /** The baseline whose answers the row holds under `baselines[baseline_model]`. */
  baseline_model: z.string().min(1).optional(),
  /** Task-level keys upstream; read from the task's `extra` when not given here. */
  judgement_labels: labelsSchema.optional(),
  ties_allowed: z.boolean().optional(),
  categories_with_reference: z.array(z.string()).optional(),
  metric_class: z.string().optional(),
});

type PairwiseOptions = z.output<typeof pairwiseOptionsSchema>;

/** The options with the task-level keys resolved. */
interface PairwiseSettings extends PairwiseOptions {
  labels: { A_wins: string; B_wins: string; Tie?: string };
  tiesAllowed: boolean;
  withReference: readonly string[];
}

const DEFAULT_LABELS = { A_wins: "[[A]]", B_wins: "[[B]]", Tie: "[[C]]" };

const parseOptions = cachedParser((o) => parseJudgeOptions(PAIRWISE_JUDGE_ID, pairwiseOptionsSchema, o));

function settings(options: Record<string, unknown>, task: TaskSpec | undefined): PairwiseSettings {
  const o = parseOptions(options);
  const extra = task?.extra ?? {};
  const labels = o.judgement_labels ?? (labelsSchema.safeParse(extra.judgement_labels).data as PairwiseSettings["labels"] | undefined) ?? DEFAULT_LABELS;
  const tiesAllowed = o.ties_allowed ?? (typeof extra.ties_allowed === "boolean" ? extra.ties_allowed : true);
  const fromExtra = Array.isArray(extra.categories_with_reference) ? extra.categories_with_reference.filter((c) => typeof c === "string") : undefined;
  const withReference = o.categories_with_reference ?? fromExtra ?? ["math", "reasoning"];
  const baseline = o.baseline_model ?? (typeof extra.baseline_model === "string" ? extra.baseline_model : undefined);
  return { ...o, ...(baseline !== undefined ? { baseline_model: baseline } : {}), labels, tiesAllowed, withReference };
}

/** Which assistant the judged model is in a call: "AB" = model as A, baseline as B; "BA" = swapped. */
export type PairwiseOrder = "AB" | "BA";

export function pairwiseRequestId(turn: number, order: PairwiseOrder): string {
  return `turn${turn}-${order}`;
}

function orderOf(id: string): PairwiseOrder | undefined {
  const m = /-(AB|BA)(?:#retry)?$/.exec(id);
  return m ? (m[1] as PairwiseOrder) : undefined;
}

/** The baseline's answer of each turn: a baseline run's stored answer, else the row's `baselines[baseline_model]`. */
function baselineAnswers(sample: Sample, fromRun: Map<number, StoredAnswer>, turns: number[], s: PairwiseSettings): Map<number, string> {
  const out = new Map<number, string>();
  const rowBaselines = isRecord(sample.raw.baselines) && s.baseline_model !== undefined ? sample.raw.baselines[s.baseline_model] : undefined;
  for (const turn of turns) {
    const stored = fromRun.get(turn);
    if (stored) {
      out.set(turn, stored.text);
      continue;
    }
    const fromRow = Array.isArray(rowBaselines) ? rowBaselines[turn - 1] : undefined;
    if (typeof fromRow === "string") {
      out.set(turn, fromRow);
      continue;
    }
    const where =
      s.baseline_model === undefined
        ? "no baseline_model is set and no baseline run was given"
        : `the row has no baselines["${s.baseline_model}"][${turn - 1}] and no baseline run answered it`;
    throw rowError(sample, `no baseline answer for turn ${turn}: ${where}`);
  }
  return out;
}

function buildRequests(sample: Sample, answers: readonly StoredAnswer[], options: Record<string, unknown>, ctx: { task: TaskSpec }): JudgeRequest[] {
  const s = settings(options, ctx.task);
  const byTurn = answersByTurn(answers);
  const turns = modelTurns(byTurn);
  if (turns.length === 0) return [];
  const baselines = baselineAnswers(sample, byTurn.baseline, turns, s);
  const category = sample.metadata?.category;
  const withRef = typeof category === "string" && s.withReference.includes(category);
  const prompts = withRef ? s.judge_prompts["with-reference"] : s.judge_prompts["without-reference"];
  if (!prompts) throw rowError(sample, `category "${category}" is judged with a reference, but judge_prompts has no "with-reference" prompts`);
  const references = sample.raw.references;
  const requests: JudgeRequest[] = [];
  for (const turn of turns) {
    const prompt = prompts[turn - 1];
    if (!prompt) throw rowError(sample, `turn ${turn} has no judge prompt (judge_prompts has ${prompts.length} per kind)`);
    for (const order of ["AB", "BA"] as const) {
      const values: Record<string, unknown> = {};
      for (let i = 1; i <= turn; i++) {
        const question = sample.prompts[i - 1]?.text;
        if (typeof question !== "string") throw rowError(sample, `prompts[${i - 1}].text is missing (the question of turn ${i})`);
        const model = byTurn.model.get(i)?.text ?? "";
        const base = baselines.get(i) ?? "";
        values[`question_${i}`] = question;
        values[`answer_a_${i}`] = order === "AB" ? model : base;
        values[`answer_b_${i}`] = order === "AB" ? base : model;
        if (withRef) {
          const ref = Array.isArray(references) ? references[i - 1] : undefined;
          if (typeof ref !== "string") throw rowError(sample, `category "${category}" needs references[${i - 1}], the reference answer of turn ${i}`);
          values[`ref_answer_${i}`] = ref;
        }
      }
      const system = formatFor(sample, `pairwise system prompt of turn ${turn}`, prompt.system_prompt, { ...s.labels });
      const user = formatFor(sample, `pairwise prompt of turn ${turn}`, prompt.prompt_template, values);
      requests.push({ id: pairwiseRequestId(turn, order), request: chatRequest(system, user) });
    }
  }
  return requests;
}

/** What one call decided, from the judged model's side. */
export type PairwiseOutcome = "win" | "lose" | "tie";

function parse(response: ModelResponse, options: Record<string, unknown>, ctx: { sample: Sample; task: TaskSpec; request: JudgeRequest }): Judgement {
  let s: PairwiseSettings;
  try {
    s = settings(options, ctx.task);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const order = orderOf(ctx.request.id);
  const turn = idNumber(ctx.request.id, "turn");
  const data: Record<string, unknown> = { turn, order, tiesAllowed: s.tiesAllowed };
  const text = typeof response.text === "string" ? response.text : "";
  if (order === undefined || turn === undefined) return { error: `unknown pairwise request id "${ctx.request.id}"`, data };
  const found: ("A" | "B" | "tie")[] = [];
  if (text.includes(s.labels.A_wins)) found.push("A");
  if (text.includes(s.labels.B_wins)) found.push("B");
  if (s.tiesAllowed && s.labels.Tie !== undefined && text.includes(s.labels.Tie)) found.push("tie");
  const shown = [s.labels.A_wins, s.labels.B_wins, ...(s.tiesAllowed && s.labels.Tie ? [s.labels.Tie] : [])].join(", ");
  if (found.length !== 1) {
    const why = found.length === 0 ? `no verdict label (${shown})` : `several verdict labels (${found.join(", ")})`;
    return { error: `the judge reply has ${why}: ${excerpt(text)}`, data };
  }
  const verdict = found[0]!;
  const modelSide = order === "AB" ? "A" : "B";
  const outcome: PairwiseOutcome = verdict === "tie" ? "tie" : verdict === modelSide ? "win" : "lose";
  const rationale = text.slice(0, text.indexOf(verdict === "A" ? s.labels.A_wins : verdict === "B" ? s.labels.B_wins : s.labels.Tie!)).trim();
  return {
    label: outcome,
    score: outcome === "win" ? 1 : outcome === "tie" ? 0.5 : 0,
    ...(rationale !== "" ? { rationale } : {}),
    data: { ...data, verdict },
  };
}

export const pairwiseJudge: JudgeV2 = {
  specVersion: "v2",
  id: PAIRWISE_JUDGE_ID,
  buildRequests,
  parse,
  checkOptions(options) {
    parseOptions(options);
  },
};
