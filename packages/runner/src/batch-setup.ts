import { type BatchClient, ConfigError, type ModelProviderV1 } from "@yardstick/core";
import type { BatchSettings } from "@yardstick/engine";
import { ANTHROPIC_BASE_URL, createAnthropicBatchClient, createOpenAIBatchClient } from "@yardstick/models";

/** `yardstick run --batch [--batch-poll-seconds S]`. */
export interface BatchOptions {
  /** Longest wait between two status polls of a batch (default 60). */
  pollSeconds?: number;
}

/**
 * The batch API of a provider made by `createModel`: OpenAI's Batch API for openai-compatible
 * models (at their first base URL), Anthropic's Message Batches for anthropic models. Any other
 * provider is a ConfigError saying which ones have one.
 */
export function createBatchSettings(model: ModelProviderV1, baseURLs: readonly string[], apiKey: string | undefined, options: BatchOptions, role = "--model"): BatchSettings {
  let client: BatchClient;
  const name = model.id.endsWith(`:${model.modelId}`) ? model.id : `${model.id}:${model.modelId}`;
  if (model.id === "openai-compatible") {
    const baseURL = baseURLs[0];
    if (baseURL === undefined) throw new ConfigError(`--batch: ${role} ${name} needs a base URL for its batch API`);
    // OpenAI's own models want max_completion_tokens in batch lines (SEA-HELM sends it that way too).
    const official = /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL);
    client = createOpenAIBatchClient(
      { modelId: model.modelId, baseURL, ...(apiKey ? { apiKey } : {}) },
      official ? { maxTokensField: "max_completion_tokens" } : {},
    );
  } else if (model.id === "anthropic") {
    client = createAnthropicBatchClient({ modelId: model.modelId, baseURL: baseURLs[0] ?? ANTHROPIC_BASE_URL, ...(apiKey ? { apiKey } : {}) });
  } else {
    throw new ConfigError(
      `--batch: ${role} ${name} has no batch API; --batch works with openai-compatible models (OpenAI Batch API) and anthropic models (Message Batches API)`,
      { expected: "--model openai-compatible:<id> or --model anthropic:<id>" },
    );
  }
  return { client, ...(options.pollSeconds !== undefined ? { pollSeconds: options.pollSeconds } : {}) };
}
