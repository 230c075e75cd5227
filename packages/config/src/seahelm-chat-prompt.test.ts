import { readFileSync } from "node:fs";
import * as path from "node:path";
import { ConfigError, type Sample, type TaskSpec } from "@yardstick/core";
import { beforeAll, describe, expect, it } from "vitest";
import { builtinPromptBuilders } from "./index.js";
import { type LoadedConfigs, loadSeaHelmConfigs } from "./load-seahelm.js";
import { buildSeahelmChat } from "./seahelm-chat-prompt.js";
import { CORPUS_TASKS } from "./test-files.test-helper.js";
import { toTaskSpecs } from "./to-task-specs.js";

let corpus: LoadedConfigs;
beforeAll(async () => {
  corpus = await loadSeaHelmConfigs([CORPUS_TASKS]);
});

function spec(task: string, lang: string, modelKind: "instruct" | "base" = "instruct"): TaskSpec {
  return toTaskSpecs(corpus, { tasks: [task], languages: [lang], modelKind })[0]!;
}

/** Rows of a corpus sample file, as the seahelm-local dataloader would give them. */
function rows(rel: string): Sample[] {
  return readFileSync(path.join(CORPUS_TASKS, rel), "utf8")
    .trim()
    .split("\n")
    .map((line) => {
      const raw = JSON.parse(line) as Record<string, unknown>;
      return { id: String(raw.id), prompts: raw.prompts as Record<string, unknown>[], label: raw.label, raw };
    });
}

const build = (task: TaskSpec, sample: Sample, examples: Sample[] = [], turn = 1, previousResponses: string[] = []) =>
  buildSeahelmChat({ sample, task, examples, turn, previousResponses }, task.prompt.options ?? {});

const MMLU_ID_PREAMBLE =
  'Jawablah hanya dengan menggunakan format berikut ini.\n"Jawaban: ANSWER"\nGanti ANSWER dengan pilihan yang telah dipilih. Gunakan huruf A, B, C, atau D saja sebagai jawabannya.';

describe("seahelm-chat golden prompts from corpus configs and data", () => {
  it("global_mmlu_lite/id zero-shot", () => {
    const [first] = rows("knowledge/global_mmlu_lite/global_mmlu_lite_id_test.jsonl");
    expect(build(spec("global_mmlu_lite", "id"), first!)).toEqual([
      {
        role: "user",
        content: `${MMLU_ID_PREAMBLE}\n\nPertanyaan:\n\`\`\`\nKetika bepergian ke utara dari Amerika Serikat ke Kanada, Anda akan akan melihat Bintang Utara (Polaris) menjadi _________.\n\`\`\`\nA: Lebih terang\nB: Lebih tinggi di langit\nC: Lebih redup\nD: Lebih rendah di langit`,
      },
    ]);
  });

  it("global_mmlu_lite/id with two few-shot examples from the dev sample", () => {
    const [first] = rows("knowledge/global_mmlu_lite/global_mmlu_lite_id_test.jsonl");
    const dev = rows("knowledge/global_mmlu_lite/global_mmlu_lite_id_dev.jsonl");
    const messages = build(spec("global_mmlu_lite", "id"), first!, dev.slice(0, 2)) as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(messages[0]?.content).toBe(
      `${MMLU_ID_PREAMBLE}\n\nPertanyaan:\n\`\`\`\nAnda sedang mendorong truk di sepanjang jalan. Apakah akan lebih mudah untuk mempercepat truk ini di Mars? Mengapa? (Asumsikan tidak ada gesekan)\n\`\`\`\nA: Akan lebih sulit karena truknya lebih berat di Mars.\nB: Akan lebih mudah karena truknya lebih ringan di Mars.\nC: Di mana pun Anda berada, akan sama saja.\nD: Akan lebih sulit karena truk lebih ringan di Mars.`,
    );
    expect(messages[1]?.content).toBe("Jawaban: C");
    expect(messages[2]?.content.startsWith("Pertanyaan:\n```\nDari mana sebagian besar komet periode pendek berasal")).toBe(true);
    expect(messages[3]?.content).toBe("Jawaban: B");
    // The preamble is only on the first message of the block.
    expect(messages[4]?.content.startsWith("Pertanyaan:\n```\nKetika bepergian ke utara")).toBe(true);
  });

  it("sentiment/id", () => {
    const sample: Sample = { id: "s1", prompts: [{ text: "Filmnya bagus sekali!" }], label: "Positif", raw: {} };
    expect(build(spec("sentiment", "id"), sample)).toEqual([
      {
        role: "user",
        content:
          'Apa sentimen dari kalimat berikut ini? Gunakan salah satu dari pilihan di bawah ini: Positif, Negatif, atau Netral.\n\nJawablah hanya dengan menggunakan format berikut ini:\n"Jawaban: ANSWER"\nGanti ANSWER dengan jawaban yang telah dipilih.\n\nKalimat:\n```\nFilmnya bagus sekali!\n```',
      },
    ]);
  });

  it("safeguard few-shot answers read top-level columns (prompt_label) of the example row", () => {
    const [row, ex] = rows("safety/safeguard/general/data/id_general.jsonl");
    const messages = build(spec("safeguard_general_prompt", "id"), row!, [ex!]) as { content: string }[];
    expect(messages[1]?.content).toBe(`Jawaban: ${String(ex!.raw.prompt_label)}`);
  });

  it("tl paraphrase (block scalar with indentation indicator) as a base-model string", () => {
    const examples = rows("nlu/paraphrase_identification/data/tl_paws_examples.jsonl");
    const [row] = rows("nlu/paraphrase_identification/data/tl_paws.jsonl");
    const task = spec("paraphrase", "tl", "base");
    const text = build(task, row!, examples.slice(0, 1)) as string;
    expect(typeof text).toBe("string");
    const ex = examples[0]!.prompts[0]!;
    const r = row!.prompts[0]!;
    expect(text).toBe(
      'Bibigyan ka ng dalawang pangungusap, SENTENCE_1 at SENTENCE_2. Tukuyin kung alin sa sumusunod na pahayag ang pinaka-angkop para sa SENTENCE_1 at SENTENCE_2.\nA: Paraprase ang SENTENCE_2 ng SENTENCE_1.\nB: Hindi paraprase ang SENTENCE_2 ng SENTENCE_1.\n\nSumagot gamit ang sumusunod na format.\n"Sagot: ANSWER"\nPalitan ang ANSWER ng napiling sagot. Gumamit lang ng titik A o B sa sagot mo.' +
        `\n\nSENTENCE_1:\n\`\`\`\n${ex.sentence1}\n\`\`\`\nSENTENCE_2:\n\`\`\`\n${ex.sentence2}\n\`\`\`` +
        `\n\nSagot: ${examples[0]!.label}` +
        `\n\nSENTENCE_1:\n\`\`\`\n${r.sentence1}\n\`\`\`\nSENTENCE_2:\n\`\`\`\n${r.sentence2}\n\`\`\`\n\n`,
    );
  });

  it("is registered as seahelm-chat", () => {
    expect(builtinPromptBuilders["seahelm-chat"]?.id).toBe("seahelm-chat");
  });
});

