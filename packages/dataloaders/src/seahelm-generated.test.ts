/**
 * SEA-HELM's generated long-context data (NIAH, CWE): seeded and deterministic, shaped as upstream
 * generates it, fingerprinted over the generator and its inputs, and conformant.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, DataLoadError, type Sample } from "@yardstick/core";
import { testDataloader } from "@yardstick/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createSeahelmCweDataloader } from "./seahelm-cwe.js";
import { tokenCount } from "./seahelm-generated.js";
import { createSeahelmNiahDataloader } from "./seahelm-niah.js";
import { splitIntoSentences } from "./seahelm-niah-text.js";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/oneruler/", import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), "yardstick-generated-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
cpSync(FIXTURES, dir, { recursive: true });

const PROMPT = "Please read the text. <text>\n{text}\n</text> Which numbers go with {needle_text}? <Answer>numbers</Answer>";
const niahBase = {
  language: "en",
  context_size: 1200,
  random_seed: 9472347,
  num_samples: 200,
  min_num_keys: 4,
  prompt_text: PROMPT,
  books: "niah/books/en",
  vocab: "niah/vocab/100_noun_list_translated.tsv",
};
const cweBase = {
  language: "en",
  context_size: 1500,
  random_seed: 9472347,
  num_samples: 200,
  num_common_words: 10,
  num_repeats_common_words: 20,
  num_repeats_uncommon_words: 10,
  prompt_text: "Below is a list. <List>{list}</List> Name the {num_common_words} most common words.",
  words: "cwe/vocab/en_words.txt",
};
const ctx = { baseDir: dir };

async function collect(loader: { load: (o: Record<string, unknown>, c?: object) => AsyncIterable<Sample> }, options: Record<string, unknown>): Promise<Sample[]> {
  const out: Sample[] = [];
  for await (const s of loader.load(options, ctx)) out.push(s);
  return out;
}

const niah = createSeahelmNiahDataloader();
const cwe = createSeahelmCweDataloader();
const NEEDLE = /The special magic number for "([^"]+)" is: (\d+)\. /g;
/** Upstream's per-sample seeds for random_seed 9472347, printed by CPython. */
const UPSTREAM_SEEDS = [1430359805, 161111476, 787078877];

