import {
  ApiCallError,
  type LoglikelihoodRequest,
  type LoglikelihoodResult,
  type ModelCallContext,
  type ModelProviderV1,
  type ModelRequest,
  type ModelResponse,
} from "@yardstick/core";
import { decorateProvider, maxOutputTokens } from "./decorate-provider.js";
import { countRequestInputTokens, countTextTokens } from "./token-count.js";

/** A request a dry run would have sent. */
export interface WouldSend {
  /** "generate" or "judge". */
  stage: string;
  task: string;
  inputTokens: number;
  /** The request's output cap (max_tokens × choices), when it sets one. */
  maxOutputTokens: number | undefined;
  /** Choices asked for (output tokens scale with it). */
  choices: number;
}

/**
 * The stand-in a dry run answers with: it records each request the real provider would be sent and
 * answers with an empty placeholder (or, with `fail`, fails the call), so the real answering loop (run store, resume, cache) decides
 * which requests would be sent. Identity and the served-model description come from the real
 * provider, so cache keys are the real run's.
 */
export function createDryRunProvider(
  inner: ModelProviderV1,
  stage: string,
  record: (r: WouldSend) => void,
  options: {
    /** Fail each call after recording it, instead of answering. */
    fail?: boolean;
    /** Requests not to record (they are paid for already: in a batch still in flight); still answered. */
    skip?: (request: ModelRequest) => boolean;
    /** The placeholder answer's text (default ""). */
    placeholder?: (task: string, maxOutputTokens: number | undefined) => string;
  } = {},
): ModelProviderV1 {
  // Scored with echo and one generated token at most: the prompt is the whole cost.
  const scoreLoglikelihood = (request: LoglikelihoodRequest, ctx?: ModelCallContext): LoglikelihoodResult => {
    record({ stage, task: ctx?.task?.key ?? "", inputTokens: countTextTokens(request.context + request.continuation), maxOutputTokens: 1, choices: 1 });
    return { logprob: 0, isGreedy: false, tokenCount: 1 };
  };
  return decorateProvider(
    inner,
    {
      async generate(request: ModelRequest, ctx?: ModelCallContext): Promise<ModelResponse> {
        const choices = request.params.n ?? 1;
        const max = request.params.maxTokens;
        const task = ctx?.task?.key ?? "";
        if (!options.skip?.(request)) {
          record({ stage, task, inputTokens: countRequestInputTokens(request), maxOutputTokens: max === undefined ? undefined : maxOutputTokens(request.params, 0), choices });
        }
        if (options.fail) throw new ApiCallError("dry run: not sent", { retryable: false, kind: "other" });
        const text = options.placeholder?.(task, max) ?? "";
        const choice = { text, finishReason: "stop" as const };
        return { text, finishReason: "stop", choices: Array.from({ length: choices }, () => choice) };
      },
      async loglikelihood(request: LoglikelihoodRequest, ctx?: ModelCallContext): Promise<LoglikelihoodResult> {
        return scoreLoglikelihood(request, ctx);
      },
      async loglikelihoodBatch(requests: readonly LoglikelihoodRequest[], ctx?: ModelCallContext): Promise<LoglikelihoodResult[]> {
        return requests.map((r) => scoreLoglikelihood(r, ctx));
      },
    },
    false,
  );
}