describe("seahelm-chat behaviour", () => {
  const task = { prompt: { id: "seahelm-chat", options: {} } } as unknown as TaskSpec;
  const opts = { preamble: "Reply as {answer_tag} X", taskTemplate: "Q: {q}", answerTemplate: "{answer_tag} {label}", answerTag: "A:" };
  const sample: Sample = { id: "m1", prompts: [{ q: "one" }, { q: "two" }], raw: {} };
  const ex: Sample = { id: "e1", prompts: [{ q: "ex" }], label: ["gold", "alt"], raw: { label: ["gold", "alt"] } };

  it("builds later turns from earlier turns, responses and a new block with the preamble again", () => {
    const out = buildSeahelmChat({ sample, task, examples: [], turn: 2, previousResponses: ["first answer"] }, opts);
    expect(out).toEqual([
      { role: "user", content: "Reply as A: X\n\nQ: one" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "Reply as A: X\n\nQ: two" },
    ]);
  });

  it("repeats few-shot examples at every turn like upstream, unless told not to; list labels use the first item", () => {
    const input = { sample, task, examples: [ex], turn: 2, previousResponses: ["r1"] };
    const upstream = buildSeahelmChat(input, opts) as { content: string }[];
    expect(upstream.map((m) => m.content)).toEqual(["Reply as A: X\n\nQ: ex", "A: gold", "Q: one", "r1", "Reply as A: X\n\nQ: ex", "A: gold", "Q: two"]);
    const once = buildSeahelmChat(input, { ...opts, fewshotOnEveryTurn: false }) as { content: string }[];
    expect(once.map((m) => m.content)).toEqual(["Reply as A: X\n\nQ: ex", "A: gold", "Q: one", "r1", "Reply as A: X\n\nQ: two"]);
  });

  it("strips with Python whitespace rules when the preamble is empty, and renders a null tag as None", () => {
    const out = buildSeahelmChat({ sample, task, examples: [], turn: 1, previousResponses: [] }, { ...opts, preamble: "", taskTemplate: "\u3000Q: {q}\n" });
    expect(out).toEqual([{ role: "user", content: "Q: one" }]);
    const none = buildSeahelmChat({ sample, task, examples: [], turn: 1, previousResponses: [] }, { ...opts, answerTag: null });
    expect(none).toEqual([{ role: "user", content: "Reply as None X\n\nQ: one" }]);
  });

  it("puts row images after the text of the final user message, as SEA-HELM's image dataloader does", () => {
    const img = "data:image/png;base64,iVBORw0KGgo=";
    const withImages: Sample = { ...sample, raw: { image: img, images: ["https://example.org/b.png"] } };
    const out = buildSeahelmChat({ sample: withImages, task, examples: [], turn: 1, previousResponses: [] }, opts);
    expect(out).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Reply as A: X\n\nQ: one" },
          { type: "image_url", image_url: { url: img } },
          { type: "image_url", image_url: { url: "https://example.org/b.png" } },
        ],
      },
    ]);
    const bad: Sample = { ...sample, raw: { image: "pics/a.png" } };
    expect(() => buildSeahelmChat({ sample: bad, task, examples: [], turn: 1, previousResponses: [] }, opts)).toThrow(/not a data URI/);
  });

  it("fails like Python: answer_tag is not given to the row's task_template, duplicate keywords, null answer_template", () => {
    const run = (o: Record<string, unknown>, examples: Sample[] = []) =>
      buildSeahelmChat({ sample, task, examples, turn: 1, previousResponses: [] }, { ...opts, ...o });
    expect(() => run({ taskTemplate: "{answer_tag} {q}" })).toThrow(/missing key 'answer_tag'/);
    const dup: Sample = { id: "d", prompts: [{ q: "x", label: "L" }], raw: { label: "L" } };
    expect(() => run({}, [dup])).toThrow(/multiple values for keyword argument 'label'/);
    expect(() => run({ answerTemplate: null }, [ex])).toThrow(ConfigError);
    expect(() => run({ taskTemplate: 3 })).toThrow(/seahelm-chat options/);
    expect(() => buildSeahelmChat({ sample, task, examples: [], turn: 3, previousResponses: ["a", "b"] }, opts)).toThrow(/turn 3/);
  });
});
