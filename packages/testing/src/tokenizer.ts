import { countTokens as countBpeTokens, decode, encode } from "gpt-tokenizer/encoding/o200k_base";

/**
 * The dev server's tokenizers. Usage counts and `max_tokens` truncation use a real BPE (OpenAI's
 * o200k, from gpt-tokenizer), so the token counts a run records are realistic and cost estimates can
 * be checked against them. `tokenize` below, a cheap lossless word-level splitter, only cuts text
 * into pieces: streamed deltas and the legacy endpoint's logprob tokens and `text_offset`s.
 *
 * Rules, applied left to right:
 * - a token is optional leading whitespace followed by either one CJK character (Han, Hiragana,
 *   Katakana), a run of "word" characters (anything that is not whitespace, punctuation, a symbol or
 *   CJK), or a single punctuation/symbol character;
 * - whitespace at the very end of the text is one token of its own.
 *
 * So "Hello, world!" → ["Hello", ",", " world", "!"], and concatenating the tokens always gives back
 * the input exactly (offsets are character offsets into it).
 */
const TOKEN_RE =
  /\s+$|\s*(?:[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|[^\s\p{P}\p{S}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]+|[^\s])/gu;

export interface Tokenized {
  tokens: string[];
  /** Character offset of each token in the input. */
  offsets: number[];
}

export function tokenize(text: string): Tokenized {
  const tokens: string[] = [];
  const offsets: number[] = [];
  TOKEN_RE.lastIndex = 0;
  for (let m = TOKEN_RE.exec(text); m !== null; m = TOKEN_RE.exec(text)) {
    tokens.push(m[0]);
    offsets.push(m.index);
  }
  return { tokens, offsets };
}

/** Number of word-level pieces (`tokenize`), without building arrays: the legacy completions endpoint's counts. */
export function countWordTokens(text: string): number {
  let n = 0;
  TOKEN_RE.lastIndex = 0;
  while (TOKEN_RE.exec(text) !== null) n++;
  return n;
}

/** The text cut to its first `budget` word-level pieces. */
export function cutToWordTokens(text: string, budget: number): { text: string; count: number; cut: boolean } {
  const { tokens, offsets } = tokenize(text);
  if (tokens.length <= budget) return { text, count: tokens.length, cut: false };
  const keep = Math.max(0, budget);
  return { text: text.slice(0, offsets[keep] ?? text.length), count: keep, cut: true };
}

// Text that happens to spell a special token ("<|endoftext|>") is plain text to the dev server.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Number of o200k BPE tokens of the text (usage counts). */
export function countTokens(text: string): number {
  return text === "" ? 0 : countBpeTokens(text, PLAIN_TEXT);
}

/** The text cut to its first `budget` BPE tokens, and how many tokens that is. */
export function cutToTokens(text: string, budget: number): { text: string; count: number; cut: boolean } {
  const ids = encode(text, PLAIN_TEXT);
  if (ids.length <= budget) return { text, count: ids.length, cut: false };
  const keep = Math.max(0, budget);
  let head = decode(ids.slice(0, keep));
  // A cut inside a multi-byte character decodes to U+FFFD: keep only what is really a prefix.
  while (head !== "" && !text.startsWith(head)) head = head.slice(0, -1);
  return { text: head, count: keep, cut: true };
}
