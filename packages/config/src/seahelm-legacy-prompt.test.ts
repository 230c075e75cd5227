import * as path from "node:path";
import type { Sample, TaskSpec } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { seahelmDialect } from "./seahelm-dialect.js";
import { buildSeahelmLegacy } from "./seahelm-legacy-prompt.js";
import { writeTree } from "./test-files.test-helper.js";

/** A sentiment task in the guide's earlier shape, written for these tests. */
const LEGACY = `sentiment-old:
  metadata:
    version: 1
  name: sentiment
  competency: nlu
  metric_file: src/metrics/f1_acc_metric.py
  metric_class: F1AccMetric
  metric: normalized_accuracy
  temperature: 0.3
  fewshot_num_examples:
    instruct: 2
    base: 2
  languages:
    id:
      filepath: data/id_test.jsonl
      example_filepath: data/id_examples.jsonl
      max_tokens: 32
      prompt_template:
        template: |-
          Apa sentimen dari kalimat berikut ini? Jawablah dengan format:
          Jawaban: $OPTION{fewshot_examples}

          Kalimat:
          \`\`\`
          {text}
          \`\`\`
        fewshot_example: |-
          Kalimat:
          \`\`\`
          {text}
          \`\`\`
        fewshot_label: "Jawaban: {label}"
        answer_tag: "Jawaban:"
`;

/** The same task in the current shape. */
const CURRENT = `sentiment-new:
  metadata:
    version: 1
  name: sentiment
  competency: nlu
  metric_file: src/metrics/f1_acc_metric.py
  metric_class: F1AccMetric
  metric: normalized_accuracy
  fewshot_num_examples:
    instruct: 2
    base: 2
  languages:
    id:
      filepath: data/id_test.jsonl
      example_filepath: data/id_examples.jsonl
      max_tokens: 32
      prompt_template:
        preamble: "Apa sentimen dari kalimat berikut ini? Jawablah dengan format:\\n{answer_tag} $OPTION"
        task_template: "Kalimat:\\n\`\`\`\\n{text}\\n\`\`\`"
        answer_template: "{answer_tag} {label}"
        answer_tag: "Jawaban:"
`;

const row = (id: string, text: string, label: string) => JSON.stringify({ id, label, prompts: [{ text }] });
const DATA = {
  "data/id_test.jsonl": `${row("t1", "Makanannya enak.", "Positif")}\n`,
  "data/id_examples.jsonl": `${row("e1", "Pelayanannya lambat.", "Negatif")}\n${row("e2", "Biasa saja.", "Netral")}\n`,
};

const sample = (id: string, text: string, label: string): Sample => ({ id, prompts: [{ text }], label, raw: { id, label }, metadata: {} }) as Sample;

async function loadOne(yaml: string, extra: Record<string, string> = {}): Promise<TaskSpec> {
  const root = writeTree({ "old/config.yaml": yaml, ...Object.fromEntries(Object.entries({ ...DATA, ...extra }).map(([k, v]) => [`old/${k}`, v])) });
  const [spec] = await seahelmDialect.load(path.join(root, "old"));
  return spec!;
}

