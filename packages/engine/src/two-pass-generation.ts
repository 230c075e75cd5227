/**
 * SEA-HELM's base-model generation (its base_model inference strategy), for requests whose params
 * set `stopAtFirst` (the answer tag):
 *
 * 1. the request with `stop` = [the tag] and vLLM's `include_stop_str_in_output`, so the text ends
 *    with the tag (a server that drops the stop string gets it put back here);
 * 2. when the first pass stopped there and tokens of `maxTokens` remain (less the first pass's
 *    completion tokens), the same request continued from the first text — a completion prompt with
 *    the text appended (what the base-model template gives for a final assistant message continued),
 *    a chat request with it as the final assistant message and vLLM's `continue_final_message` —
 *    with the task's own stop strings and the remaining budget.
 *
 * The answer is both texts joined; usage and latency are summed, the finish reason is the last
 * pass's. Upstream keeps the first pass's finish reason and usage; the text, which is what is scored,
 * is the same.
 */
import { type GenerationParams, type ModelCallContext, type ModelProviderV1, type ModelRequest, type ModelResponse, pyStrip } from "@yardstick/core";

/** `model` with two-pass generation for requests that ask for it; every other request goes through unchanged. */
export function withTwoPassGeneration(model: ModelProviderV1): ModelProviderV1 {
  const wrapped: ModelProviderV1 = Object.create(model);
  wrapped.generate = (request: ModelRequest, ctx?: ModelCallContext) => {
    const stopAt = request.params.stopAtFirst;
    return stopAt === undefined ? model.generate(request, ctx) : generateTwoPass(model, request, stopAt, ctx);
  };
  return wrapped;
}

async function generateTwoPass(model: ModelProviderV1, request: ModelRequest, stopAt: string, ctx: ModelCallContext | undefined): Promise<ModelResponse> {
  const { stopAtFirst: _, ...params } = request.params;
  const first = await model.generate({ ...request, params: firstPassParams(params, stopAt) }, ctx);
  if (first.finishReason !== "stop") return first;
  const firstText = throughStopString(first.text, stopAt);
  const used = first.usage?.completionTokens ?? 0;
  const remaining = params.maxTokens === undefined ? undefined : params.maxTokens - used;
  if (remaining !== undefined && remaining <= 0) return withText(first, firstText);

  const secondParams: GenerationParams = { ...params, ...(remaining !== undefined ? { maxTokens: remaining } : {}) };
  const second: ModelRequest =
    request.kind === "chat"
      ? {
          kind: "chat",
          messages: [...request.messages, { role: "assistant", content: firstText }],
          params: { ...secondParams, extraBody: { ...params.extraBody, continue_final_message: true, add_generation_prompt: false } },
        }
      : // The template strips a message's content, and a continued final message ends right after it.
        { kind: "completion", prompt: `${request.prompt}${pyStrip(firstText)}`, params: secondParams };
  const answer = await model.generate(second, ctx);
  const joined = withText(answer, `${firstText}${answer.text}`);
  if (first.usage && answer.usage) {
    joined.usage = {
      promptTokens: first.usage.promptTokens + answer.usage.promptTokens,
      completionTokens: first.usage.completionTokens + answer.usage.completionTokens,
      totalTokens: first.usage.totalTokens + answer.usage.totalTokens,
    };
  }
  if (first.latencyMs !== undefined && answer.latencyMs !== undefined) joined.latencyMs = first.latencyMs + answer.latencyMs;
  return joined;
}

/**
 * The first pass's params: generate until `stopAt`, keeping it in the text (vLLM's
 * `include_stop_str_in_output`). Also the first pass of SEA-HELM's logprob tasks (answer.ts).
 */
export function firstPassParams(params: GenerationParams, stopAt: string): GenerationParams {
  const { stopAtFirst: _, ...rest } = params;
  return { ...rest, stop: [stopAt], extraBody: { ...rest.extraBody, include_stop_str_in_output: true } };
}

/** A first pass that finished with "stop" ends with the stop string; a server that drops it gets it put back. */
export function throughStopString(text: string, stopAt: string): string {
  return text.endsWith(stopAt) ? text : `${text}${stopAt}`;
}

function withText(response: ModelResponse, text: string): ModelResponse {
  const [head, ...rest] = response.choices;
  return { ...response, text, choices: [{ ...(head ?? { finishReason: response.finishReason }), text }, ...rest] };
}
