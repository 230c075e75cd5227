import * as path from "node:path";
import { ConfigError } from "@yardstick/core";
import { beforeAll, describe, expect, it } from "vitest";
import { type LoadedConfigs, loadSeaHelmConfigs } from "./load-seahelm.js";
import { loadSeaHelmConstants } from "./seahelm-constants.js";
import { seaHelmTaskJsonSchema } from "./seahelm-schema.js";
import { selectSuite } from "./select-suite.js";
import { CORPUS_TASKS, taskYaml, writeTree } from "./test-files.test-helper.js";
import { toTaskSpecs } from "./to-task-specs.js";

let corpus: LoadedConfigs;
beforeAll(async () => {
  corpus = await loadSeaHelmConfigs([CORPUS_TASKS]);
});

describe("toTaskSpecs on the corpus", () => {
  it("makes one spec per (task, language)", () => {
    const specs = toTaskSpecs(corpus);
    expect(specs).toHaveLength(1394);
    expect(new Set(specs.map((s) => s.key)).size).toBe(1394);
  });

  it("translates sentiment/id (Hugging Face data, F1Acc, label-mode answer tag)", () => {
    const [spec] = toTaskSpecs(corpus, { tasks: ["sentiment"], languages: ["id"] });
    expect(spec).toMatchObject({
      key: "sentiment/id",
      name: "sentiment",
      language: "id",
      competency: "nlu",
      mainScore: "normalized_accuracy",
      fewshot: 0,
      mode: "generate",
      endpoint: "chat",
      errorResponses: "replace",
      generation: { maxTokens: 32 },
      data: { id: "huggingface", options: { repo: "aisingapore/NLU-Sentiment-Analysis", name: "id", split: "eval" } },
      examples: { id: "huggingface", options: { repo: "aisingapore/NLU-Sentiment-Analysis", name: "id", split: "examples" } },
      metrics: [{ id: "seahelm-f1acc", options: {} }],
      postprocessors: [{ id: "seahelm-answer-tag", options: { tag: "Jawaban:", mode: "labels" } }],
      prompt: { id: "seahelm-chat", options: { answerTag: "Jawaban:", answerTemplate: "{answer_tag} {label}" } },
      source: { file: path.join(CORPUS_TASKS, "nlu/sentiment_analysis/config.yaml"), dialect: "seahelm" },
    });
    expect(spec?.extra).toMatchObject({ displayName: "sentiment_analysis", metricClass: "F1AccMetric" });
    expect(spec?.unsupported).toBeUndefined();
    expect(spec?.aggregationGroup).toBeUndefined();
  });

  it("resolves repo-root-relative local files by walking up from the config folder", () => {
    const [spec] = toTaskSpecs(corpus, { tasks: ["global_mmlu_lite"], languages: ["id"] });
    const dir = path.join(CORPUS_TASKS, "knowledge/global_mmlu_lite");
    expect(spec?.data).toEqual({ id: "seahelm-local", options: { path: path.join(dir, "global_mmlu_lite_id_test.jsonl") } });
    expect(spec?.examples).toEqual({ id: "seahelm-local", options: { path: path.join(dir, "global_mmlu_lite_id_dev.jsonl") } });
    // en is not in the snapshot: the path points where SEA-HELM would look, and the spec says so.
    const [en] = toTaskSpecs(corpus, { tasks: ["global_mmlu_lite"], languages: ["en"] });
    expect(en?.data.options?.path).toBe(path.join(path.dirname(CORPUS_TASKS), "seahelm_tasks/knowledge/global_mmlu_lite/global_mmlu_lite_en_test.jsonl"));
    expect(en?.unsupported).toEqual([
      { code: "data-missing", message: expect.stringMatching(/^reads the local data file seahelm_tasks\/knowledge\/global_mmlu_lite\/global_mmlu_lite_en_test\.jsonl, which is not there \(looked in .*global_mmlu_lite and each folder above it\)$/) },
    ]);
    expect(en?.extra).not.toHaveProperty("dataMissing");
  });

  it("uses the base few-shot count for base models, 0 with a note when it is null", async () => {
    const constants = await loadSeaHelmConstants(path.join(CORPUS_TASKS, "constants.yaml"));
    const [mmlu] = toTaskSpecs(corpus, { tasks: ["global_mmlu_lite"], languages: ["id"], modelKind: "base", constants });
    expect(mmlu).toMatchObject({ fewshot: 5, endpoint: "completion", generation: { maxTokens: 16, stop: ["\n\n"] } });
    expect(mmlu?.prompt.options?.baseModel).toBe(true);
    const [safeguard] = toTaskSpecs(corpus, { tasks: ["safeguard_general_prompt"], languages: ["id"], modelKind: "base", constants });
    expect(safeguard?.fewshot).toBe(0);
    expect(safeguard?.diagnostics).toEqual([
      {
        level: "warning",
        message: "fewshot_num_examples.base is null (upstream fails for base models); using 0",
        keyPath: ["safeguard_general_prompt", "fewshot_num_examples", "base"],
      },
    ]);
    expect(safeguard?.data.options).toMatchObject({ labelField: "prompt_label" });
    // base_models_skip_tasks drops if-eval for base models
    expect(toTaskSpecs(corpus, { tasks: ["if-eval"], modelKind: "base", constants })).toEqual([]);
    expect(toTaskSpecs(corpus, { tasks: ["if-eval"], languages: ["id"] })[0]?.metrics[0]?.id).toBe("ifeval");
  });

  it("makes every logprob twin a loglikelihood task over the completions endpoint, none marked unsupported", () => {
    const specs = toTaskSpecs(corpus);
    const twins = specs.filter((s) => s.mode === "loglikelihood");
    expect(twins).toHaveLength(558);
    expect(new Set(twins.map((s) => s.name)).size).toBe(191);
    expect(specs.filter((s) => s.unsupported?.some((u) => u.code === "logprobs"))).toEqual([]);
    expect(new Set(twins.map((s) => s.metrics[0]?.id))).toEqual(
      new Set(["seahelm-logprob", "seahelm-minimal-pairs-logprob", "seahelm-pragmatic-logprob"]),
    );
    for (const t of twins) expect([t.endpoint, t.postprocessors, t.prompt.options?.baseModel]).toEqual(["completion", [], true]);
  });

  it("translates sentiment-logprobs/id: the gold label after the answer tag, LogProbMetric", () => {
    const [spec] = toTaskSpecs(corpus, { tasks: ["sentiment-logprobs"], languages: ["id"], seed: 7 });
    expect(spec).toMatchObject({
      mode: "loglikelihood",
      endpoint: "completion",
      mainScore: "average_cumulative_probabilities",
      metrics: [{ id: "seahelm-logprob" }],
      prompt: { id: "seahelm-chat", options: { answerTag: "Jawaban:", answerSeparator: " ", baseModel: true, logprobFirstPass: true } },
    });
    // Upstream's first pass: the task's own max_tokens (plus the think budget), stopping at the answer tag.
    const [generate] = toTaskSpecs(corpus, { tasks: ["sentiment"], languages: ["id"], seed: 7 });
    const maxTokens = generate!.generation.maxTokens!;
    expect(spec?.generation).toEqual({ seed: 7, maxTokens, stopAtFirst: "Jawaban:" });
    const [reasoning] = toTaskSpecs(corpus, { tasks: ["sentiment-logprobs"], languages: ["id"], thinkTokens: 100 });
    expect(reasoning?.generation.maxTokens).toBe(maxTokens + 100);
    // logprobFirstPass: false writes the tag into the context and generates nothing.
    const [onePass] = toTaskSpecs(corpus, { tasks: ["sentiment-logprobs"], languages: ["id"], seed: 7, logprobFirstPass: false });
    expect(onePass?.generation).toEqual({ seed: 7 });
    expect(onePass?.prompt.options).not.toHaveProperty("logprobFirstPass");
    expect(spec?.unsupported).toBeUndefined();
    expect(spec?.extra).not.toHaveProperty("useLogprobs");
    expect(spec?.extra?.max_n_runs).toBe(1);
    // The tokenizer's BOS and the base-model template reach the prompt, as for base models.
    const [withBos] = toTaskSpecs(corpus, { tasks: ["sentiment-logprobs"], languages: ["id"], bosToken: "<s>" });
    expect(withBos?.prompt.options).toMatchObject({ bosToken: "<s>" });
    // Safeguard's answer template names another label field: upstream falls back to one space.
    const [safeguard] = toTaskSpecs(corpus, { tasks: ["safeguard_general_prompt-logprobs"], languages: ["en"] });
    expect(safeguard?.prompt.options).toMatchObject({ answerSeparator: " " });
    const one = (task: string) => toTaskSpecs(corpus, { tasks: [task], languages: ["id"] })[0]!.metrics[0]?.id;
    expect(one("mp-r-logprobs")).toBe("seahelm-minimal-pairs-logprob");
    expect(one("pragmatic-pair-logprobs")).toBe("seahelm-pragmatic-logprob");
  });

  it("a logprob task with the earlier prompt_template shape is marked unsupported (code logprobs)", async () => {
    const root = writeTree({
      "config.yaml": taskYaml("legacy_logprobs", "  use_logprobs: true\n")
        .replace("metric_class: F1AccMetric", "metric_class: LogProbMetric")
        .replace(/ {8}preamble:[\s\S]*?answer_tag: "Answer:"/, '        template: "Text: {text}"\n        answer_tag: "Answer:"'),
    });
    const [spec] = toTaskSpecs(await loadSeaHelmConfigs([root]));
    expect(spec?.mode).toBe("generate");
    expect(spec?.unsupported).toEqual([{ code: "logprobs", message: expect.stringMatching(/^scores the log-probability of the gold label with the earlier prompt_template shape/) }]);
  });

  it("maps metric classes and answer-tag modes", () => {
    const one = (task: string, lang = "en") => toTaskSpecs(corpus, { tasks: [task], languages: [lang] })[0]!;
    expect(one("qa", "id").postprocessors[0]?.options).toEqual({ tag: "Jawaban:", mode: "line" });
    expect(one("qa", "id").metrics[0]?.id).toBe("seahelm-qa");
    expect(one("niah_multikey_8k").metrics[0]?.id).toBe("seahelm-niah");
    expect(one("niah_multikey_8k").postprocessors[0]?.options).toEqual({ tag: "<Answer>", mode: "until-close-tag", emptyOnNoMatch: true });
    // Minimal pairs match the tag case-sensitively, first occurrence only, as upstream's `(labels)*`.
    expect(one("mp-r", "id").postprocessors[0]?.options).toMatchObject({ mode: "labels", caseInsensitive: false, firstTagOnly: true });
    // Generated data; this corpus has no books beside the NIAH config, so the task names what is missing.
    expect(one("niah_multikey_8k").data.id).toBe("seahelm-niah");
    expect(one("niah_multikey_8k").unsupported?.map((p) => p.message)).toEqual([
      expect.stringContaining("NIAH haystack (books) file books/en/*.txt"),
      expect.stringContaining("NIAH noun list file vocab/100_noun_list_translated.tsv"),
    ]);
    expect(one("mt-bench-judge").postprocessors[0]?.options).toEqual({ tag: "", mode: "none" });
    expect(one("mt-bench-judge").metrics[0]?.id).toBe("seahelm-mt-bench-judge");
    expect(one("mt-bench-judge").turns).toBe(2);
    // The judge block became `judge` (seahelm-judge.test.ts); MetricX stays a metric switch in `extra`.
    expect(one("mt-bench-judge").judge?.id).toBe("seahelm-criteria");
    expect(one("mt-bench-judge").extra?.judge).toBeUndefined();
    expect(one("translation-en-xx", "id").judge).toBeUndefined();
    expect(one("translation-en-xx", "id").extra?.judge).toMatchObject({ judge_model_type: "metricx" });
    expect(one("translation-en-xx", "id").metrics[0]).toEqual({ id: "seahelm-translation", options: { useMetricx: true, useChrf: false } });
    expect(one("translation-en-xx", "id").extra).toMatchObject({ use_metricx_metric: true, use_chrf_metric: false });
  });

  it("selects aggregation groups and rejects unknown names", () => {
    const specs = toTaskSpecs(corpus, { tasks: ["translations"], languages: ["id"] });
    expect(specs.map((s) => s.name).sort()).toEqual(["translation-en-xx", "translation-xx-en"]);
    expect(() => toTaskSpecs(corpus, { tasks: ["nope"] })).toThrow(ConfigError);
  });
});