describe("the earlier config shape (template, fewshot_example, fewshot_label, temperature)", () => {
  it("normalises to the same TaskSpec as the current shape, apart from its prompt builder and temperature", async () => {
    const root = writeTree({ "old/config.yaml": `${LEGACY}${CURRENT}`, ...Object.fromEntries(Object.entries(DATA).map(([k, v]) => [`old/${k}`, v])) });
    const [old, current] = (await seahelmDialect.load(path.join(root, "old"))) as [TaskSpec, TaskSpec];
    expect(old.prompt.id).toBe("seahelm-legacy");
    expect(old.generation).toEqual({ seed: 1234, maxTokens: 32, temperature: 0.3 });
    expect(old.fewshot).toBe(2);
    const shared = (s: TaskSpec) => ({ ...s, key: undefined, name: undefined, source: undefined, prompt: undefined, generation: undefined, extra: undefined });
    expect(shared(old)).toEqual(shared(current));
    expect(old.postprocessors).toEqual([{ id: "seahelm-answer-tag", options: expect.objectContaining({ tag: "Jawaban:", mode: "labels" }) }]);
  });

  it("puts the examples block where {fewshot_examples} is, and nothing when 0-shot", async () => {
    const spec = await loadOne(LEGACY);
    const input = { sample: sample("t1", "Makanannya enak.", "Positif"), task: spec, turn: 1, previousResponses: [] };
    const examples = [sample("e1", "Pelayanannya lambat.", "Negatif"), sample("e2", "Biasa saja.", "Netral")];
    const fence = "```";
    expect(buildSeahelmLegacy({ ...input, examples }, spec.prompt.options!)).toEqual([
      {
        role: "user",
        content: [
          "Apa sentimen dari kalimat berikut ini? Jawablah dengan format:",
          "Jawaban: $OPTION",
          "",
          `Kalimat:\n${fence}\nPelayanannya lambat.\n${fence}\nJawaban: Negatif`,
          "",
          `Kalimat:\n${fence}\nBiasa saja.\n${fence}\nJawaban: Netral`,
          "",
          `Kalimat:\n${fence}\nMakanannya enak.\n${fence}`,
        ].join("\n"),
      },
    ]);
    const zeroShot = buildSeahelmLegacy({ ...input, examples: [] }, spec.prompt.options!);
    expect(zeroShot).toEqual([{ role: "user", content: `Apa sentimen dari kalimat berikut ini? Jawablah dengan format:\nJawaban: $OPTION\n\nKalimat:\n${fence}\nMakanannya enak.\n${fence}` }]);
    // A base model gets the same text as one completion prompt.
    expect(buildSeahelmLegacy({ ...input, examples: [] }, { ...spec.prompt.options, baseModel: true })).toBe(`${(zeroShot as { content: string }[])[0]!.content}\n\n`);
  });

  it("replays earlier turns with their responses; later turns have no examples block", async () => {
    const spec = await loadOne(LEGACY);
    const two: Sample = { ...sample("t1", "a", "Positif"), prompts: [{ text: "a" }, { text: "b" }] };
    const messages = buildSeahelmLegacy(
      { sample: two, task: spec, turn: 2, previousResponses: ["Jawaban: Positif"], examples: [sample("e1", "x", "Negatif")] },
      spec.prompt.options!,
    ) as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[0]!.content).toContain("Jawaban: Negatif");
    expect(messages[2]!.content).not.toContain("Jawaban: Negatif");
    expect(messages[2]!.content).toMatch(/\nb\n```$/);
  });

  it("validate finds a key the rows lack in template, fewshot_example and fewshot_label", async () => {
    const broken = LEGACY.replace("          {text}\n          ```\n        fewshot_example", "          {sentence}\n          ```\n        fewshot_example").replace(
      '"Jawaban: {label}"',
      '"Jawaban: {gold}"',
    );
    const root = writeTree({ "old/config.yaml": broken, ...Object.fromEntries(Object.entries(DATA).map(([k, v]) => [`old/${k}`, v])) });
    const problems = (await seahelmDialect.listProblems(root)).map((p) => p.message);
    expect(problems).toEqual([
      expect.stringMatching(/prompt_template\.template: task sentiment-old\/id: row t1 of \S+id_test\.jsonl cannot fill the template: .*'sentence'/),
      expect.stringMatching(/prompt_template\.fewshot_label: task sentiment-old\/id: row e1 of \S+id_examples\.jsonl .*'gold'/),
    ]);
    expect(await seahelmDialect.listProblems(writeTree({ "old/config.yaml": LEGACY, ...Object.fromEntries(Object.entries(DATA).map(([k, v]) => [`old/${k}`, v])) }))).toEqual([]);
  });

  it("a schema error names the key of the shape the prompt_template is written in", async () => {
    const root = writeTree({ "old/config.yaml": LEGACY.replace('fewshot_label: "Jawaban: {label}"', "fewshot_label: 5") });
    const [problem] = await seahelmDialect.listProblems(root);
    expect(problem?.message).toMatch(/sentiment-old\.languages\.id\.prompt_template\.fewshot_label/);
    expect(problem?.message).toMatch(/expected string/);
    const current = writeTree({ "new/config.yaml": CURRENT.replace(/ {8}task_template: .*\n/, "") });
    const [missing] = await seahelmDialect.listProblems(current);
    expect(missing?.message).toMatch(/prompt_template\.task_template.*required key is missing/);
  });
});
