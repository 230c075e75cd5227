import type { PromptBuilderV1 } from "@yardstick/core";
import { createSeahelmChatPromptBuilder } from "./seahelm-chat-prompt.js";
import { createSeahelmConversationPromptBuilder, SEAHELM_CONVERSATION_PROMPT_ID } from "./seahelm-conversation-prompt.js";
import { createSeahelmLegacyPromptBuilder, SEAHELM_LEGACY_PROMPT_ID } from "./seahelm-legacy-prompt.js";

export * from "./check-judge-config.js";
export * from "./check-template-keys.js";
export * from "./config-json-schemas.js";
export * from "./find-configs.js";
export * from "./interpolate.js";
export * from "./load-seahelm.js";
export * from "./load-tasks.js";
export * from "./metric-mapping.js";
export * from "./python-format.js";
export * from "./prices.js";
export * from "./python-str.js";
export * from "./resolve-data-path.js";
export * from "./rubric.js";
export * from "./base-model-template.js";
export * from "./seahelm-chat-prompt.js";
export * from "./seahelm-constants.js";
export * from "./seahelm-conversation-prompt.js";
export * from "./seahelm-dialect.js";
export * from "./seahelm-judge.js";
export * from "./seahelm-legacy-prompt.js";
export * from "./seahelm-schema.js";
export * from "./select-suite.js";
export * from "./snapshot-data.js";
export * from "./to-task-specs.js";
export * from "./ultraeval/index.js";
export * from "./validate.js";

/**
 * Prompt builders of this package that need no settings, by id. The `ultraeval` builder needs the
 * transforms (`createUltraEvalPromptBuilder({ transforms })`): the runner's composition root adds it.
 */
export const builtinPromptBuilders: Record<string, PromptBuilderV1> = {
  "seahelm-chat": createSeahelmChatPromptBuilder(),
  [SEAHELM_LEGACY_PROMPT_ID]: createSeahelmLegacyPromptBuilder(),
  [SEAHELM_CONVERSATION_PROMPT_ID]: createSeahelmConversationPromptBuilder(),
};
