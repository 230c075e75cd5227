/** Characters JSON.stringify escapes (quote, backslash, controls) or may (surrogates, lone or not). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(s)` without its quotes. Generated text never needs escaping, and checking that is
 * about twice as fast as escaping; it also leaves `s` itself to be copied as is.
 */
export function jsonBody(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s).slice(1, -1) : s;
}

/** `JSON.stringify(s)` for a string, by the same check. */
export function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}
