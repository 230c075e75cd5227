/**
 * `seahelm-niah`: SEA-HELM's needle-in-a-haystack task (OneRuler NIAH), generated as upstream does.
 *
 * The haystack is the language's books (every `*.txt` of `books`, joined by blank lines, runs of
 * spaces and tabs made one space), repeated when too short and cut to `context_size` minus the prompt
 * and `min_num_keys` needles (in tokens, see seahelm-generated.ts). Each sample has its own seed (the
 * `random_seed` stream); from it, keys are drawn from the language's column of the `vocab` noun list
 * and 32-bit values at random, and each needle sentence is put in front of a randomly chosen sentence
 * of the haystack (its first occurrence). Variants:
 * - `num_queries: q`: q keys are asked about (one value each), the other keys are distractors;
 * - `num_values: v`: one key is asked about and has v needles (v = 0: it has none; the answer is
 *   "none"), plus `min_num_keys - v` distractor keys.
 *
 * Sample: `{prompts: [{text, needle_text}], label: [values...], metadata: {num_queries, num_values,
 * num_keys, seed}}`; `needle_text` names the asked keys in quotes, joined as the language does.
 */
import { DataLoadError, type DataloaderV1, PythonRandom, type Sample } from "@yardstick/core";
import { z } from "zod";
import { parseLoaderOptions } from "./hub-snapshot.js";
import {
  decodeTokens,
  GENERATED_TOKENIZER,
  generatorFingerprint,
  readTextFile,
  resolveFrom,
  sampleSeeds,
  textFilesIn,
  tokenCount,
  tokenIds,
} from "./seahelm-generated.js";
import { splitIntoSentences } from "./seahelm-niah-text.js";

export const SEAHELM_NIAH_ID = "seahelm-niah";
/** Bump when the generated data changes for the same options. */
export const SEAHELM_NIAH_VERSION = 1;

/** The needle sentence and the word joining the last two asked keys, per language (as upstream). */
const NEEDLES: Record<string, { needle: string; and: string }> = {
  en: { needle: 'The special magic number for "{needle}" is: {value}. ', and: ", and " },
  zh: { needle: "“{needle}”的魔法数字是：{value}。", and: "和" },
  ta: { needle: '"{needle}" என்ற சொல்லிற்கான சிறப்பு மந்திரச்சொல்: {value}. ', and: ", மற்றும் " },
  vi: { needle: 'Con số ma thuật đặc biệt cho "{needle}" là: {value}. ', and: ", và " },
};

const count = z.int().nonnegative();
export const seahelmNiahOptionsSchema = z
  .object({
    language: z.string().min(1),
    context_size: z.int().positive(),
    random_seed: z.int().nonnegative(),
    num_samples: z.int().positive(),
    min_num_keys: z.int().positive(),
    num_values: count.nullable().default(null),
    num_queries: count.nullable().default(null),
    /** The prompt's preamble followed by its task template, unformatted: its tokens are taken off the budget. */
    prompt_text: z.string().default(""),
    /** Folder of the language's books (`*.txt`). */
    books: z.string().min(1),
    /** Tab-separated noun list with one column per language. */
    vocab: z.string().min(1),
    /** The needle sentence (`{needle}`, `{value}`) and the joining word, for a language upstream has none for. */
    needle_template: z.string().optional(),
    and_word: z.string().optional(),
    limit: z.int().positive().optional(),
  })
  .superRefine((o, ctx) => {
    const set = [o.num_values, o.num_queries].filter((v) => v !== null).length;
    if (set !== 1) ctx.addIssue({ code: "custom", path: ["num_values"], message: "exactly one of num_values and num_queries must be set" });
    const n = o.num_values ?? o.num_queries ?? 0;
    if (n > o.min_num_keys) ctx.addIssue({ code: "custom", path: [o.num_values !== null ? "num_values" : "num_queries"], message: `must not exceed min_num_keys (${o.min_num_keys})` });
    if (o.num_queries === 0) ctx.addIssue({ code: "custom", path: ["num_queries"], message: "must be at least 1" });
    if (!NEEDLES[o.language] && (o.needle_template === undefined || o.and_word === undefined)) {
      ctx.addIssue({ code: "custom", path: ["needle_template"], message: `language "${o.language}" has no built-in needle sentence (known: ${Object.keys(NEEDLES).join(", ")}); set needle_template and and_word` });
    }
  });

type NiahOptions = z.output<typeof seahelmNiahOptionsSchema>;

const parseOptions = (options: Record<string, unknown>): NiahOptions => parseLoaderOptions(SEAHELM_NIAH_ID, seahelmNiahOptionsSchema, options);

const needleFormat = (o: NiahOptions) => ({
  needle: o.needle_template ?? NEEDLES[o.language]!.needle,
  and: o.and_word ?? NEEDLES[o.language]!.and,
});

const formatNeedle = (template: string, needle: string, value: string): string => template.replaceAll("{needle}", needle).replaceAll("{value}", value);

/** The language's column of the noun list, trimmed. */
async function readVocab(file: string, language: string): Promise<string[]> {
  const lines = (await readTextFile(file, "NIAH noun list")).split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = lines[0]?.split("\t").map((h) => h.trim()) ?? [];
  const col = header.indexOf(language);
  if (col < 0) throw new DataLoadError(`the NIAH noun list has no column "${language}" (columns: ${header.join(", ")})`, { file, line: 1 });
  const words = lines.slice(1).map((l, i) => {
    const w = l.split("\t")[col]?.trim();
    if (!w) throw new DataLoadError(`no "${language}" word on this row`, { file, line: i + 2 });
    return w;
  });
  return words;
}

