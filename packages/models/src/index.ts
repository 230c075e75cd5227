// Transport, retry policy and limiter live in @yardstick/http; re-exported for existing importers.
export {
  type AdaptiveLimiter,
  type AdaptiveLimiterSettings,
  createAdaptiveLimiter,
  type LimiterOutcome,
  type LimiterTicket,
} from "@yardstick/http";
export { type AnthropicProvider, createAnthropic } from "./anthropic.js";
export { ANTHROPIC_BASE_URL, ANTHROPIC_VERSION, type AnthropicSettings, anthropicSettingsSchema } from "./anthropic-settings.js";
export { builtinModelFactories, type ModelFactory } from "./builtin-factories.js";
export { scoreContinuation } from "./loglikelihood.js";
export {
  createMajorityBaseline,
  type MajorityBaselineSettings,
  majorityBaselineSettingsSchema,
  majorityLabel,
} from "./majority-baseline.js";
export { ModelCallError } from "./model-call-error.js";
export { type ModelProviderId, type ModelSpec, parseModelSpec } from "./model-spec.js";
export { createOpenAICompatible, type OpenAICompatibleProvider } from "./openai-compatible.js";
export {
  type OpenAICompatibleSettings,
  openAICompatibleSettingsSchema,
} from "./openai-settings.js";
export { createRandomBaseline, type RandomBaselineSettings, randomBaselineSettingsSchema } from "./random-baseline.js";
export { backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from "@yardstick/http";
export { ANTHROPIC_BATCH_LIMITS, createAnthropicBatchClient } from "./anthropic-batch.js";
export {
  type BatchClient,
  type BatchHandle,
  type BatchItem,
  type BatchLimitOptions,
  type BatchResult,
  type BatchStatus,
  type BatchSubmitContext,
  splitByLimits,
} from "./batch-client.js";
export { createOpenAIBatchClient, OPENAI_BATCH_LIMITS, type OpenAIBatchOptions } from "./openai-batch.js";
