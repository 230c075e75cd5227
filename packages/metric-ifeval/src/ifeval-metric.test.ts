import { readFileSync } from "node:fs";
import { ConfigError, createRegistry, type MetricInput, MetricError, type TaskSpec } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { checkMetricConformance, testMetric } from "@yardstick/testing";
import plugins, { createIfevalMetric, IFEVAL_METRIC_ID } from "./index.js";

interface FixtureRow {
  row: { id: string; prompts: Record<string, unknown>[]; metadata: Record<string, unknown> } & Record<string, unknown>;
  response: string;
}
const fixture = JSON.parse(readFileSync(new URL("./__fixtures__/ifeval-rows.json", import.meta.url), "utf8")) as Record<string, FixtureRow[]>;

function inputsFor(language: "id" | "th"): MetricInput[] {
  return (fixture[language] ?? []).map(({ row, response }) => ({
    sampleId: row.id,
    prediction: response,
    reference: row.label,
    sample: { id: row.id, prompts: row.prompts, metadata: row.metadata, raw: row },
  }));
}

function task(language: string): TaskSpec {
  return {
    key: `if-eval/${language}`,
    name: "if-eval",
    language,
    competency: "instruction-following",
    data: { id: "huggingface" },
    fewshot: 0,
    prompt: { id: "seahelm" },
    mode: "generate",
    endpoint: "chat",
    generation: { maxTokens: 4096 },
    postprocessors: [],
    metrics: [{ id: IFEVAL_METRIC_ID }],
    mainScore: "overall_lang_normalized_acc",
    errorResponses: "replace",
  };
}

const RANGES: Record<string, [number, number]> = {
  overall_lang_normalized_acc: [0, 100],
  overall_acc: [0, 100],
  correct_language_rate: [0, 1],
};

testMetric(createIfevalMetric(), [{ name: "Indonesian rows", inputs: inputsFor("id"), ctx: { task: task("id") }, expectedRange: RANGES }], {
  invalidOptions: [{ nope: true }, { pythonWordChars: "yes" }, { language: "" }],
});

