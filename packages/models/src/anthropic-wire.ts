import {
  type ChatMessage,
  ConfigError,
  type ContentPart,
  type FinishReason,
  type ModelChoice,
  type GenerationParams,
  type TokenUsage,
  type ToolCall,
  type ToolDefinition,
} from "@yardstick/core";
import { z } from "zod";
import { isPlainObject } from "./tool-params.js";

/** The Anthropic Messages API wire format: request bodies built from core chat messages, response bodies read back. */

export type AnthropicTextBlock = { type: "text"; text: string };
export type AnthropicImageBlock = {
  type: "image";
  source: { type: "base64"; media_type: string; data: string } | { type: "url"; url: string };
};
export type AnthropicBlock = AnthropicTextBlock | AnthropicImageBlock;

export interface AnthropicMessage {
  role: "user" | "assistant";
  content: string | AnthropicBlock[];
}

/** The media types the API accepts for base64 images. */
const IMAGE_MEDIA_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

function imageBlock(url: string, at: string): AnthropicImageBlock {
  if (/^https?:\/\//i.test(url)) return { type: "image", source: { type: "url", url } };
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!m) {
    throw new ConfigError(`${at}: an image must be a base64 data URI (data:image/png;base64,...) or an http(s) URL`, {
      expected: "data:<media type>;base64,<data>",
    });
  }
  const mediaType = m[1]!.toLowerCase();
  if (!IMAGE_MEDIA_TYPES.has(mediaType)) {
    throw new ConfigError(`${at}: the Anthropic API does not accept images of type ${mediaType}`, {
      expected: [...IMAGE_MEDIA_TYPES].join(", "),
    });
  }
  return { type: "image", source: { type: "base64", media_type: mediaType, data: m[2]! } };
}

function blocks(content: string | ContentPart[], at: string): AnthropicBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map((part, i) => (part.type === "text" ? { type: "text", text: part.text } : imageBlock(part.image_url.url, `${at}[${i}]`)));
}

/**
 * Core chat messages as the Messages API wants them: system messages (wherever they stand) joined into
 * the `system` field, and consecutive messages of one role merged into one message of several content
 * blocks, since user and assistant turns must alternate. A lone string message stays a string, so
 * the body reads as the caller wrote it.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): { system?: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  messages.forEach((m, i) => {
    const at = `messages[${i}].content`;
    if (m.role === "system") {
      if (typeof m.content === "string") system.push(m.content);
      else {
        for (const [j, part] of m.content.entries()) {
          if (part.type !== "text") throw new ConfigError(`${at}[${j}]: the Anthropic API takes text only in the system prompt`);
          system.push(part.text);
        }
      }
      return;
    }
    const last = out[out.length - 1];
    if (last && last.role === m.role) {
      const merged = typeof last.content === "string" ? blocks(last.content, at) : last.content;
      last.content = [...merged, ...blocks(m.content, at)];
      return;
    }
    out.push({ role: m.role, content: typeof m.content === "string" ? m.content : blocks(m.content, at) });
  });
  if (out.length === 0) throw new ConfigError("the Anthropic API needs at least one user or assistant message besides the system prompt");
  return system.length > 0 ? { system: system.join("\n\n"), messages: out } : { messages: out };
}

/** Core tools as the Messages API wants them: `input_schema` for the parameters, `any` for "required". */
export function toAnthropicTools(tools: readonly ToolDefinition[], choice: GenerationParams["toolChoice"]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    tools: tools.map((t) => ({ name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), input_schema: t.parameters })),
  };
  if (choice === "auto") out.tool_choice = { type: "auto" };
  else if (choice === "required") out.tool_choice = { type: "any" };
  else if (choice !== undefined) out.tool_choice = { type: "tool", name: choice.name };
  return out;
}

// ---------------------------------------------------------------- responses

const contentBlockSchema = z
  .looseObject({
    type: z.string(),
    text: z.string().optional(),
    thinking: z.string().optional(),
    id: z.string().optional(),
    name: z.unknown().optional(),
    input: z.unknown().optional(),
  })
  .superRefine((block, ctx) => {
    // Other block types (server tools, citations, ...) pass as they are; a tool_use block must be readable.
    if (block.type !== "tool_use") return;
    if (typeof block.name !== "string" || block.name === "") {
      ctx.addIssue({ code: "custom", path: ["name"], message: "a tool_use block needs the tool's name" });
    }
    if (!isPlainObject(block.input)) {
      ctx.addIssue({ code: "custom", path: ["input"], message: `a tool_use block's input must be a JSON object, got ${JSON.stringify(block.input) ?? "nothing"}` });
    }
  });

const usageSchema = z.looseObject({
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
});

export const messageResponseSchema = z.looseObject({
  type: z.literal("message"),
  role: z.literal("assistant"),
  model: z.string().optional(),
  content: z.array(contentBlockSchema),
  stop_reason: z.string().nullish(),
  stop_sequence: z.string().nullish(),
  usage: usageSchema.optional(),
});

export type MessageResponseBody = z.infer<typeof messageResponseSchema>;

/** The error body of every failed request: `{type: "error", error: {type, message}}`. */
export const errorBodySchema = z.looseObject({
  type: z.literal("error"),
  error: z.looseObject({ type: z.string(), message: z.string() }),
});

const STOP_REASONS: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  tool_use: "tool_calls",
  // The model declined for safety reasons: what the core calls a content filter.
  refusal: "content_filter",
};

export function mapStopReason(value: string | null | undefined): FinishReason {
  return (value !== null && value !== undefined ? STOP_REASONS[value] : undefined) ?? "unknown";
}

/** One response as a choice: its text blocks joined, thinking blocks as reasoning content, tool_use blocks as tool calls. */
export function toChoice(body: MessageResponseBody): ModelChoice {
  let text = "";
  let thinking: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const block of body.content) {
    if (block.type === "text") text += block.text ?? "";
    else if (block.type === "thinking" && block.thinking !== undefined) thinking = (thinking ?? "") + block.thinking;
    // The schema checked name and input of tool_use blocks.
    else if (block.type === "tool_use") {
      const call: ToolCall = { name: block.name as string, arguments: block.input as Record<string, unknown> };
      if (block.id !== undefined) call.id = block.id;
      toolCalls.push(call);
    }
  }
  const choice: ModelChoice = { text, finishReason: mapStopReason(body.stop_reason) };
  if (thinking !== undefined) choice.reasoningContent = thinking;
  if (toolCalls.length > 0) choice.toolCalls = toolCalls;
  return choice;
}

/** Usage in core terms; prompt tokens count cached input too (the API reports it apart). */
export function toUsage(body: MessageResponseBody): TokenUsage | undefined {
  const u = body.usage;
  if (!u) return undefined;
  const promptTokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
  return { promptTokens, completionTokens: u.output_tokens, totalTokens: promptTokens + u.output_tokens };
}
