/**
 * `rubric`: single-answer scoring against a `rubric.yaml` (question, instructions, labelled and scored
 * choices), the same rubric the labeling app shows humans. The request offers one tool whose only
 * required argument is an enum of the choice labels and forces it (`toolChoice: {name}`), so a server
 * that supports tool calls answers with a choice and nothing needs free-text parsing. A reply without
 * the tool call falls back to a strict text parser (one `CHOICE: <label>` line, or a reply that is only
 * the label); a reply neither accepts gets one retry with a correction message.
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { parseRubric, pyStr, type Rubric, rubricSchema } from "@yardstick/config";
import {
  type ChatMessage,
  ConfigError,
  type Judgement,
  type JudgeRequest,
  type JudgeV2,
  type ModelResponse,
  type Sample,
  type StoredAnswer,
  type TaskSpec,
} from "@yardstick/core";
import { z } from "zod";
import { answersByTurn, contentText, excerpt, formatFor, isRecord, modelTurns, parseJudgeOptions } from "./common.js";

export const RUBRIC_JUDGE_ID = "rubric";
export const RUBRIC_TOOL_NAME = "record_choice";

export const rubricJudgeOptionsSchema = z.object({
  /** A rubric.yaml path (relative to the task's config file, else the working directory) or the rubric itself. */
  rubric: z.union([z.string().min(1), z.record(z.string(), z.unknown())]),
  /** Offer the choice as a forced tool call (default true); false asks for the text form only. */
  use_tools: z.boolean().optional(),
});

type LoadedRubric = Rubric & { id: string };

const DEFAULT_TEMPLATE = [
  "{question}",
  "",
  "{instructions}",
  "",
  "[The Start of the User's Prompt]",
  "{prompt}",
  "[The End of the User's Prompt]",
  "",
  "[The Start of the Response]",
  "{response}",
  "[The End of the Response]",
  "",
  "{reference}",
  "Choose exactly one of these choices:",
  "{choices}",
].join("\n");

const rubricFiles = new Map<string, LoadedRubric>();
/** The rubric each options object resolved to (with its task), for `parse` and `retryRequest`, which may not see the task. */
const resolved = new WeakMap<object, { rubric: LoadedRubric; useTools: boolean }>();

function loadRubric(options: Record<string, unknown>, task: TaskSpec | undefined): { rubric: LoadedRubric; useTools: boolean } {
  const known = resolved.get(options);
  if (known) return known;
  const loaded = readRubric(options, task);
  resolved.set(options, loaded);
  return loaded;
}

function readRubric(options: Record<string, unknown>, task: TaskSpec | undefined): { rubric: LoadedRubric; useTools: boolean } {
  const o = parseJudgeOptions(RUBRIC_JUDGE_ID, rubricJudgeOptionsSchema, options);
  const useTools = o.use_tools ?? true;
  if (typeof o.rubric !== "string") {
    const parsed = rubricSchema.safeParse(o.rubric);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const keyPath = ["rubric", ...issue.path.map(String)];
      throw new ConfigError(`judge ${RUBRIC_JUDGE_ID}: ${issue.message} at ${keyPath.join(".")}`, { keyPath: ["judge", "options", ...keyPath] });
    }
    return { rubric: { ...parsed.data, id: parsed.data.id ?? "rubric" }, useTools };
  }
  const base = task?.source?.file ? dirname(task.source.file) : process.cwd();
  const file = isAbsolute(o.rubric) ? o.rubric : resolve(base, o.rubric);
  let rubric = rubricFiles.get(file);
  if (!rubric) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new ConfigError(`judge ${RUBRIC_JUDGE_ID}: cannot read the rubric: ${(error as Error).message}`, { file, keyPath: ["judge", "options", "rubric"] });
    }
    rubric = parseRubric(file, text);
    rubricFiles.set(file, rubric);
  }
  return { rubric, useTools };
}

function choicesText(rubric: LoadedRubric): string {
  return rubric.choices.map((c) => `- ${c.label}${c.description ? `: ${c.description}` : ""}`).join("\n");
}

function systemPrompt(rubric: LoadedRubric, useTools: boolean): string {
  const labels = rubric.choices.map((c) => c.label).join(" | ");
  const how = useTools
    ? `Record your choice by calling the ${RUBRIC_TOOL_NAME} tool. If you cannot call tools, end your reply with one line CHOICE: <label>.`
    : "End your reply with one line CHOICE: <label>.";
  return `You are a careful evaluator. Judge the response against the rubric and pick exactly one choice. ${how}\nLabels: ${labels}`;
}

function choiceTool(rubric: LoadedRubric) {
  return {
    name: RUBRIC_TOOL_NAME,
    description: `Record the chosen answer to: ${rubric.question}`,
    parameters: {
      type: "object",
      properties: {
        choice: { type: "string", enum: rubric.choices.map((c) => c.label), description: "The label of the chosen choice." },
        rationale: { type: "string", description: "One or two sentences on why." },
      },
      required: ["choice"],
      additionalProperties: false,
    },
  };
}

function buildRequests(sample: Sample, answers: readonly StoredAnswer[], options: Record<string, unknown>, ctx: { task: TaskSpec }): JudgeRequest[] {
  const { rubric, useTools } = loadRubric(options, ctx.task);
  const byTurn = answersByTurn(answers);
  const turns = modelTurns(byTurn);
  const last = turns.at(-1);
  if (last === undefined) return [];
  const answer = byTurn.model.get(last)!;
  const reference = sample.label ?? sample.raw.label;
  const user = formatFor(sample, "rubric prompt", rubric.judge_template ?? DEFAULT_TEMPLATE, {
    question: rubric.question,
    instructions: rubric.instructions ?? "",
    choices: choicesText(rubric),
    prompt: promptText(sample, answer),
    response: answer.text,
    reference: reference === undefined || reference === null ? "" : `[Reference answer]\n${pyStr(reference)}\n`,
  });
  const messages: ChatMessage[] = [
    { role: "system", content: systemPrompt(rubric, useTools) },
    { role: "user", content: user },
  ];
  const params = useTools ? { tools: [choiceTool(rubric)], toolChoice: { name: RUBRIC_TOOL_NAME } } : {};
  return [{ id: "rubric", request: { kind: "chat", messages, params } }];
}

