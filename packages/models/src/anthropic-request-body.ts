import { ConfigError, type GenerationParams, type ModelRequest } from "@yardstick/core";
import { toAnthropicMessages, toAnthropicTools } from "./anthropic-wire.js";
import { checkedTools } from "./tool-params.js";

/**
 * The body the Anthropic provider POSTs to `/v1/messages` for a request, as a plain object: what a
 * Message Batch request's `params` must be so a batched answer equals the online one.
 */

/** The request body without its messages: sampling fields and tools, extraBody over them, then model and max_tokens. */
export function anthropicBodyFields(params: GenerationParams, modelId: string, defaultMaxTokens: number | undefined, who: string): Record<string, unknown> {
  const checked = checkedTools(params, who);
  const out: Record<string, unknown> = checked ? toAnthropicTools(checked.tools, checked.choice) : {};
  if (params.temperature !== undefined) out.temperature = params.temperature;
  if (params.topP !== undefined) out.top_p = params.topP;
  if (params.stop !== undefined && params.stop.length > 0) out.stop_sequences = params.stop;
  // `seed` and `n` have no counterpart in the API: n is served by repeated requests.
  const fields: Record<string, unknown> = { ...out, ...params.extraBody };
  const maxTokens = params.maxTokens ?? (fields.max_tokens as number | undefined) ?? defaultMaxTokens;
  if (maxTokens === undefined) {
    throw new ConfigError(`${who}: the Messages API requires max_tokens; give the task a max_tokens (or pass --max-tokens N), or set defaultMaxTokens`);
  }
  return { ...fields, model: modelId, max_tokens: maxTokens };
}

/** The whole body of a chat request; a completion request is a ConfigError (the API has no such endpoint). */
export function anthropicRequestBody(request: ModelRequest, modelId: string, defaultMaxTokens: number | undefined, who: string): Record<string, unknown> {
  if (request.kind !== "chat") {
    throw new ConfigError(`${who}: the Anthropic Messages API has no completion endpoint; use a chat prompt for this task`, {
      expected: "a chat task (messages), not a completion prompt",
    });
  }
  const { system, messages } = toAnthropicMessages(request.messages);
  return { ...anthropicBodyFields(request.params, modelId, defaultMaxTokens, who), ...(system !== undefined ? { system } : {}), messages };
}
