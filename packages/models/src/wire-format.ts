import type { FinishReason, ModelChoice, ModelResponse, TokenLogprobs, ToolCall, TokenUsage } from "@yardstick/core";
import { z } from "zod";
import { parseToolArguments } from "./tool-params.js";

/**
 * Response bodies of OpenAI-compatible servers, as loose as real servers need: vLLM, SGLang, llama.cpp
 * and OpenAI differ in optional fields (`reasoning_content` vs `reasoning`, null logprobs, ...).
 */
const usageSchema = z.looseObject({
  prompt_tokens: z.number().default(0),
  completion_tokens: z.number().default(0),
  total_tokens: z.number().optional(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
});

const contentSchema = z.union([
  z.string(),
  z.null(),
  z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
]);

/** `arguments` is a JSON string on the wire; it is parsed (and checked) when the response is converted. */
const toolCallSchema = z.looseObject({
  id: z.string().nullish(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }),
});

const chatChoiceSchema = z.looseObject({
  index: z.number().int().optional(),
  message: z.looseObject({
    content: contentSchema.optional(),
    reasoning_content: z.string().nullish(),
    reasoning: z.string().nullish(),
    tool_calls: z.array(toolCallSchema).nullish(),
  }),
  finish_reason: z.string().nullish(),
});

export const chatResponseSchema = z.looseObject({
  model: z.string().optional(),
  choices: z.array(chatChoiceSchema).min(1),
  usage: usageSchema.nullish(),
});

const legacyLogprobsSchema = z.looseObject({
  tokens: z.array(z.string()),
  token_logprobs: z.array(z.number().nullable()),
  top_logprobs: z.array(z.record(z.string(), z.number()).nullable()).nullish(),
  text_offset: z.array(z.number()),
});

const completionChoiceSchema = z.looseObject({
  index: z.number().int().optional(),
  text: z.string(),
  logprobs: legacyLogprobsSchema.nullish(),
  finish_reason: z.string().nullish(),
});

export const completionResponseSchema = z.looseObject({
  model: z.string().optional(),
  choices: z.array(completionChoiceSchema).min(1),
  usage: usageSchema.nullish(),
});

export type ChatResponseBody = z.infer<typeof chatResponseSchema>;
export type CompletionResponseBody = z.infer<typeof completionResponseSchema>;

const FINISH: Record<string, FinishReason> = {
  stop: "stop",
  eos: "stop",
  length: "length",
  content_filter: "content_filter",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  error: "error",
  abort: "error",
};

export function mapFinishReason(value: string | null | undefined): FinishReason {
  return (value !== null && value !== undefined ? FINISH[value] : undefined) ?? "unknown";
}

function mapUsage(usage: z.infer<typeof usageSchema> | null | undefined): TokenUsage | undefined {
  if (!usage) return undefined;
  const out: TokenUsage = {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
  };
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === "number") out.reasoningTokens = reasoning;
  return out;
}

function contentText(content: z.infer<typeof contentSchema> | undefined): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join("");
}

const byIndex = <T extends { index?: number | undefined }>(choices: T[]): T[] =>
  choices.every((c) => c.index !== undefined) ? [...choices].sort((a, b) => a.index! - b.index!) : choices;

function response(choices: ModelChoice[], usage: TokenUsage | undefined, model: string | undefined): ModelResponse {
  const first = choices[0]!;
  const out: ModelResponse = { text: first.text, finishReason: first.finishReason, choices };
  if (first.reasoningContent !== undefined) out.reasoningContent = first.reasoningContent;
  if (first.logprobs !== undefined) out.logprobs = first.logprobs;
  if (first.toolCalls !== undefined) out.toolCalls = first.toolCalls;
  if (usage) out.usage = usage;
  if (model !== undefined) out.model = model;
  return out;
}

/** The tool calls of one choice, arguments parsed; throws MalformedToolCall for arguments that are not a JSON object. */
function toToolCalls(calls: z.infer<typeof toolCallSchema>[], at: string): ToolCall[] {
  return calls.map((call, i) => {
    const out: ToolCall = {
      name: call.function.name,
      arguments: parseToolArguments(call.function.arguments, `${at}.tool_calls.${i}.function.arguments`),
    };
    if (typeof call.id === "string") out.id = call.id;
    return out;
  });
}

/** Throws MalformedToolCall when a tool call's arguments cannot be read. */
export function toChatResponse(body: ChatResponseBody): ModelResponse {
  const choices = byIndex(body.choices).map((c, i): ModelChoice => {
    const choice: ModelChoice = { text: contentText(c.message.content), finishReason: mapFinishReason(c.finish_reason) };
    // vLLM and DeepSeek say `reasoning_content`; newer vLLM and OpenRouter say `reasoning`.
    const reasoning = c.message.reasoning_content ?? c.message.reasoning;
    if (typeof reasoning === "string") choice.reasoningContent = reasoning;
    // vLLM sends `tool_calls: []` with every plain answer: only a non-empty list is a tool call.
    const calls = c.message.tool_calls;
    if (calls && calls.length > 0) choice.toolCalls = toToolCalls(calls, `choices.${c.index ?? i}.message`);
    return choice;
  });
  return response(choices, mapUsage(body.usage), body.model);
}

