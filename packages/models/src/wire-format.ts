import type { FinishReason, ModelChoice, ModelResponse, TokenLogprobs, TokenUsage } from "@yardstick/core";
import { z } from "zod";

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

const chatChoiceSchema = z.looseObject({
  index: z.number().int().optional(),
  message: z.looseObject({
    content: contentSchema.optional(),
    reasoning_content: z.string().nullish(),
    reasoning: z.string().nullish(),
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
  if (usage) out.usage = usage;
  if (model !== undefined) out.model = model;
  return out;
}

export function toChatResponse(body: ChatResponseBody): ModelResponse {
  const choices = byIndex(body.choices).map((c): ModelChoice => {
    const choice: ModelChoice = { text: contentText(c.message.content), finishReason: mapFinishReason(c.finish_reason) };
    // vLLM and DeepSeek say `reasoning_content`; newer vLLM and OpenRouter say `reasoning`.
    const reasoning = c.message.reasoning_content ?? c.message.reasoning;
    if (typeof reasoning === "string") choice.reasoningContent = reasoning;
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
