/** Python's `string.punctuation`: the 32 ASCII punctuation characters. */
export const ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const PUNCT_SET = new Set(ASCII_PUNCTUATION);

/** The characters Python's `str.isspace()` accepts (JS `\s` differs: it has U+FEFF, lacks U+001C–U+001F and U+0085). */
const PY_WHITESPACE = /[\t\n\v\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** Python's `str.split()` with no argument: splits on runs of Unicode whitespace, drops empties. */
export function pySplit(text: string): string[] {
  return text.split(PY_WHITESPACE).filter((t) => t !== "");
}

/** Python's `str.lower()` is closer to JS `toLowerCase()` than to locale-aware lowering. */
export function pyLower(text: string): string {
  return text.toLowerCase();
}

/**
 * SEA-HELM's label normalisation (`SeaHelmMetric.normalize_answer`): lowercase, strip ASCII
 * punctuation, spaces and newlines from both ends (not inside), then collapse whitespace.
 */
export function normalizeLabelAnswer(text: string): string {
  const lowered = pyLower(text);
  let start = 0;
  let end = lowered.length;
  const edge = (ch: string) => PUNCT_SET.has(ch) || ch === " " || ch === "\n";
  while (start < end && edge(lowered[start]!)) start++;
  while (end > start && edge(lowered[end - 1]!)) end--;
  return pySplit(lowered.slice(start, end)).join(" ");
}

/**
 * SEA-HELM's QA normalisation (SQuAD without the English article removal, which upstream comments
 * out): lowercase, delete every ASCII punctuation character, collapse whitespace.
 */
export function normalizeQaAnswer(text: string): string {
  let out = "";
  for (const ch of pyLower(text)) if (!PUNCT_SET.has(ch)) out += ch;
  return pySplit(out).join(" ");
}

/** Python `str.strip(chars)`. */
export function stripChars(text: string, chars: string): string {
  const set = new Set(chars);
  let start = 0;
  let end = text.length;
  while (start < end && set.has(text[start]!)) start++;
  while (end > start && set.has(text[end - 1]!)) end--;
  return text.slice(start, end);
}
