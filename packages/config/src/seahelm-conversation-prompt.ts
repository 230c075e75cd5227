/**
 * The `seahelm-conversation` prompt builder: the row brings its own conversation, which is sent as
 * it is (SEA-HELM's HealthBench loader hands the dataset's messages to the chat template and uses no
 * prompt template). The messages are the sample's `raw.conversations` (`{role, content}` each).
 * `baseModel: true` gives the text SEA-HELM's base-model chat template makes of them
 * (`renderBaseModelPrompt`).
 */
import { type ChatMessage, ConfigError, DataLoadError, type PromptBuilderV1, type PromptBuildInput } from "@yardstick/core";
import { z } from "zod";
import { baseModelPromptOptions, renderBaseModelPrompt } from "./base-model-template.js";

export const SEAHELM_CONVERSATION_PROMPT_ID = "seahelm-conversation";

export const seahelmConversationOptionsSchema = z.object(baseModelPromptOptions);

function parseOptions(options: Record<string, unknown>): z.output<typeof seahelmConversationOptionsSchema> {
  const parsed = seahelmConversationOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${SEAHELM_CONVERSATION_PROMPT_ID} options: ${issue.message}`, { keyPath: ["prompt", "options", ...issue.path.map(String)] });
  }
  return parsed.data;
}

const ROLES = new Set(["system", "user", "assistant"]);

function conversationOf(input: PromptBuildInput): ChatMessage[] {
  const messages = input.sample.raw.conversations;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new DataLoadError(`sample ${input.sample.id}: expected a non-empty list \`conversations\` of {role, content} (from the seahelm-healthbench dataloader)`);
  }
  return messages.map((m, i) => {
    const { role, content } = (m ?? {}) as { role?: unknown; content?: unknown };
    if (typeof role !== "string" || !ROLES.has(role) || typeof content !== "string") {
      throw new DataLoadError(`sample ${input.sample.id}: conversations[${i}] is not {role: system|user|assistant, content: string}`);
    }
    return { role: role as ChatMessage["role"], content };
  });
}

export function buildSeahelmConversation(input: PromptBuildInput, options: Record<string, unknown>): ChatMessage[] | string {
  const opts = parseOptions(options);
  if (input.turn !== 1) throw new ConfigError(`${SEAHELM_CONVERSATION_PROMPT_ID} builds one turn (the row's conversation), not turn ${input.turn}`);
  const messages = conversationOf(input);
  if (opts.baseModel) return renderBaseModelPrompt(messages, opts);
  return messages;
}

export function createSeahelmConversationPromptBuilder(): PromptBuilderV1 {
  return { specVersion: "v1", id: SEAHELM_CONVERSATION_PROMPT_ID, build: buildSeahelmConversation, checkOptions: (options) => void parseOptions(options) };
}