describe("ifeval metric", () => {
  it("scores Indonesian rows: checker pass AND correct language", async () => {
    const result = await createIfevalMetric().compute(inputsFor("id"), {}, { task: task("id") });
    // Rows 1,2,3,5,6,7 follow their instruction; row 5 answers in English, so 5 of 8 count.
    expect(result.scores).toEqual({
      overall_lang_normalized_acc: 62.5,
      overall_acc: 75,
      correct_language_rate: 0.875,
      overall_pass: 6,
      overall_count: 8,
    });
    const byId = Object.fromEntries(result.perSample.map((s) => [s.sampleId, s.scores]));
    expect(byId["id-5"]).toEqual({ overall_lang_normalized_acc: 0, instruction_followed: 1, correct_language: 0 });
    expect(byId["id-6"]).toEqual({ overall_lang_normalized_acc: 1, instruction_followed: 1, correct_language: 1 });
    expect(result.details?.subcategories).toMatchObject({ "length_constraints:number_words": 0, "startend:quotation": 1 });
    expect(result.details?.checkers).toMatchObject({ "startend:quotation": { count: 1, pass: 1, langNormalizedPass: 0 } });
  });

  it("skips word-count rows for Thai and reports them", async () => {
    const result = await createIfevalMetric().compute(inputsFor("th"), {}, { task: task("th") });
    expect(result.scores.overall_count).toBe(2);
    expect(result.scores.overall_lang_normalized_acc).toBe(50);
    expect(result.perSample.map((s) => s.sampleId)).toEqual(["th-2", "th-3"]);
    expect(result.details).toMatchObject({ skippedCount: 1, skippedSampleIds: ["th-1"] });
  });

  it("raises a MetricError when every row is skipped or there are none", () => {
    const metric = createIfevalMetric();
    const onlyWordCount = inputsFor("th").slice(0, 1);
    expect(() => metric.compute(onlyWordCount, {}, { task: task("th") })).toThrow(/all 1 samples were skipped/);
    expect(() => metric.compute([], {}, { task: task("th") })).toThrow(MetricError);
  });

  it("takes the language from options, then the task, then the row", async () => {
    const metric = createIfevalMetric();
    const rows = inputsFor("id");
    const fromRows = await metric.compute(rows, {});
    const fromTask = await metric.compute(rows, {}, { task: task("id") });
    expect(fromRows.scores).toEqual(fromTask.scores);
    // Expecting English turns every Indonesian answer into a wrong-language answer.
    const asEnglish = await metric.compute(rows, { language: "en" }, { task: task("id") });
    expect(asEnglish.scores.correct_language_rate).toBe(0.25);
    const noLanguage = rows.map((r) => ({ ...r, sample: { id: r.sampleId, prompts: [], metadata: { subcategory: "startend:quotation" }, raw: {} } }));
    expect(() => metric.compute(noLanguage, {})).toThrow(/no language to check against/);
  });

  it("accepts the instruction as a reference object", async () => {
    const result = await createIfevalMetric().compute(
      [{ sampleId: "r1", prediction: "\"Quoted answer in English.\"", reference: { subcategory: "startend:quotation", kwargs: [{}] } }],
      { language: "en" },
    );
    expect(result.scores.overall_lang_normalized_acc).toBe(100);
  });

  it("names the sample in MetricErrors for bad rows", () => {
    const metric = createIfevalMetric();
    const [first] = inputsFor("id");
    if (first === undefined) throw new Error("fixture is empty");
    const unknown = { ...first, sample: { ...first.sample!, metadata: { subcategory: "punctuation:no_comma" } } };
    expect(() => metric.compute([unknown], {}, { task: task("id") })).toThrow(/sample id-1\): unknown instruction subcategory "punctuation:no_comma"/);
    const badKwargs = { ...first, sample: { ...first.sample!, raw: { kwargs: [{ first_word: 7 }] } } };
    expect(() => metric.compute([badKwargs], {}, { task: task("id") })).not.toThrow(); // numbers become strings, like Python's str()
    const missingKwargs = { ...first, sample: { ...first.sample!, raw: { kwargs: [{}] } } };
    expect(() => metric.compute([missingKwargs], {}, { task: task("id") })).toThrow(/startend:first_word: kwargs.first_word is missing/);
    expect(() => metric.compute([{ ...first, prediction: null }], {}, { task: task("id") })).toThrow(/prediction is null/);
  });

  it("checks its options and settings", () => {
    const metric = createIfevalMetric();
    expect(() => metric.compute(inputsFor("id"), { pythonWordChar: true })).toThrow(ConfigError);
    expect(() => metric.compute(inputsFor("id"), { pythonWordChar: true })).toThrow(/unknown ifeval options key "pythonWordChar"/);
    expect(() => createIfevalMetric({ upstreamResponseLanguage: 1 as unknown as boolean })).toThrow(/expected a boolean/);
  });

  it("uses an injected language detector", async () => {
    const metric = createIfevalMetric({ detectLanguage: () => "id" });
    const result = await metric.compute(inputsFor("id"), {}, { task: task("id") });
    // Row 6 asks for English, so it is now in the wrong language; row 5 is now in the right one.
    expect(result.scores.correct_language_rate).toBe(0.875);
    expect(result.perSample.find((s) => s.sampleId === "id-5")?.scores.correct_language).toBe(1);
  });

  it("is registered by its plugin module", async () => {
    const registry = createRegistry(plugins);
    expect(registry.ids("metrics")).toEqual(["ifeval", "ifeval:en"]);
    const metric = registry.get("metrics", "ifeval");
    const report = await checkMetricConformance(metric, [{ inputs: inputsFor("th"), ctx: { task: task("th") } }], { requireEveryPerSample: false });
    expect(report.failures).toEqual([]);
  });
});
