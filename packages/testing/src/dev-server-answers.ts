import type { DevServerAnswer } from "./dev-server-policy.js";
import type { DevChatMessage } from "./dev-server-schemas.js";
import { countTokens, countWordTokens, cutToTokens, cutToWordTokens } from "./tokenizer.js";

/** An answer after the request's limits were applied. */
export interface ShapedAnswer {
  content: string;
  reasoningContent: string | undefined;
  finishReason: "stop" | "length";
  contentTokens: number;
  reasoningTokens: number;
}

/**
 * Applies `stop` and `max_tokens` the way a reasoning model spends its budget: reasoning tokens first,
 * then content. Text is cut at the earliest stop string (finish "stop", the stop string not included);
 * when the tokens run out the text is cut at `maxTokens` tokens (finish "length").
 */
export function shapeAnswer(
  answer: DevServerAnswer,
  maxTokens: number | undefined,
  stop: readonly string[],
  tokens: "bpe" | "word" = "bpe",
): ShapedAnswer {
  const limitTokens = tokens === "bpe" ? limitBpeTokens : limitWordTokens;
  let content = cutAtStop(answer.content, stop);
  let reasoning = answer.reasoningContent;
  let finishReason: "stop" | "length" = "stop";
  let reasoningTokens = 0;
  let budget = maxTokens ?? Number.POSITIVE_INFINITY;
  if (reasoning !== undefined) {
    const r = limitTokens(reasoning, budget);
    reasoning = r.text;
    reasoningTokens = r.count;
    budget -= r.count;
    if (r.cut) {
      finishReason = "length";
      content = "";
    }
  }
  const c = limitTokens(content, budget);
  if (c.cut) finishReason = "length";
  return { content: c.text, reasoningContent: reasoning, finishReason, contentTokens: c.count, reasoningTokens };
}

function cutAtStop(text: string, stop: readonly string[]): string {
  let end = text.length;
  for (const s of stop) {
    if (s === "") continue;
    const i = text.indexOf(s);
    if (i >= 0 && i < end) end = i;
  }
  return end === text.length ? text : text.slice(0, end);
}

function limitBpeTokens(text: string, budget: number): { text: string; count: number; cut: boolean } {
  if (budget === Number.POSITIVE_INFINITY) return { text, count: countTokens(text), cut: false };
  return cutToTokens(text, budget);
}

// The legacy completions endpoint counts the word-level pieces its logprobs and text offsets are made of.
function limitWordTokens(text: string, budget: number): { text: string; count: number; cut: boolean } {
  if (budget === Number.POSITIVE_INFINITY) return { text, count: countWordTokens(text), cut: false };
  return cutToWordTokens(text, budget);
}

/** The text parts of a message's content, joined by "\n". */
export function messageText(message: DevChatMessage): string {
  const c = message.content;
  if (typeof c === "string") return c;
  if (c === null) return "";
  let out = "";
  for (const part of c) {
    if (part.type === "text") out = out === "" ? part.text : `${out}\n${part.text}`;
  }
  return out;
}

export function lastUserText(messages: readonly DevChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user") return messageText(m);
  }
  return "";
}

/**
 * Prompt tokens of a chat as OpenAI documents counting them: the text's BPE tokens, 3 per message
 * (role and delimiters), 3 to prime the reply, 85 per image ("low" detail), and the tool definitions.
 */
export function chatPromptTokens(messages: readonly DevChatMessage[], tools?: readonly unknown[] | null): number {
  // Tool definitions are part of the prompt a real server bills: counted as their JSON.
  let n = 3 + (tools && tools.length > 0 ? countTokens(JSON.stringify(tools)) : 0);
  for (const m of messages) {
    n += 3;
    const c = m.content;
    if (typeof c === "string") n += countTokens(c);
    else if (c !== null) for (const part of c) n += part.type === "text" ? countTokens(part.text) : 85;
  }
  return n;
}

export function stopList(stop: string | readonly string[] | null | undefined): readonly string[] {
  if (stop === null || stop === undefined) return [];
  return typeof stop === "string" ? [stop] : stop;
}
