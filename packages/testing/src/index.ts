export { type DevServer, startDevServer } from "./dev-server.js";
export {
  DEV_SERVER_HELP,
  DEV_SERVER_USAGE,
  type DevServerCliArgs,
  parseDevServerArgs,
  type RunDevServerCliOptions,
  runDevServerCli,
} from "./dev-server-args.js";
export { ANTHROPIC_BATCH_MAX_BYTES, ANTHROPIC_BATCH_MAX_REQUESTS, MESSAGE_BATCHES_PATH } from "./dev-server-batch-anthropic.js";
export { OPENAI_BATCH_MAX_BYTES, OPENAI_BATCH_MAX_REQUESTS } from "./dev-server-batch-openai.js";
export {
  type DevServerBatch,
  type DevServerFaults,
  type DevServerOptions,
  devServerOptionsSchema,
  FAULT_KINDS,
  type FaultKind,
} from "./dev-server-options.js";
export type {
  DevServerAnswer,
  DevServerPolicy,
  DevServerPolicyFunction,
  DevServerRequest,
} from "./dev-server-policy.js";
export type { DevServerStats } from "./dev-server-stats.js";
export { devServerToolArguments } from "./dev-server-tools.js";
export { canonicalJson } from "@yardstick/core";
export { type HashableMessage, promptHash } from "./prompt-hash.js";
export { answerTokenSet, type LegacyLogprobs, tokenLogprob } from "./token-logprobs.js";
export { countTokens, type Tokenized, tokenize } from "./tokenizer.js";
export * from "./conformance/index.js";
export * from "./hf-hub-server.js";
export * from "./scoring-server.js";
