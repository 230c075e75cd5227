import { z } from "zod";
import { type DevChatMessage, TOOL_NAME } from "./dev-server-schemas.js";
import type { DevTool, DevToolChoice } from "./dev-server-tools.js";

/**
 * Request bodies of `POST /v1/messages`, after Anthropic's public Messages API reference. Only text
 * and image blocks are accepted in messages (no tool results or documents); client tools (`tools`,
 * `tool_choice`) are, server tools are not; unknown top-level fields
 * (`metadata`, `thinking`, `top_k`, ...) are kept, as the API accepts them.
 */
const textBlock = z.looseObject({ type: z.literal("text"), text: z.string() });
const imageSource = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("base64"),
    media_type: z.enum(["image/jpeg", "image/png", "image/gif", "image/webp"]),
    data: z.string().min(1),
  }),
  z.looseObject({ type: z.literal("url"), url: z.string().min(1) }),
]);
const imageBlock = z.looseObject({ type: z.literal("image"), source: imageSource });
const contentBlock = z.discriminatedUnion("type", [textBlock, imageBlock]);

const messageSchema = z.looseObject({
  role: z.enum(["user", "assistant"]),
  content: z.union([z.string(), z.array(contentBlock).min(1)]),
});

/** A client tool; `type` is absent or "custom" (server tools such as web search have other types). */
const toolSchema = z.looseObject({
  type: z.literal("custom").optional(),
  name: z.string().regex(TOOL_NAME, "a tool name must be 1 to 64 letters, digits, underscores or dashes"),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal("object"), properties: z.record(z.string(), z.unknown()).nullish() }),
});

const toolChoiceSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("auto"), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal("any"), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal("tool"), name: z.string().min(1), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal("none") }),
]);

export const messagesBodySchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().min(1),
  messages: z.array(messageSchema).min(1),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
});

export type MessagesBody = z.infer<typeof messagesBodySchema>;
type MessagesMessage = MessagesBody["messages"][number];

/** Why a valid-looking body breaks the API's rules beyond its shape, or undefined. */
export function messagesRuleViolation(body: MessagesBody): string | undefined {
  if (body.stream === true) return "stream: the dev server does not stream /v1/messages; send stream: false";
  const tools = body.tools ?? [];
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) return "tools: Tool names must be unique.";
    names.add(tool.name);
  }
  const choice = body.tool_choice;
  if (choice !== undefined && choice.type !== "none" && tools.length === 0) {
    return "tool_choice: tool_choice may only be specified while providing tools.";
  }
  if (choice?.type === "tool" && !names.has(choice.name)) return `tool_choice.name: Tool '${choice.name}' not found in 'tools'.`;
  for (let i = 1; i < body.messages.length; i++) {
    const role = body.messages[i]!.role;
    if (body.messages[i - 1]!.role === role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`;
    }
  }
  return undefined;
}

export function systemText(system: MessagesBody["system"]): string | undefined {
  if (system === undefined) return undefined;
  return typeof system === "string" ? system : system.map((b) => b.text).join("\n");
}

function toDevMessage(m: MessagesMessage): DevChatMessage {
  if (typeof m.content === "string") return { role: m.role, content: m.content };
  return {
    role: m.role,
    content: m.content.map((b) =>
      b.type === "text"
        ? { type: "text" as const, text: b.text }
        : {
            type: "image_url" as const,
            image_url: { url: b.source.type === "base64" ? `data:${b.source.media_type};base64,${b.source.data}` : b.source.url },
          },
    ),
  };
}

/**
 * The request as OpenAI-style chat messages (the system prompt first, image blocks as data URIs),
 * which the answer policies, token counts and prompt hashes work on: a plain-text conversation hashes
 * the same whichever endpoint it came through.
 */
export function asChatMessages(body: MessagesBody): DevChatMessage[] {
  const system = systemText(body.system);
  const out = body.messages.map(toDevMessage);
  return system === undefined ? out : [{ role: "system", content: system }, ...out];
}

/** The request's tools and tool choice in the terms of `dev-server-tools.ts`. */
export function messagesTools(body: MessagesBody): { tools: DevTool[] | undefined; choice: DevToolChoice | undefined } {
  const tools = body.tools?.map((t) => ({ name: t.name, parameters: t.input_schema as Record<string, unknown> }));
  const c = body.tool_choice;
  const choice: DevToolChoice | undefined =
    c === undefined ? undefined : c.type === "any" ? "required" : c.type === "tool" ? { name: c.name } : c.type;
  return { tools, choice };
}
