/**
 * Script-based language identification: most scripts used by SEA-HELM's languages (Thai, Lao,
 * Khmer, Myanmar, Tamil) belong to a single language, so counting letters per script decides them.
 */

/** Scripts that map to one language code (or, for shared scripts, to the most common one). */
const SCRIPT_LANGUAGE: readonly [script: string, language: string][] = [
  ["Thai", "th"],
  ["Lao", "lo"],
  ["Khmer", "km"],
  ["Myanmar", "my"],
  ["Tamil", "ta"],
  ["Han", "zh"],
  ["Hiragana", "ja"],
  ["Katakana", "ja"],
  ["Hangul", "ko"],
  ["Arabic", "ar"],
  ["Devanagari", "hi"],
  ["Bengali", "bn"],
  ["Gurmukhi", "pa"],
  ["Gujarati", "gu"],
  ["Oriya", "or"],
  ["Telugu", "te"],
  ["Kannada", "kn"],
  ["Malayalam", "ml"],
  ["Sinhala", "si"],
  ["Tibetan", "bo"],
  ["Cyrillic", "ru"],
  ["Greek", "el"],
  ["Hebrew", "he"],
  ["Georgian", "ka"],
  ["Armenian", "hy"],
  ["Ethiopic", "am"],
  ["Latin", "latin"],
];

const SCRIPT_PATTERNS = SCRIPT_LANGUAGE.map(([script]) => [script, new RegExp(`\\p{Script=${script}}`, "gu")] as const);

/** Number of characters of each script in `text` (scripts with none are left out). */
export function countScripts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [script, pattern] of SCRIPT_PATTERNS) {
    pattern.lastIndex = 0;
    const n = text.match(pattern)?.length ?? 0;
    if (n > 0) counts.set(script, n);
  }
  return counts;
}

// Letters that Urdu and Persian use and Arabic does not: they separate the three Arabic-script
// languages well enough for a "which language is this" check.
const URDU_LETTERS = /[\u0679\u0688\u0691\u06ba\u06be\u06c1\u06d2]/gu;
const PERSIAN_LETTERS = /[\u067e\u0686\u0698\u06af\u06a9\u06cc]/gu;
const ARABIC_ONLY_LETTERS = /[\u0629\u0649\u064a\u0643]/gu;

export interface ScriptVerdict {
  /** The dominant script, or "" when the text has no letters of a known script. */
  script: string;
  /** A language code, "latin" when the Latin-script detector must decide, or "und". */
  language: string;
  /** Share of the counted characters that belong to the dominant script (0–1). */
  share: number;
}

/** Picks the dominant script of `text` and the language it implies. */
export function detectScript(text: string): ScriptVerdict {
  const counts = countScripts(text);
  let total = 0;
  for (const n of counts.values()) total += n;
  if (total === 0) return { script: "", language: "und", share: 0 };

  // Japanese mixes kana and Han: any real share of kana means Japanese, not Chinese.
  const kana = (counts.get("Hiragana") ?? 0) + (counts.get("Katakana") ?? 0);
  const han = counts.get("Han") ?? 0;
  if (kana > 0 && kana >= 0.1 * (kana + han)) {
    counts.delete("Hiragana");
    counts.delete("Katakana");
    counts.set("Japanese", kana + han);
    counts.delete("Han");
  }

  let best = "";
  let bestCount = 0;
  for (const [script, n] of counts) {
    if (n > bestCount) {
      best = script;
      bestCount = n;
    }
  }
  const share = bestCount / total;
  if (best === "Japanese") return { script: best, language: "ja", share };
  if (best === "Arabic") return { script: best, language: arabicScriptLanguage(text), share };
  const language = SCRIPT_LANGUAGE.find(([script]) => script === best)?.[1] ?? "und";
  return { script: best, language, share };
}

function arabicScriptLanguage(text: string): string {
  const urdu = text.match(URDU_LETTERS)?.length ?? 0;
  const persian = text.match(PERSIAN_LETTERS)?.length ?? 0;
  const arabic = text.match(ARABIC_ONLY_LETTERS)?.length ?? 0;
  if (urdu > 0 && urdu >= arabic) return "ur";
  if (persian > arabic) return "fa";
  return "ar";
}
