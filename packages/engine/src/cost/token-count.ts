import { createRequire } from "node:module";
import type { ChatMessage, ModelRequest } from "@yardstick/core";

/**
 * Token counts for cost estimates, from OpenAI's o200k BPE (gpt-tokenizer). Other models' tokenizers
 * differ by a few percent on English text; o200k is the maintained, widely used reference.
 */

// Text that happens to spell a special token ("<|endoftext|>") is counted as plain text.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

type O200k = typeof import("gpt-tokenizer/encoding/o200k_base");
let o200k: O200k | undefined;

/** Counts with o200k, loaded on first use: its tables take most of a second to build, and only cost estimates need them. */
export function countTextTokens(text: string): number {
  if (text === "") return 0;
  o200k ??= createRequire(import.meta.url)("gpt-tokenizer/cjs/encoding/o200k_base") as O200k;
  return o200k.countTokens(text, PLAIN_TEXT);
}

/** Tokens a chat format adds per message (role and delimiters) and once to prime the reply (OpenAI's documented counting). */
export const CHAT_TOKENS_PER_MESSAGE = 3;
export const CHAT_REPLY_PRIMING_TOKENS = 3;
/** An image part, as OpenAI's "low" detail. */
export const IMAGE_PART_TOKENS = 85;

export function countChatTokens(messages: readonly ChatMessage[]): number {
  let n = CHAT_REPLY_PRIMING_TOKENS;
  for (const m of messages) {
    n += CHAT_TOKENS_PER_MESSAGE;
    if (typeof m.content === "string") n += countTextTokens(m.content);
    else for (const part of m.content) n += part.type === "text" ? countTextTokens(part.text) : IMAGE_PART_TOKENS;
  }
  return n;
}

/** Input tokens of a request as rendered for the server: its messages (or prompt) and tool definitions. */
export function countRequestInputTokens(request: ModelRequest): number {
  const body = request.kind === "chat" ? countChatTokens(request.messages) : countTextTokens(request.prompt);
  const tools = request.params.tools;
  return tools && tools.length > 0 ? body + countTextTokens(JSON.stringify(tools)) : body;
}
