import { PY_W } from "@yardstick/core";

/**
 * Sentence and word counting for google's English IFEval. Upstream counts words with NLTK's
 * `RegexpTokenizer(r"\w+")` (runs of word characters) and sentences with NLTK's Punkt model; Punkt
 * is a trained model that is not reproduced here, so sentences come from the rule-based splitter
 * that ships beside it in google's `instructions_util` (abbreviations, initials, decimals,
 * websites and ellipses do not end a sentence). The two agree on ordinary prose; see the README.
 */

const WORD = new RegExp(`${PY_W}+`, "gu");

/** Number of `\w+` runs, as NLTK's `RegexpTokenizer(r"\w+")` finds them. */
export function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

const ALPHA = "([A-Za-z])";
const PREFIXES = /(Mr|St|Mrs|Ms|Dr)[.]/g;
const SUFFIXES = "(Inc|Ltd|Jr|Sr|Co)";
const STARTERS = "(Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He\\s|She\\s|It\\s|They\\s|Their\\s|Our\\s|We\\s|But\\s|However\\s|That\\s|This\\s|Wherever)";
const ACRONYMS = "([A-Z][.][A-Z][.](?:[A-Z][.])?)";
const WEBSITES = /[.](com|net|org|io|gov|edu|me)/g;
const DECIMAL = /([0-9])[.]([0-9])/g;
const MULTIPLE_DOTS = /\.{2,}/g;

const re = (source: string) => new RegExp(source, "g");

/** The sentences of `text`: periods that are not sentence ends are masked, then the text is cut after . ? and !. */
export function splitIntoSentences(input: string): string[] {
  let text = ` ${input}  `.replaceAll("\n", " ");
  text = text.replace(PREFIXES, "$1<prd>");
  text = text.replace(WEBSITES, "<prd>$1");
  text = text.replace(DECIMAL, "$1<prd>$2");
  text = text.replace(MULTIPLE_DOTS, (dots) => `${"<prd>".repeat(dots.length)}<stop>`);
  if (text.includes("Ph.D")) text = text.replaceAll("Ph.D.", "Ph<prd>D<prd>");
  text = text.replace(re(`\\s${ALPHA}[.] `), " $1<prd> ");
  text = text.replace(re(`${ACRONYMS} ${STARTERS}`), "$1<stop> $2");
  text = text.replace(re(`${ALPHA}[.]${ALPHA}[.]${ALPHA}[.]`), "$1<prd>$2<prd>$3<prd>");
  text = text.replace(re(`${ALPHA}[.]${ALPHA}[.]`), "$1<prd>$2<prd>");
  text = text.replace(re(` ${SUFFIXES}[.] ${STARTERS}`), " $1<stop> $2");
  text = text.replace(re(` ${SUFFIXES}[.]`), " $1<prd>");
  text = text.replace(re(` ${ALPHA}[.]`), " $1<prd>");
  text = text.replaceAll(".\u201d", "\u201d.").replaceAll('."', '".').replaceAll('!"', '"!').replaceAll('?"', '"?');
  text = text.replaceAll(".", ".<stop>").replaceAll("?", "?<stop>").replaceAll("!", "!<stop>").replaceAll("<prd>", ".");
  const sentences = text.split("<stop>").map((s) => s.trim());
  if (sentences.length > 0 && sentences[sentences.length - 1] === "") sentences.pop();
  return sentences;
}

/** Words of NLTK's `word_tokenize`, approximately: runs of letters, digits, "_", "'", "-" and inner periods. */
const TOKEN = new RegExp(`(?:${PY_W}|['\\-])+(?:\\.(?:${PY_W})+)*\\.?`, "gu");

export function wordTokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}
