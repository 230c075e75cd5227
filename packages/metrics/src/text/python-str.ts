/**
 * The few Python `str` behaviours the sacrebleu / rouge-score ports depend on. JavaScript's `\s`
 * and `String.prototype.trim` use a different whitespace set than Python's `str.split()` /
 * `str.strip()`, and JavaScript strings index UTF-16 code units where Python indexes code points,
 * so both are spelled out here.
 */

/**
 * Python's `str.isspace()` set (Unicode 15): what `str.split()` with no argument splits on.
 * Differs from JS `\s`: includes U+001C–U+001F and U+0085, excludes U+FEFF.
 */
const PY_WS_CLASS = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const PY_WS_RUN = new RegExp(`[${PY_WS_CLASS}]+`, "u");
const PY_WS_RUN_G = new RegExp(`[${PY_WS_CLASS}]+`, "gu");
const PY_WS_TRAILING = new RegExp(`[${PY_WS_CLASS}]+$`, "u");
const PY_WS_LEADING = new RegExp(`^[${PY_WS_CLASS}]+`, "u");

/** Python `s.split()` (no separator): whitespace runs split, leading/trailing runs dropped. */
export function pySplit(s: string): string[] {
  if (s === "") return [];
  const parts = s.split(PY_WS_RUN);
  let start = 0;
  let end = parts.length;
  if (parts[0] === "") start = 1;
  if (end > start && parts[end - 1] === "") end -= 1;
  return start === 0 && end === parts.length ? parts : parts.slice(start, end);
}

/** Python `''.join(s.split())`: removes every whitespace character. */
export function pyRemoveWhitespace(s: string): string {
  return s.replace(PY_WS_RUN_G, "");
}

/** Python `s.rstrip()`. */
export function pyRstrip(s: string): string {
  return s.replace(PY_WS_TRAILING, "");
}

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(PY_WS_LEADING, "").replace(PY_WS_TRAILING, "");
}

/** True when the string contains a character outside the BMP (then code units ≠ code points). */
export function hasAstral(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) return true;
  }
  return false;
}

/** Python `len(s)`: number of code points. */
export function pyLen(s: string): number {
  if (!hasAstral(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Python's `string.punctuation`. */
export const PY_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
