/**
 * `seahelm-cwe`: SEA-HELM's common-word-extraction task (OneRuler CWE), generated as upstream does.
 *
 * The word list is the language's vocabulary (`words`: one word a line; upstream reads
 * `vocab/<lang>_words.txt`, and for English the noun, adjective and verb lists of the `wonderwords`
 * package, which an `en_words.txt` holding those three lists reproduces), made unique and sorted, each
 * word with a leading space. Per sample (its own seed from the `random_seed` stream), the list is
 * shuffled; the first `num_common_words` words are the common ones, repeated
 * `num_repeats_common_words` times each, and the rest, repeated `num_repeats_uncommon_words` times and
 * shuffled, fill the list up to the number of words estimated to fit `context_size` minus the prompt.
 * The words are shuffled together and numbered `1. w 2. w ...`; when the list misses the budget by
 * 100 tokens or more the estimate is corrected and the list rebuilt, at most three times.
 *
 * Sample: `{prompts: [{list, num_common_words}], label: [common words], metadata: {num_tokens, seed}}`.
 * Upstream estimates the tokens of a list number from one unseeded random number per digit count;
 * here that number is 10^(digits-1), so the data depends on the seed alone.
 */
import { DataLoadError, type DataloaderV1, PythonRandom, type Sample } from "@yardstick/core";
import { z } from "zod";
import { parseLoaderOptions } from "./hub-snapshot.js";
import { GENERATED_TOKENIZER, generatorFingerprint, readTextFile, resolveFrom, sampleSeeds, sortedUnique, tokenCount } from "./seahelm-generated.js";

export const SEAHELM_CWE_ID = "seahelm-cwe";
/** Bump when the generated data changes for the same options. */
export const SEAHELM_CWE_VERSION = 1;

/** How far (in tokens) a list may miss its budget before it is rebuilt, and how often. */
const DEVIATION = 100;
const RETRIES = 3;

export const seahelmCweOptionsSchema = z.object({
  language: z.string().min(1),
  context_size: z.int().positive(),
  random_seed: z.int().nonnegative(),
  num_samples: z.int().positive(),
  num_common_words: z.int().positive(),
  num_repeats_common_words: z.int().positive(),
  num_repeats_uncommon_words: z.int().positive(),
  /** The prompt's preamble followed by its task template, unformatted: its tokens are taken off the budget. */
  prompt_text: z.string().default(""),
  /** The language's word list, one word a line. */
  words: z.string().min(1),
  limit: z.int().positive().optional(),
});

type CweOptions = z.output<typeof seahelmCweOptionsSchema>;

const parseOptions = (options: Record<string, unknown>): CweOptions => parseLoaderOptions(SEAHELM_CWE_ID, seahelmCweOptionsSchema, options);

interface Vocabulary {
  /** Unique, sorted, each with a leading space. */
  words: string[];
  averageTokens: number;
}

