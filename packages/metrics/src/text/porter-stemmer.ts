/**
 * The Porter stemmer as NLTK implements it in its default `NLTK_EXTENSIONS` mode (the stemmer
 * `rouge-score` uses): Porter (1980) plus Martin Porter's later extensions plus NLTK's own
 * (irregular forms, `ies`/`ied` on four-letter words, `alli` first in step 2, `fulli`, `logi`,
 * y→i only after a consonant, words of ≤ 2 characters left alone). Written from the published
 * algorithm and NLTK's documented rules.
 */

const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ["sky", "sky"],
  ["skies", "sky"],
  ["dying", "die"],
  ["lying", "lie"],
  ["tying", "tie"],
  ["news", "news"],
  ["innings", "inning"],
  ["inning", "inning"],
  ["outings", "outing"],
  ["outing", "outing"],
  ["cannings", "canning"],
  ["canning", "canning"],
  ["howe", "howe"],
  ["proceed", "proceed"],
  ["exceed", "exceed"],
  ["succeed", "succeed"],
]);

function isVowelLetter(ch: string): boolean {
  return ch === "a" || ch === "e" || ch === "i" || ch === "o" || ch === "u";
}

/** Porter's consonant: not a/e/i/o/u, and `y` only when it follows a vowel (or starts the word). */
function isConsonant(word: string, i: number): boolean {
  const ch = word[i]!;
  if (isVowelLetter(ch)) return false;
  if (ch === "y") return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** m in [C](VC){m}[V]: the number of vowel→consonant transitions. */
function measure(stem: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const cons = isConsonant(stem, i);
    if (cons && prevVowel) m++;
    prevVowel = !cons;
  }
  return m;
}

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o: ends consonant-vowel-consonant with the last not w/x/y; NLTK also accepts a two-letter vowel-consonant word. */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (
    n >= 3 &&
    isConsonant(word, n - 3) &&
    !isConsonant(word, n - 2) &&
    isConsonant(word, n - 1) &&
    word[n - 1] !== "w" &&
    word[n - 1] !== "x" &&
    word[n - 1] !== "y"
  ) {
    return true;
  }
  return n === 2 && !isConsonant(word, 0) && isConsonant(word, 1);
}

type Condition = ((stem: string) => boolean) | null;
type Rule = readonly [suffix: string, replacement: string, condition: Condition];

const positive = (stem: string): boolean => measure(stem) > 0;
const gtOne = (stem: string): boolean => measure(stem) > 1;

/** The first rule whose suffix matches decides: applied if its condition holds, else the word is returned unchanged. */
function applyRules(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === "*d" && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = suffix === "" ? word : word.slice(0, -suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith("ies") && word.length === 4) return `${word.slice(0, -3)}ie`;
  return applyRules(word, [
    ["sses", "ss", null],
    ["ies", "i", null],
    ["ss", "ss", null],
    ["s", "", null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith("ied")) return word.length === 4 ? `${word.slice(0, -3)}ie` : `${word.slice(0, -3)}i`;
  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let stem: string | undefined;
  for (const suffix of ["ed", "ing"]) {
    if (word.endsWith(suffix)) {
      const candidate = word.slice(0, -suffix.length);
      if (containsVowel(candidate)) {
        stem = candidate;
        break;
      }
    }
  }
  if (stem === undefined) return word;
  const last = stem[stem.length - 1] ?? "";
  return applyRules(stem, [
    ["at", "ate", null],
    ["bl", "ble", null],
    ["iz", "ize", null],
    ["*d", last, () => last !== "l" && last !== "s" && last !== "z"],
    ["", "e", (s) => measure(s) === 1 && endsCvc(s)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith("alli") && positive(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`);
  return applyRules(word, [
    ["ational", "ate", positive],
    ["tional", "tion", positive],
    ["enci", "ence", positive],
    ["anci", "ance", positive],
    ["izer", "ize", positive],
    ["bli", "ble", positive],
    ["alli", "al", positive],
    ["entli", "ent", positive],
    ["eli", "e", positive],
    ["ousli", "ous", positive],
    ["ization", "ize", positive],
    ["ation", "ate", positive],
    ["ator", "ate", positive],
    ["alism", "al", positive],
    ["iveness", "ive", positive],
    ["fulness", "ful", positive],
    ["ousness", "ous", positive],
    ["aliti", "al", positive],
    ["iviti", "ive", positive],
    ["biliti", "ble", positive],
    ["fulli", "ful", positive],
    // The `l` stays with the stem for the measure test so that geo-/theo-logi work.
    ["logi", "log", () => positive(word.slice(0, -3))],
  ]);
}

function step3(word: string): string {
  return applyRules(word, [
    ["icate", "ic", positive],
    ["ative", "", positive],
    ["alize", "al", positive],
    ["iciti", "ic", positive],
    ["ical", "ic", positive],
    ["ful", "", positive],
    ["ness", "", positive],
  ]);
}

function step4(word: string): string {
  return applyRules(word, [
    ["al", "", gtOne],
    ["ance", "", gtOne],
    ["ence", "", gtOne],
    ["er", "", gtOne],
    ["ic", "", gtOne],
    ["able", "", gtOne],
    ["ible", "", gtOne],
    ["ant", "", gtOne],
    ["ement", "", gtOne],
    ["ment", "", gtOne],
    ["ent", "", gtOne],
    ["ion", "", (stem) => measure(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))],
    ["ou", "", gtOne],
    ["ism", "", gtOne],
    ["ate", "", gtOne],
    ["iti", "", gtOne],
    ["ous", "", gtOne],
    ["ive", "", gtOne],
    ["ize", "", gtOne],
  ]);
}

function step5a(word: string): string {
  if (!word.endsWith("e")) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  if (m > 1) return stem;
  if (m === 1 && !endsCvc(stem)) return stem;
  return word;
}

function step5b(word: string): string {
  return applyRules(word, [["ll", "l", () => measure(word.slice(0, -1)) > 1]]);
}

/** Stems one word (lowercased first, as NLTK does by default). */
export function porterStem(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return irregular;
  if (word.length <= 2) return lower;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(lower))))))));
}

/** A memoising stemmer: summaries repeat words a lot. */
export function createPorterStemmer(): (word: string) => string {
  const cache = new Map<string, string>();
  return (word) => {
    let out = cache.get(word);
    if (out === undefined) {
      out = porterStem(word);
      if (cache.size < 100_000) cache.set(word, out);
    }
    return out;
  };
}
