/** NIAH and CWE configs (`filepath: null`) become the seahelm-niah / seahelm-cwe generators' data refs. */
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadSeaHelmConfigs } from "./load-seahelm.js";
import { CORPUS_TASKS, writeTree } from "./test-files.test-helper.js";
import { toTaskSpecs } from "./to-task-specs.js";

const ONERULER = "seahelm_tasks/long_context/oneruler";
const corpusConfig = (family: string) => readFileSync(path.join(CORPUS_TASKS, "long_context/oneruler", family, "config.yaml"), "utf8");

// The corpus's OneRuler configs with the resource files upstream keeps beside them (English and Chinese only).
const root = writeTree({
  [`${ONERULER}/niah/config.yaml`]: corpusConfig("niah"),
  [`${ONERULER}/cwe/config.yaml`]: corpusConfig("cwe"),
  [`${ONERULER}/niah/books/en/book.txt`]: "One sentence. Another one.\n",
  [`${ONERULER}/niah/books/zh/book.txt`]: "第一句。第二句。\n",
  [`${ONERULER}/niah/vocab/100_noun_list_translated.tsv`]: "en\tzh\napple\t苹果\n",
  [`${ONERULER}/cwe/vocab/en_words.txt`]: "apple\nriver\n",
  [`${ONERULER}/cwe/vocab/zh_words.txt`]: "苹果\n河流\n",
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("generated long-context data", () => {
  it("maps every NIAH and CWE task to its generator with the config's keys, the unformatted prompt and the resource files", async () => {
    const corpus = await loadSeaHelmConfigs([path.join(root, "seahelm_tasks")]);
    const specs = toTaskSpecs(corpus);
    expect(specs).toHaveLength(24 * 4);
    const niah = specs.find((s) => s.key === "niah_multiquery_8k/en")!;
    expect(niah.data).toEqual({
      id: "seahelm-niah",
      options: {
        language: "en",
        context_size: 8000,
        random_seed: 9472347,
        num_samples: 200,
        min_num_keys: 4,
        num_values: null,
        num_queries: 2,
        prompt_text: expect.stringMatching(/^Please read and memorize the text below\. I will ask you about it later\.<text>\n\{text\}\n<\/text>/),
        books: path.join(root, ONERULER, "niah/books/en"),
        vocab: path.join(root, ONERULER, "niah/vocab/100_noun_list_translated.tsv"),
      },
    });
    expect(niah.unsupported).toBeUndefined();
    const cwe = specs.find((s) => s.key === "cwe_easy_32k/zh")!;
    expect(cwe.data).toEqual({
      id: "seahelm-cwe",
      options: {
        language: "zh",
        context_size: 32000,
        random_seed: 9472347,
        num_samples: 200,
        num_common_words: 10,
        num_repeats_common_words: 30,
        num_repeats_uncommon_words: 3,
        prompt_text: expect.stringContaining("<列表>{list}</列表>"),
        words: path.join(root, ONERULER, "cwe/vocab/zh_words.txt"),
      },
    });
    expect(cwe.metrics[0]?.id).toBe("seahelm-cwe");
    // Resources are there for en and zh only: ta and vi name what is missing, en and zh can run.
    const blocked = specs.filter((s) => s.unsupported);
    expect(new Set(blocked.map((s) => s.language))).toEqual(new Set(["ta", "vi"]));
    expect(blocked.find((s) => s.key === "cwe_8k/ta")?.unsupported).toEqual([
      { code: "data-missing", message: expect.stringContaining("CWE word list file vocab/ta_words.txt, which is not there") },
    ]);
  });
});