export function toTokenLogprobs(lp: z.infer<typeof legacyLogprobsSchema>): TokenLogprobs {
  const out: TokenLogprobs = { tokens: lp.tokens, tokenLogprobs: lp.token_logprobs, textOffset: lp.text_offset };
  if (lp.top_logprobs) out.topLogprobs = lp.top_logprobs;
  return out;
}

export function toCompletionResponse(body: CompletionResponseBody): ModelResponse {
  const choices = byIndex(body.choices).map((c): ModelChoice => {
    const choice: ModelChoice = { text: c.text, finishReason: mapFinishReason(c.finish_reason) };
    if (c.logprobs) choice.logprobs = toTokenLogprobs(c.logprobs);
    return choice;
  });
  return response(choices, mapUsage(body.usage), body.model);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isNullishString = (v: unknown): v is string | null | undefined => v === undefined || v === null || typeof v === "string";
// zod 4's z.number() rejects NaN and ±Infinity (JSON.parse turns 1e999 into Infinity).
const isOptionalNumber = (v: unknown): v is number | undefined => v === undefined || (typeof v === "number" && Number.isFinite(v));

/**
 * `toChatResponse(chatResponseSchema.parse(json))` for the common body (one choice, string or null
 * content), checked by hand: the zod parse copied every object of every response and was a
 * visible share of the per-request cost. Returns undefined for anything else (several choices,
 * content parts, tool calls, or a shape zod would reject), so the caller falls back to zod, which either
 * accepts it or produces the error message. Only accepts what the schema accepts, and builds the
 * same response from it.
 */
export function fastChatResponse(json: unknown): ModelResponse | undefined {
  if (!isRecord(json)) return undefined;
  const model = json.model;
  if (model !== undefined && typeof model !== "string") return undefined;
  const list = json.choices;
  if (!Array.isArray(list) || list.length !== 1) return undefined;
  const c: unknown = list[0];
  if (!isRecord(c)) return undefined;
  if (c.index !== undefined && !Number.isSafeInteger(c.index)) return undefined;
  const message = c.message;
  if (!isRecord(message)) return undefined;
  const content = message.content;
  const reasoningContent = message.reasoning_content;
  const reasoningAlt = message.reasoning;
  const finish = c.finish_reason;
  const toolCalls = message.tool_calls;
  if (toolCalls !== undefined && toolCalls !== null && !(Array.isArray(toolCalls) && toolCalls.length === 0)) return undefined;
  if (!isNullishString(content) || !isNullishString(reasoningContent) || !isNullishString(reasoningAlt) || !isNullishString(finish)) {
    return undefined;
  }
  const u = json.usage;
  let usage: TokenUsage | undefined;
  if (u !== undefined && u !== null) {
    if (!isRecord(u)) return undefined;
    const promptTokens = u.prompt_tokens;
    const completionTokens = u.completion_tokens;
    const totalTokens = u.total_tokens;
    const details = u.completion_tokens_details;
    if (!isOptionalNumber(promptTokens) || !isOptionalNumber(completionTokens) || !isOptionalNumber(totalTokens)) return undefined;
    let reasoningTokens: unknown;
    if (details !== undefined && details !== null) {
      if (!isRecord(details)) return undefined;
      reasoningTokens = details.reasoning_tokens;
      if (reasoningTokens !== null && !isOptionalNumber(reasoningTokens)) return undefined;
    }
    const p = promptTokens ?? 0;
    const k = completionTokens ?? 0;
    usage = { promptTokens: p, completionTokens: k, totalTokens: totalTokens ?? p + k };
    if (typeof reasoningTokens === "number") usage.reasoningTokens = reasoningTokens;
  }
  const choice: ModelChoice = { text: content ?? "", finishReason: mapFinishReason(finish) };
  const reasoning = reasoningContent ?? reasoningAlt;
  if (typeof reasoning === "string") choice.reasoningContent = reasoning;
  return response([choice], usage, model);
}

/**
 * Why a chat reply is no answer at all: `content: null` with no tool call and no reasoning (a server
 * fault, a filter, a refusal), which taken as "" would pass for a wrong answer. Undefined for a reply
 * that answers (an empty string included).
 */
export function noContentProblem(json: unknown, response: ModelResponse): string | undefined {
  if (response.text !== "" || response.toolCalls !== undefined || response.reasoningContent !== undefined) return undefined;
  const choice = (json as { choices?: { finish_reason?: unknown; message?: { content?: unknown; refusal?: unknown } }[] }).choices?.[0];
  const message = choice?.message;
  if (message === undefined || (message.content !== null && message.content !== undefined)) return undefined;
  const refusal = typeof message.refusal === "string" ? `; refusal: ${JSON.stringify(message.refusal.slice(0, 200))}` : "";
  return `the answer has no content (content: null, no tool call; finish_reason ${JSON.stringify(choice?.finish_reason ?? null)}${refusal})`;
}