describe("the yardstick extension key", () => {
  it("replaces the derived metrics, postprocessors, main score and labels", async () => {
    const extra = `  yardstick:
    metrics:
      - id: spatial-accuracy
        options: { tolerance: 0.5 }
    postprocessors:
      - id: strip
    mainScore: accuracy
    labels: [left, right]
`;
    const root = writeTree({ "config.yaml": taskYaml("gen_task", extra) });
    const loaded = await loadSeaHelmConfigs([root]);
    const [spec] = toTaskSpecs(loaded);
    expect(spec).toMatchObject({
      metrics: [{ id: "spatial-accuracy", options: { tolerance: 0.5 } }],
      postprocessors: [{ id: "strip" }],
      mainScore: "accuracy",
      labels: ["left", "right"],
    });
    expect(spec?.extra?.yardstick).toBeUndefined();
  });

  it("is checked strictly", async () => {
    const root = writeTree({ "config.yaml": taskYaml("gen_task", "  yardstick:\n    metrics: []\n") });
    await expect(loadSeaHelmConfigs([root])).rejects.toThrow(/gen_task\.yardstick\.metrics/);
  });
});

describe("suites and schema", () => {
  it("selects the seahelm suite from task_config.yaml, expanding aggregation groups", async () => {
    const suite = await selectSuite(corpus, path.join(CORPUS_TASKS, "task_config.yaml"), "seahelm");
    const id = suite.byLanguage.get("id")!;
    expect(id).toContain("sentiment");
    expect(id).toContain("global_mmlu_lite");
    expect(suite.byLanguage.get("th")).toEqual(
      expect.arrayContaining(["thai_exam_onet", "thai_exam_ic", "thai_exam_tgat", "thai_exam_tpat1", "thai_exam_a_level"]),
    );
    const logprobs = await selectSuite(corpus, path.join(CORPUS_TASKS, "task_config.yaml"), "seahelm_logprobs");
    // Upstream lists global_mmlu_lite-logprobs, whose definition is commented out.
    expect(logprobs.unknown).toContainEqual({ language: "id", name: "global_mmlu_lite-logprobs", reason: "undefined" });
    await expect(selectSuite(corpus, path.join(CORPUS_TASKS, "task_config.yaml"), "nope")).rejects.toThrow(/unknown suite/);
  });

  it("exports a JSON Schema of a task", () => {
    const schema = seaHelmTaskJsonSchema() as { required?: string[]; properties?: Record<string, unknown> };
    expect(schema.required).toEqual(expect.arrayContaining(["metadata", "name", "competency", "metric_class", "metric", "languages"]));
    expect(schema.properties).toHaveProperty("use_logprobs");
  });
});
