/**
 * The few Python `str` behaviours the UltraEval metrics depend on. (@yardstick/postprocessors has the
 * full set; plugin packages do not import each other, so this small copy lives here.)
 */
const WS = new Set<number>([0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);
for (let c = 0x09; c <= 0x0d; c++) WS.add(c);
for (let c = 0x1c; c <= 0x20; c++) WS.add(c);
for (let c = 0x2000; c <= 0x200a; c++) WS.add(c);

/** Python `\s` as a regex character class. */
export const PY_S = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";

export function isPySpace(ch: string): boolean {
  return WS.has(ch.codePointAt(0)!);
}

/** `s.strip()`. */
export function pyStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && WS.has(s.charCodeAt(a))) a++;
  while (b > a && WS.has(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/** `s.rstrip()`. */
export function pyRStrip(s: string): string {
  let b = s.length;
  while (b > 0 && WS.has(s.charCodeAt(b - 1))) b--;
  return s.slice(0, b);
}

/** `s.split()`: runs of whitespace, no empty items. */
export function pySplitWs(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    while (i < s.length && WS.has(s.charCodeAt(i))) i++;
    const start = i;
    while (i < s.length && !WS.has(s.charCodeAt(i))) i++;
    if (i > start) out.push(s.slice(start, i));
  }
  return out;
}

/** The code points of a string (Python's indexing unit). */
export function codePoints(s: string): string[] {
  return Array.from(s);
}
