import { z } from "zod";

/**
 * Request bodies the dev server accepts, after the public OpenAI API reference. Objects are "loose":
 * unknown fields (vLLM's `chat_template_kwargs`, `top_k`, ...) are accepted and kept, as real
 * OpenAI-compatible servers do.
 */
const textPart = z.looseObject({ type: z.literal("text"), text: z.string() });
const imagePart = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(["auto", "low", "high"]).optional() }),
});
export const contentPartSchema = z.discriminatedUnion("type", [textPart, imagePart]);

export const chatMessageSchema = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(contentPartSchema), z.null()]),
});

const stopSchema = z.union([z.string(), z.array(z.string()).max(16)]).nullish();
const common = {
  model: z.string().min(1),
  max_tokens: z.number().int().min(0).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stop: stopSchema,
  seed: z.number().int().nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
};

/** Function names as the API allows them. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const toolName = z.string().regex(TOOL_NAME, "a tool name must be 1 to 64 letters, digits, underscores or dashes");

const functionToolSchema = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: toolName,
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    strict: z.boolean().nullish(),
  }),
});

const toolChoiceSchema = z.union([
  z.enum(["none", "auto", "required"]),
  z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: z.string() }) }),
]);

export const chatCompletionBodySchema = z.looseObject({
  ...common,
  messages: z.array(chatMessageSchema).min(1),
  max_completion_tokens: z.number().int().min(0).nullish(),
  tools: z.array(functionToolSchema).max(128).nullish(),
  tool_choice: toolChoiceSchema.nullish(),
});

export const completionBodySchema = z.looseObject({
  ...common,
  // One prompt or a list (OpenAI's legacy endpoint answers each; choices come prompt by prompt).
  prompt: z.union([z.string(), z.array(z.string()).min(1)]),
  echo: z.boolean().nullish(),
  logprobs: z.number().int().min(0).max(20).nullish(),
});

export type ChatCompletionBody = z.infer<typeof chatCompletionBodySchema>;
export type CompletionBody = z.infer<typeof completionBodySchema>;
export type DevChatMessage = z.infer<typeof chatMessageSchema>;

/**
 * What the API refuses about tools beyond their shape: a tool choice without tools, a forced tool
 * that is not offered, a parameters schema that is not an object schema.
 */
export function chatToolsViolation(body: ChatCompletionBody): { message: string; param: string } | undefined {
  const tools = body.tools ?? [];
  for (const [i, tool] of tools.entries()) {
    const type = tool.function.parameters?.type;
    if (type !== undefined && type !== "object") {
      return {
        message: `Invalid schema for function '${tool.function.name}': schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(type)}'.`,
        param: `tools[${i}].function.parameters`,
      };
    }
  }
  const choice = body.tool_choice;
  if (choice === undefined || choice === null) return undefined;
  if (tools.length === 0 && choice !== "none") {
    return { message: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", param: "tool_choice" };
  }
  if (typeof choice === "object" && !tools.some((t) => t.function.name === choice.function.name)) {
    return { message: `Invalid value for 'tool_choice': no function named '${choice.function.name}' was specified in the 'tools' parameter.`, param: "tool_choice" };
  }
  return undefined;
}

/** "messages[0].content: expected string" from a zod error, for the 400 body. */
export function describeZodError(error: z.ZodError): { message: string; param: string | null } {
  const issue = error.issues[0];
  if (!issue) return { message: "invalid request body", param: null };
  const param = issue.path.length > 0 ? issue.path.map(String).join(".") : null;
  return { message: `${param ? `${param}: ` : ""}${issue.message}`, param };
}
