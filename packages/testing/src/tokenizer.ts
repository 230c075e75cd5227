/**
 * The dev server's deterministic tokenizer. It is not any real model's tokenizer; it only has to be
 * stable, cheap and lossless so that usage counts, `max_tokens` truncation and `text_offset`s behave
 * like a real server's.
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

/** Number of tokens, without building arrays (usage counting on the hot path). */
export function countTokens(text: string): number {
  let n = 0;
  TOKEN_RE.lastIndex = 0;
  while (TOKEN_RE.exec(text) !== null) n++;
  return n;
}