interface Haystack {
  text: string;
  sentences: string[];
  vocab: string[];
}

async function buildHaystack(o: NiahOptions, files: { books: string[]; vocab: string }): Promise<Haystack> {
  const vocab = await readVocab(files.vocab, o.language);
  const { needle } = needleFormat(o);
  const needleTokens = tokenCount(formatNeedle(needle, new PythonRandom(o.random_seed).choice(vocab), "123456789"));
  const budget = o.context_size - tokenCount(o.prompt_text) - needleTokens * o.min_num_keys;
  if (budget <= 0) throw new DataLoadError(`context_size ${o.context_size} leaves no room for a haystack after the prompt and ${o.min_num_keys} needles`, {});
  const books = (await Promise.all(files.books.map((f) => readTextFile(f, "NIAH book")))).join("\n\n").replace(/[ \t]+/g, " ");
  let ids = tokenIds(books);
  if (ids.length === 0) throw new DataLoadError(`the NIAH books are empty`, { file: files.books[0] });
  if (ids.length < budget) ids = tokenIds(books.repeat(Math.floor(budget / ids.length) + 1));
  const text = decodeTokens(ids.slice(0, budget));
  const sentences = splitIntoSentences(text, o.language);
  if (sentences.length === 0) throw new DataLoadError(`the NIAH haystack has no sentence to put a needle before`, { file: files.books[0] });
  return { text, sentences, vocab };
}

function quoteKeys(keys: string[], language: string, and: string): string {
  const quoted = keys.map((k) => (language === "zh" ? `“${k}”` : `"${k}"`));
  if (quoted.length <= 1) return quoted.join("");
  const comma = language === "zh" ? "，" : ", ";
  return `${quoted.slice(0, -1).join(comma)}${and}${quoted.at(-1)}`;
}

/** One sample from its seed: the same draws, in the same order, as upstream's generator. */
export function generateNiahSample(o: NiahOptions, haystack: Haystack, seed: number): Omit<Sample, "id" | "raw"> {
  const rng = new PythonRandom(seed);
  const format = needleFormat(o);
  const pool = [...haystack.vocab];
  let text = haystack.text;
  const labels: string[] = [];
  const asked: string[] = [];
  const drawKey = (): string => {
    const key = rng.choice(pool);
    pool.splice(pool.indexOf(key), 1);
    return key;
  };
  const insertNeedle = (key: string, value: string): void => {
    const before = rng.choice(haystack.sentences);
    const needle = formatNeedle(format.needle, key, value);
    text = text.replace(before, () => needle + before);
  };
  const drawValue = (): string => String(rng.randint(0, 2 ** 31 - 1));
  const distractors = (from: number): void => {
    for (let i = from; i < o.min_num_keys; i++) {
      const value = drawValue();
      insertNeedle(drawKey(), value);
    }
  };
  if (o.num_queries !== null) {
    for (let i = 0; i < o.num_queries; i++) {
      const value = drawValue();
      const key = drawKey();
      insertNeedle(key, value);
      labels.push(value);
      asked.push(key);
    }
    distractors(o.num_queries);
  } else {
    const v = o.num_values ?? 0;
    const key = drawKey();
    asked.push(key);
    if (v === 0) labels.push("none");
    for (let i = 0; i < v; i++) {
      const value = drawValue();
      insertNeedle(key, value);
      labels.push(value);
    }
    distractors(v);
  }
  const prompts = [{ text, needle_text: quoteKeys(asked, o.language, format.and) }];
  const metadata = { num_queries: o.num_queries, num_values: o.num_values, num_keys: o.min_num_keys, seed, language: o.language };
  return { prompts, label: labels, metadata };
}

function resourceFiles(o: NiahOptions, baseDir: string | undefined): { booksDir: string; vocab: string } {
  return { booksDir: resolveFrom(o.books, baseDir), vocab: resolveFrom(o.vocab, baseDir) };
}

export function createSeahelmNiahDataloader(): DataloaderV1 {
  return {
    specVersion: "v1",
    id: SEAHELM_NIAH_ID,
    async *load(options, ctx = {}) {
      const o = parseOptions(options);
      const r = resourceFiles(o, ctx.baseDir);
      const haystack = await buildHaystack(o, { books: await textFilesIn(r.booksDir, "NIAH books"), vocab: r.vocab });
      const n = Math.min(o.num_samples, o.limit ?? o.num_samples);
      for (const [i, seed] of sampleSeeds(o.random_seed, n).entries()) {
        ctx.signal?.throwIfAborted();
        const s = generateNiahSample(o, haystack, seed);
        yield { id: String(i), ...s, raw: { ...s } };
      }
    },
    /** Generator version, every option but `limit`, the tokenizer, and the bytes of the books and the noun list. */
    async fingerprint(options, ctx = {}) {
      const { limit: _limit, ...o } = parseOptions(options);
      const r = resourceFiles(o as NiahOptions, ctx.baseDir);
      const files = [...(await textFilesIn(r.booksDir, "NIAH books")), r.vocab];
      return generatorFingerprint(SEAHELM_NIAH_ID, SEAHELM_NIAH_VERSION, { ...o, books: undefined, vocab: undefined, tokenizer: GENERATED_TOKENIZER }, files);
    },
    checkOptions: (options) => void parseOptions(options),
  };
}