/** What the judged model was asked: the last user message sent, or the sample's first prompt text. */
function promptText(sample: Sample, answer: StoredAnswer): string {
  const sent = answer.request?.messages;
  if (sent) {
    for (let i = sent.length - 1; i >= 0; i--) if (sent[i]!.role === "user") return contentText(sent[i]!.content);
  }
  if (answer.request?.prompt !== undefined) return answer.request.prompt;
  const text = sample.prompts[0]?.text;
  return typeof text === "string" ? text : "";
}

/** The strict text form: exactly one `CHOICE: <label>` line naming a label, or a reply that is only a label. */
export function readTextChoice(text: string, labels: readonly string[]): { label?: string; problem?: string } {
  const trimmed = text.trim();
  const bare = trimmed.replace(/^["'`*[(]+|["'`*\])]+$/g, "").trim();
  if (labels.includes(bare)) return { label: bare };
  const lines = [...text.matchAll(/^[ \t*]*CHOICE[ \t*]*:[ \t*]*(.*?)[ \t*.]*$/gim)].map((m) => m[1]!.replace(/^["'`[(]+|["'`\])]+$/g, "").trim());
  if (lines.length === 0) return { problem: `no "CHOICE: <label>" line: ${excerpt(text)}` };
  const distinct = [...new Set(lines)];
  if (distinct.length > 1) return { problem: `several choices (${distinct.join(", ")})` };
  const label = distinct[0]!;
  if (!labels.includes(label)) return { problem: `"${label}" is not one of the labels ${labels.join(", ")}` };
  return { label };
}

function judgementFor(rubric: LoadedRubric, label: string, via: "tool" | "text", rationale?: string): Judgement {
  const choice = rubric.choices.find((c) => c.label === label)!;
  const scores = rubric.choices.map((c) => c.score);
  // The rubric's scale travels with each judgement, so the metric can put any rubric on 0-100.
  const scale = [Math.min(...scores), Math.max(...scores)];
  return { label, score: choice.score, ...(rationale ? { rationale } : {}), data: { rubric: rubric.id, via, scale } };
}

function parse(response: ModelResponse, options: Record<string, unknown>, ctx: { sample: Sample; task: TaskSpec; request: JudgeRequest }): Judgement {
  let rubric: LoadedRubric;
  try {
    rubric = loadRubric(options, ctx.task).rubric;
  } catch (error) {
    return { error: (error as Error).message };
  }
  const labels = rubric.choices.map((c) => c.label);
  const calls = Array.isArray(response.toolCalls) ? response.toolCalls.filter((c) => isRecord(c) && c.name === RUBRIC_TOOL_NAME) : [];
  if (calls.length > 0) {
    const choices = [...new Set(calls.map((c) => (isRecord(c.arguments) ? c.arguments.choice : undefined)))];
    if (choices.length !== 1 || typeof choices[0] !== "string" || !labels.includes(choices[0])) {
      return { error: `the ${RUBRIC_TOOL_NAME} call's choice ${JSON.stringify(choices.length === 1 ? choices[0] : choices)} is not exactly one of ${labels.join(", ")}`, data: { rubric: rubric.id, via: "tool" } };
    }
    const args = calls[0]!.arguments;
    return judgementFor(rubric, choices[0], "tool", typeof args.rationale === "string" ? args.rationale : undefined);
  }
  const text = typeof response.text === "string" ? response.text : "";
  const read = readTextChoice(text, labels);
  if (read.label === undefined) return { error: `the judge reply gives no choice: ${read.problem}`, data: { rubric: rubric.id, via: "text" } };
  const before = text.replace(/^[ \t*]*CHOICE[ \t*]*:.*$/gim, "").trim();
  return judgementFor(rubric, read.label, "text", before !== "" && before !== read.label ? before : undefined);
}

/** One correction for a reply that gave no valid choice: the first request, the bad reply, and what is expected. */
function retryRequest(request: JudgeRequest, response: ModelResponse, judgement: Judgement, options: Record<string, unknown>): JudgeRequest | undefined {
  if (judgement.error === undefined || request.request.kind !== "chat" || request.id.endsWith("#retry")) return undefined;
  let rubric: LoadedRubric;
  try {
    rubric = loadRubric(options, undefined).rubric;
  } catch {
    return undefined;
  }
  const labels = rubric.choices.map((c) => c.label);
  const correction = `Your reply did not give a valid choice (${judgement.error}). Reply with exactly one line CHOICE: <label>, where <label> is one of: ${labels.join(", ")}.`;
  const reply = typeof response.text === "string" ? response.text : "";
  return {
    id: request.id,
    request: {
      ...request.request,
      messages: [...request.request.messages, { role: "assistant", content: reply }, { role: "user", content: correction }],
    },
  };
}

export const rubricJudge: JudgeV2 = {
  specVersion: "v2",
  id: RUBRIC_JUDGE_ID,
  buildRequests,
  parse,
  retryRequest,
  checkOptions(options) {
    const o = parseJudgeOptions(RUBRIC_JUDGE_ID, rubricJudgeOptionsSchema, options);
    // A relative path is resolved against the task's config file, which checkOptions does not see.
    if (typeof o.rubric !== "string" || isAbsolute(o.rubric)) readRubric(options, undefined);
  },
};
