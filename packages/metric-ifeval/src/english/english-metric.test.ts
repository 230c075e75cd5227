/** ifeval:en on google/IFEval-shaped rows: scores worked out by hand, bad rows, and the metric conformance suite. */
import { readFileSync } from "node:fs";
import { ConfigError, MetricError, type MetricInput, type TaskSpec } from "@yardstick/core";
import { testMetric } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import plugins, { createIfevalEnglishMetric, IFEVAL_EN_METRIC_ID } from "../index.js";

interface GoogleRow {
  key: number;
  prompt: string;
  instruction_id_list: string[];
  kwargs: Record<string, unknown>[];
}
const fixture = JSON.parse(readFileSync(new URL("../__fixtures__/google-ifeval-rows.json", import.meta.url), "utf8")) as { row: GoogleRow; response: string }[];

/** A google/IFEval row as SEA-HELM's IFEvalDataloader hands it on (the dataloaders' `ifeval` row format). */
function input({ row, response }: { row: GoogleRow; response: string }): MetricInput {
  const sample = {
    id: String(row.key),
    prompts: [{ text: row.prompt }],
    metadata: { language: "en", instruction_id_list: row.instruction_id_list },
  };
  return { sampleId: sample.id, prediction: response, reference: undefined, sample: { ...sample, raw: { ...sample, kwargs: row.kwargs } } };
}
const inputs = fixture.map(input);

const task: TaskSpec = {
  key: "ifeval/en",
  name: "ifeval",
  language: "en",
  competency: "english_instruction_following",
  data: { id: "huggingface" },
  fewshot: 0,
  prompt: { id: "seahelm" },
  mode: "generate",
  endpoint: "chat",
  generation: {},
  postprocessors: [],
  metrics: [{ id: IFEVAL_EN_METRIC_ID }],
  mainScore: "normalized_prompt_level_strict_acc",
  errorResponses: "replace",
};

describe("ifeval:en", () => {
  it("scores prompt and instruction level, strict and loose, as SEA-HELM's English IFEvalMetric", async () => {
    const result = await createIfevalEnglishMetric().compute(inputs, {}, { task });
    // Row 1001 follows both (strict and loose). Row 1002 starts "Sure!" (not lowercase) but has "park":
    // strict 1 of 2, loose 2 of 2 without the first line. Row 1003's JSON follows a line of text:
    // strict 0, loose 1. Row 1004 has 5 words and a comma but a title: 1 of 3 either way.
    expect(result.perSample.map((s) => s.scores)).toEqual([
      { prompt_level_strict_acc: 1, inst_level_strict_acc: 1, prompt_level_loose_acc: 1, inst_level_loose_acc: 1 },
      { prompt_level_strict_acc: 0, inst_level_strict_acc: 0.5, prompt_level_loose_acc: 1, inst_level_loose_acc: 1 },
      { prompt_level_strict_acc: 0, inst_level_strict_acc: 0, prompt_level_loose_acc: 1, inst_level_loose_acc: 1 },
      { prompt_level_strict_acc: 0, inst_level_strict_acc: 1 / 3, prompt_level_loose_acc: 0, inst_level_loose_acc: 1 / 3 },
    ]);
    expect(result.scores.prompt_level_strict_acc).toBe(0.25);
    expect(result.scores.inst_level_strict_acc).toBeCloseTo((1 + 0.5 + 0 + 1 / 3) / 4, 12);
    expect(result.scores.prompt_level_loose_acc).toBe(0.75);
    expect(result.scores.inst_level_loose_acc).toBeCloseTo((3 + 1 / 3) / 4, 12);
    expect(result.scores.normalized_prompt_level_strict_acc).toBe(25);
  });

  it("is registered beside ifeval in the package's plugins", () => {
    expect(Object.keys(plugins.metrics ?? {}).sort()).toEqual(["ifeval", "ifeval:en"]);
  });

  it("reads a reference { instruction_id_list, kwargs } instead of a sample", async () => {
    const result = await createIfevalEnglishMetric().compute(
      [{ sampleId: "r", prediction: "no commas here", reference: { instruction_id_list: ["punctuation:no_comma"], kwargs: [{ relation: null }] } }],
      {},
    );
    expect(result.scores.normalized_prompt_level_strict_acc).toBe(100);
  });

  it("rejects rows without instructions, unknown ids, mismatched kwargs and non-string predictions, naming the sample", () => {
    const metric = createIfevalEnglishMetric();
    const base = inputs[0]!;
    const withMeta = (metadata: Record<string, unknown>, kwargs: unknown): MetricInput => ({
      ...base,
      sample: { ...base.sample!, metadata, raw: { ...base.sample!.raw, metadata, kwargs } },
    });
    expect(() => metric.compute([withMeta({ language: "en" }, [])], {})).toThrow(MetricError);
    expect(() => metric.compute([withMeta({ instruction_id_list: ["startend:first_word"] }, [{}])], {})).toThrow(/unknown instruction id "startend:first_word"/);
    expect(() => metric.compute([withMeta({ instruction_id_list: ["punctuation:no_comma"] }, [{}, {}])], {})).toThrow(/expected a list of 1 objects/);
    expect(() => metric.compute([{ ...base, prediction: null }], {})).toThrow(/prediction is null/);
    expect(() => metric.compute([], {})).toThrow(/no samples/);
    expect(() => metric.compute(inputs, { language: "en" })).toThrow(ConfigError);
  });
});

testMetric(createIfevalEnglishMetric(), [{ name: "google/IFEval rows", inputs, ctx: { task }, expectedRange: { normalized_prompt_level_strict_acc: [0, 100], prompt_level_strict_acc: [0, 1], inst_level_loose_acc: [0, 1] } }], {
  invalidOptions: [{ language: "en" }],
});
