import type { GenerationParams, ModelRequest } from "@yardstick/core";
import { checkedTools } from "./tool-params.js";

/**
 * The body the OpenAI-compatible provider POSTs for a request, as a plain object: what a batch
 * line's `body` must be so a batched answer equals the online one.
 */

/** Sampling fields of any request (`extra` first, so extraBody may still override it). */
export function openAISamplingFields(params: GenerationParams, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...extra };
  if (params.maxTokens !== undefined) out.max_tokens = params.maxTokens;
  if (params.temperature !== undefined) out.temperature = params.temperature;
  if (params.topP !== undefined) out.top_p = params.topP;
  if (params.stop !== undefined && params.stop.length > 0) out.stop = params.stop;
  if (params.seed !== undefined) out.seed = params.seed;
  if (params.n !== undefined) out.n = params.n;
  // extraBody may override sampling fields (a server-specific spelling), never the model or prompt.
  return params.extraBody ? { ...out, ...params.extraBody } : out;
}

/** The sampling fields of a chat request: the tools and tool choice too (the legacy completions endpoint has none). */
export function openAIChatFields(params: GenerationParams, who: string): Record<string, unknown> {
  const checked = checkedTools(params, who);
  if (checked === undefined) return openAISamplingFields(params);
  const out: Record<string, unknown> = {
    tools: checked.tools.map((t) => ({
      type: "function",
      function: { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.parameters },
    })),
  };
  const choice = checked.choice;
  if (choice !== undefined) out.tool_choice = typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
  return openAISamplingFields(params, out);
}

/** Where a generation request goes (relative to the base URL) and its body. */
export function openAIRequestBody(modelId: string, request: ModelRequest, who: string): { path: "/chat/completions" | "/completions"; body: Record<string, unknown> } {
  if (request.kind === "chat") return { path: "/chat/completions", body: { ...openAIChatFields(request.params, who), model: modelId, messages: request.messages } };
  const body: Record<string, unknown> = { ...openAISamplingFields(request.params), model: modelId, prompt: request.prompt };
  if (request.echo !== undefined) body.echo = request.echo;
  if (request.logprobs !== undefined) body.logprobs = request.logprobs;
  return { path: "/completions", body };
}