async function readVocabulary(file: string): Promise<Vocabulary> {
  const lines = (await readTextFile(file, "CWE word list")).split(/\r?\n/).map((l) => l.trim());
  const words = sortedUnique(lines.filter((l) => l !== "")).map((w) => ` ${w}`);
  if (words.length === 0) throw new DataLoadError("the CWE word list is empty", { file });
  const averageTokens = words.reduce((sum, w) => sum + tokenCount(w), 0) / words.length;
  return { words, averageTokens };
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * How many numbered words fit `budget` tokens: filled a digit count at a time (9 one-digit numbers,
 * 90 two-digit ones, ...), each word costing its number's tokens plus the average word.
 */
export function estimateNumWords(budget: number, averageTokens: number): number {
  let words = 0;
  let left = budget;
  for (let power = 0; ; power++) {
    const perWord = tokenCount(` ${10 ** power}.`) + averageTokens;
    const span = 10 ** (power + 1) - 10 ** power;
    const cost = span * perWord;
    if (cost > left) return Math.trunc(words + Math.floor(left / perWord));
    words += span;
    left -= cost;
  }
}

const repeat = <T>(xs: readonly T[], times: number): T[] => Array.from({ length: times }, () => xs).flat();

/** One sample from its seed: the same shuffles, in the same order, as upstream's generator. */
export function generateCweSample(o: CweOptions, vocab: Vocabulary, seed: number): Omit<Sample, "id" | "raw"> {
  const shuffled = [...vocab.words];
  new PythonRandom(seed).shuffle(shuffled);
  const common = shuffled.slice(0, o.num_common_words);
  const uncommonPool = repeat(shuffled.slice(o.num_common_words), o.num_repeats_uncommon_words);
  new PythonRandom(seed).shuffle(uncommonPool);
  const commonRepeated = repeat(common, o.num_repeats_common_words);

  const promptTokens = tokenCount(o.prompt_text);
  // Common words may be longer or shorter than average; the budget accounts for their repeats.
  const commonExtra = o.num_common_words * o.num_repeats_common_words * (mean(common.map(tokenCount)) - vocab.averageTokens);
  const listBudget = o.context_size - promptTokens;
  let numWords = estimateNumWords(listBudget - commonExtra, vocab.averageTokens);
  let list = "";
  let listTokens = 0;
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    if (numWords < commonRepeated.length) {
      throw new DataLoadError(
        `context_size ${o.context_size} is too small for ${o.num_common_words} common words repeated ${o.num_repeats_common_words} times (about ${numWords} words fit)`,
        {},
      );
    }
    if (numWords - commonRepeated.length > uncommonPool.length) {
      throw new DataLoadError(`the word list is too short to fill context_size ${o.context_size}: ${numWords - commonRepeated.length} uncommon words needed, ${uncommonPool.length} available`, {});
    }
    const words = [...commonRepeated, ...uncommonPool.slice(0, numWords - commonRepeated.length)];
    new PythonRandom(seed).shuffle(words);
    list = words.map((w, i) => `${i + 1}.${w}`).join(" ");
    listTokens = tokenCount(list);
    const difference = listBudget - listTokens;
    if (Math.abs(difference) < DEVIATION) break;
    numWords = estimateNumWords(difference + listBudget - commonExtra, vocab.averageTokens);
  }
  const prompts = [{ list, num_common_words: o.num_common_words }];
  return { prompts, label: common.map((w) => w.trim()), metadata: { num_tokens: listTokens + promptTokens, seed, language: o.language } };
}

export function createSeahelmCweDataloader(): DataloaderV1 {
  return {
    specVersion: "v1",
    id: SEAHELM_CWE_ID,
    async *load(options, ctx = {}) {
      const o = parseOptions(options);
      const vocab = await readVocabulary(resolveFrom(o.words, ctx.baseDir));
      if (vocab.words.length <= o.num_common_words) {
        throw new DataLoadError(`the CWE word list has ${vocab.words.length} words; more than num_common_words (${o.num_common_words}) are needed`, { file: resolveFrom(o.words, ctx.baseDir) });
      }
      const n = Math.min(o.num_samples, o.limit ?? o.num_samples);
      for (const [i, seed] of sampleSeeds(o.random_seed, n).entries()) {
        ctx.signal?.throwIfAborted();
        const s = generateCweSample(o, vocab, seed);
        yield { id: String(i), ...s, raw: { ...s } };
      }
    },
    /** Generator version, every option but `limit`, the tokenizer, and the bytes of the word list. */
    async fingerprint(options, ctx = {}) {
      const { limit: _limit, words, ...rest } = parseOptions(options);
      return generatorFingerprint(SEAHELM_CWE_ID, SEAHELM_CWE_VERSION, { ...rest, tokenizer: GENERATED_TOKENIZER }, [resolveFrom(words, ctx.baseDir)]);
    },
    checkOptions: (options) => void parseOptions(options),
  };
}
