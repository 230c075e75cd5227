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

export const chatCompletionBodySchema = z.looseObject({
  ...common,
  messages: z.array(chatMessageSchema).min(1),
  max_completion_tokens: z.number().int().min(0).nullish(),
});

export const completionBodySchema = z.looseObject({
  ...common,
  prompt: z.string(),
  echo: z.boolean().nullish(),
  logprobs: z.number().int().min(0).max(20).nullish(),
});

export type ChatCompletionBody = z.infer<typeof chatCompletionBodySchema>;
export type CompletionBody = z.infer<typeof completionBodySchema>;
export type DevChatMessage = z.infer<typeof chatMessageSchema>;

/** "messages[0].content: expected string" from a zod error, for the 400 body. */
export function describeZodError(error: z.ZodError): { message: string; param: string | null } {
  const issue = error.issues[0];
  if (!issue) return { message: "invalid request body", param: null };
  const param = issue.path.length > 0 ? issue.path.map(String).join(".") : null;
  return { message: `${param ? `${param}: ` : ""}${issue.message}`, param };
}