describe("seahelm-niah", () => {
  it("is seeded: the same options give the same samples, another random_seed other ones; each sample carries upstream's seed", async () => {
    const a = await collect(niah, { ...niahBase, num_values: 1, limit: 3 });
    const b = await collect(niah, { ...niahBase, num_values: 1, limit: 3 });
    expect(b).toEqual(a);
    expect(a.map((s) => s.metadata?.seed)).toEqual(UPSTREAM_SEEDS);
    const c = await collect(niah, { ...niahBase, num_values: 1, limit: 3, random_seed: 1 });
    expect(c.map((s) => s.label)).not.toEqual(a.map((s) => s.label));
  });

  it("single value: min_num_keys needles, each in front of a haystack sentence; the asked key's value is the label", async () => {
    const samples = await collect(niah, { ...niahBase, num_values: 1, limit: 4 });
    for (const s of samples) {
      const { text, needle_text } = s.prompts[0] as { text: string; needle_text: string };
      const needles = [...text.matchAll(NEEDLE)];
      expect(needles).toHaveLength(4);
      expect(new Set(needles.map((m) => m[1])).size).toBe(4);
      const asked = needles.filter((m) => `"${m[1]}"` === needle_text);
      expect(asked.map((m) => m[2])).toEqual(s.label);
      // Taking the needles out gives back the haystack, and every needle is followed by a sentence of it.
      const haystack = text.replace(NEEDLE, "");
      const sentences = splitIntoSentences(haystack, "en");
      // (Two needles may go in front of the same sentence: the later one comes first.)
      const NEEDLES_AHEAD = /^(?:The special magic number for "[^"]+" is: \d+\. )*/;
      for (const m of needles) {
        const after = text.slice(m.index! + m[0].length).replace(NEEDLES_AHEAD, "");
        expect(sentences.some((x) => after.startsWith(x))).toBe(true);
      }
      // The haystack fills the budget: context minus the prompt and the needles, in o200k tokens.
      expect(tokenCount(haystack)).toBeGreaterThan(niahBase.context_size - tokenCount(PROMPT) - 4 * 20);
      expect(tokenCount(text) + tokenCount(PROMPT)).toBeLessThanOrEqual(niahBase.context_size + 10);
      expect(s.metadata).toMatchObject({ num_values: 1, num_queries: null, num_keys: 4 });
    }
  });

  it("multivalue, multiquery and none: labels and needle_text as upstream builds them", async () => {
    const [mv] = await collect(niah, { ...niahBase, num_values: 4, limit: 1 });
    const mvText = (mv!.prompts[0] as { text: string }).text;
    const mvNeedles = [...mvText.matchAll(NEEDLE)];
    expect(new Set(mvNeedles.map((m) => m[1])).size).toBe(1);
    expect(new Set(mvNeedles.map((m) => m[2]))).toEqual(new Set(mv!.label as string[]));
    expect(mv!.label).toHaveLength(4);

    const [mq] = await collect(niah, { ...niahBase, num_queries: 2, limit: 1 });
    const mqPrompt = mq!.prompts[0] as { text: string; needle_text: string };
    expect(mqPrompt.needle_text).toMatch(/^"[^"]+", and "[^"]+"$/);
    const byKey = new Map([...mqPrompt.text.matchAll(NEEDLE)].map((m) => [m[1], m[2]]));
    const askedKeys = [...mqPrompt.needle_text.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    expect(askedKeys.map((k) => byKey.get(k))).toEqual(mq!.label);

    const [none] = await collect(niah, { ...niahBase, num_values: 0, limit: 1 });
    const nonePrompt = none!.prompts[0] as { text: string; needle_text: string };
    expect(none!.label).toEqual(["none"]);
    const noneNeedles = [...nonePrompt.text.matchAll(NEEDLE)];
    expect(noneNeedles).toHaveLength(4);
    expect(noneNeedles.every((m) => `"${m[1]}"` !== nonePrompt.needle_text)).toBe(true);
  });

  it("Chinese: the language's needle sentence, quotes and joining word", async () => {
    const [s] = await collect(niah, { ...niahBase, language: "zh", books: "niah/books/zh", num_queries: 2, limit: 1 });
    const p = s!.prompts[0] as { text: string; needle_text: string };
    expect(p.needle_text).toMatch(/^“[^”]+”和“[^”]+”$/);
    expect([...p.text.matchAll(/“([^”]+)”的魔法数字是：(\d+)。/g)]).toHaveLength(4);
  });

  it("bad options and missing books: clear errors", async () => {
    expect(() => niah.checkOptions!({ ...niahBase, num_values: 1, num_queries: 2 })).toThrow(ConfigError);
    expect(() => niah.checkOptions!({ ...niahBase, num_values: 5 })).toThrow(/min_num_keys/);
    expect(() => niah.checkOptions!({ ...niahBase, language: "th", num_values: 1 })).toThrow(/needle_template/);
    await expect(collect(niah, { ...niahBase, num_values: 1, books: "niah/books/th" })).rejects.toThrow(DataLoadError);
    await expect(collect(niah, { ...niahBase, num_values: 1, books: "niah/books/th" })).rejects.toThrow(/niah[/\\]books[/\\]th/);
  });
});

describe("seahelm-cwe", () => {
  it("common words are upstream's for the same word list and seed (CPython's shuffle), the same twice", async () => {
    const a = await collect(cwe, { ...cweBase, limit: 3 });
    expect(a.map((s) => s.label)).toEqual([
      ["desert", "eager", "paddle", "pencil", "canvas", "cabinet", "orange", "walnut", "fancy", "diamond"],
      ["glacier", "planet", "curtain", "teapot", "gentle", "happy", "pencil", "climb", "carpet", "button"],
      ["calm", "shadow", "zipper", "chimney", "engine", "cabinet", "glacier", "cellar", "paint", "pocket"],
    ]);
    expect(await collect(cwe, { ...cweBase, limit: 3 })).toEqual(a);
    expect(a.map((s) => s.metadata?.seed)).toEqual(UPSTREAM_SEEDS);
  });

  it("a numbered list: each common word num_repeats_common_words times, every other word at most num_repeats_uncommon_words times, near the budget", async () => {
    for (const s of await collect(cwe, { ...cweBase, limit: 3 })) {
      const p = s.prompts[0] as { list: string; num_common_words: number };
      expect(p.num_common_words).toBe(10);
      const items = p.list.split(/ (?=\d+\. )/);
      for (const [i, item] of items.entries()) expect(item.startsWith(`${i + 1}. `)).toBe(true);
      const counts = new Map<string, number>();
      for (const item of items) {
        const w = item.replace(/^\d+\. /, "");
        counts.set(w, (counts.get(w) ?? 0) + 1);
      }
      for (const w of s.label as string[]) expect(counts.get(w)).toBe(20);
      for (const [w, n] of counts) if (!(s.label as string[]).includes(w)) expect(n).toBeLessThanOrEqual(10);
      const total = (s.metadata as { num_tokens: number }).num_tokens;
      expect(Math.abs(total - cweBase.context_size)).toBeLessThan(100);
      expect(total).toBe(tokenCount(p.list) + tokenCount(cweBase.prompt_text));
    }
  });

  it("a context too small for the common words, or a word list too short: clear errors", async () => {
    await expect(collect(cwe, { ...cweBase, context_size: 300, limit: 1 })).rejects.toThrow(/too small for 10 common words/);
    await expect(collect(cwe, { ...cweBase, context_size: 8000, limit: 1 })).rejects.toThrow(/word list is too short/);
    expect(() => cwe.checkOptions!({ ...cweBase, num_common_words: 0 })).toThrow(ConfigError);
  });
});

describe("fingerprints cover the generator, its parameters and its files", () => {
  it("limit aside, any parameter or resource change is a new fingerprint", async () => {
    const base = { ...cweBase, words: path.join(dir, "cwe/vocab/en_words.txt") };
    const fp = await cwe.fingerprint!(base, ctx);
    expect(await cwe.fingerprint!({ ...base, limit: 2 }, ctx)).toBe(fp);
    expect(await cwe.fingerprint!({ ...base, random_seed: 1 }, ctx)).not.toBe(fp);
    expect(await cwe.fingerprint!({ ...base, context_size: 1600 }, ctx)).not.toBe(fp);
    const n = { ...niahBase, num_values: 1 };
    const nfp = await niah.fingerprint!(n, ctx);
    expect(await niah.fingerprint!({ ...n, num_values: 4 }, ctx)).not.toBe(nfp);
    expect(nfp).not.toBe(fp);
  });
});

// Private copies, so changing their data for the fingerprint check touches nothing shared.
const confDir = mkdtempSync(path.join(tmpdir(), "yardstick-generated-conf-"));
afterAll(() => rmSync(confDir, { recursive: true, force: true }));
cpSync(FIXTURES, confDir, { recursive: true });

testDataloader("seahelm-niah", createSeahelmNiahDataloader, {
  cases: [
    {
      name: "multikey, three samples",
      options: { ...niahBase, num_values: 1, limit: 3 },
      ctx: { baseDir: confDir },
      expectedCount: 3,
      changeData: async () => void writeFileSync(path.join(confDir, "niah/books/en/harbour.txt"), "A different book. It is short.\n", { flag: "a" }),
    },
  ],
  invalidOptions: [{}, { ...niahBase }, { ...niahBase, num_values: 1, context_size: 0 }, { ...niahBase, num_values: 1, books: path.join(confDir, "none") }],
});

testDataloader("seahelm-cwe", createSeahelmCweDataloader, {
  cases: [
    {
      name: "three samples",
      options: { ...cweBase, limit: 3 },
      ctx: { baseDir: confDir },
      expectedCount: 3,
      changeData: async () => void writeFileSync(path.join(confDir, "cwe/vocab/en_words.txt"), "xylophone\n", { flag: "a" }),
    },
  ],
  invalidOptions: [{}, { ...cweBase, num_samples: -1 }, { ...cweBase, words: path.join(confDir, "none.txt") }],
});
