/**
 * The Burmese syllable splitter of SEA-HELM's vendored rouge_score (after Thu et al., TALLIP 2019):
 * dependent signs join the preceding consonant, short units holding an asat (U+103A) join the unit
 * before them, and stacked consonants (virama U+1039) are glued. Whitespace is removed first, so
 * spaces are not boundaries. Reimplemented step for step so tokens match upstream exactly.
 */
const ASAT = "\u103a";
const DOT_BELOW = "\u1037";
const VIRAMA = "\u1039";

const DEPENDENT = new Set<string>();
for (let i = 0; i < 8; i++) DEPENDENT.add(String.fromCodePoint(0x102b + i));
for (let i = 0; i < 3; i++) DEPENDENT.add(String.fromCodePoint(0x1036 + i));
for (let i = 0; i < 4; i++) DEPENDENT.add(String.fromCodePoint(0x103b + i));
DEPENDENT.add(ASAT);

const pyWs = /[\t\n\v\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;
const splitWs = (s: string) => s.split(pyWs).filter((t) => t !== "");

export function burmeseSyllables(input: string): string[] {
  let text = input.replaceAll("\u200c", " ").replaceAll(DOT_BELOW + ASAT, ASAT + DOT_BELOW);
  const chars = Array.from(splitWs(text.toLowerCase()).join(""));

  // Basic units: walk right to left, pushing each dependent sign onto the character before it.
  chars.reverse();
  for (let i = 0; i < chars.length - 1; i++) {
    const first = Array.from(chars[i]!)[0];
    if (first !== undefined && DEPENDENT.has(first)) {
      chars[i + 1] += chars[i]!;
      chars[i] = "";
    }
  }
  chars.reverse();

  // Asat units shorter than 4 code points (so not "au") attach to the unit before.
  const units = splitWs(chars.join(" "));
  for (let i = 1; i < units.length; i++) {
    const u = units[i]!;
    if (u.includes(ASAT) && Array.from(u).length < 4) {
      units[i - 1] += u;
      units[i] = "";
    }
  }

  text = splitWs(units.join(" ")).join(" ").replaceAll(` ${VIRAMA} `, VIRAMA);
  return splitWs(text);
}
