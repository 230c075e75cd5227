import type { TaskSpec } from "@yardstick/core";
import { beforeAll, describe, expect, it } from "vitest";
import { type LoadedConfigs, loadSeaHelmConfigs } from "./load-seahelm.js";
import { buildSeahelmChat } from "./seahelm-chat-prompt.js";
import { seaHelmGenerationParams } from "./seahelm-judge.js";
import { CORPUS_TASKS, writeTree } from "./test-files.test-helper.js";
import { toTaskSpecs } from "./to-task-specs.js";
import { validateConfigs } from "./validate.js";

let corpus: LoadedConfigs;
let specs: TaskSpec[];
beforeAll(async () => {
  corpus = await loadSeaHelmConfigs([CORPUS_TASKS]);
  specs = toTaskSpecs(corpus);
});

const one = (task: string, lang = "en"): TaskSpec => {
  const spec = specs.find((s) => s.key === `${task}/${lang}`);
  if (!spec) throw new Error(`no spec ${task}/${lang}`);
  return spec;
};

const GPT_OSS = { maxTokens: 16384, extraBody: { reasoning_effort: "high" } };

/** Every judged task of the corpus: judge id, metric id, judge model and generation, option keys. */
const EXPECTED: Record<string, { lang: string; judge: string; metric: string; model: string; generation: object; optionKeys: string[] }> = {
  "mt-bench": {
    lang: "id",
    judge: "seahelm-pairwise",
    metric: "seahelm-pairwise-judge",
    model: "gpt-4.1-2025-04-14",
    generation: { temperature: 0.6, maxTokens: 2048 },
    optionKeys: ["baseline_model", "categories_with_reference", "judge_prompts", "judgement_labels", "metric_class", "ties_allowed"],
  },
  "mt-bench-increased-tokens": {
    lang: "th",
    judge: "seahelm-pairwise",
    metric: "seahelm-pairwise-judge",
    model: "gpt-4.1-2025-04-14",
    generation: { temperature: 0.6, maxTokens: 8192 },
    optionKeys: ["baseline_model", "categories_with_reference", "judge_prompts", "judgement_labels", "metric_class", "ties_allowed"],
  },
  "mt-bench-judge": {
    lang: "ta",
    judge: "seahelm-criteria",
    metric: "seahelm-mt-bench-judge",
    model: "openai/gpt-oss-120b",
    generation: GPT_OSS,
    optionKeys: ["classifications", "judge_prompts", "metric_class"],
  },
  "kalahi-judge": {
    lang: "tl",
    judge: "seahelm-criteria",
    metric: "seahelm-criteria-judge",
    model: "openai/gpt-oss-120b",
    generation: GPT_OSS,
    optionKeys: ["classifications", "judge_prompts", "metric_class"],
  },
  "syntax-criteria": {
    lang: "id",
    judge: "seahelm-criteria",
    metric: "seahelm-lindsea-judge",
    model: "openai/gpt-oss-120b",
    generation: { maxTokens: 32768, extraBody: { reasoning_effort: "high" } },
    optionKeys: ["classifications", "judge_prompts", "metric_class"],
  },
  healthbench: {
    lang: "en",
    judge: "seahelm-healthbench",
    metric: "seahelm-healthbench-judge",
    model: "openai/gpt-oss-120b",
    generation: { maxTokens: 20384, extraBody: { reasoning_effort: "high" } },
    optionKeys: ["judge_prompts", "metric_class"],
  },
  healthbench_consensus: {
    lang: "en",
    judge: "seahelm-healthbench",
    metric: "seahelm-healthbench-judge",
    model: "openai/gpt-oss-120b",
    generation: { maxTokens: 20384, extraBody: { reasoning_effort: "high" } },
    optionKeys: ["judge_prompts", "metric_class"],
  },
  healthbench_hard: {
    lang: "en",
    judge: "seahelm-healthbench",
    metric: "seahelm-healthbench-judge",
    model: "openai/gpt-oss-120b",
    generation: { maxTokens: 20384, extraBody: { reasoning_effort: "high" } },
    optionKeys: ["judge_prompts", "metric_class"],
  },
  "aa-lcr": {
    lang: "en",
    judge: "seahelm-verdict",
    metric: "seahelm-aa-lcr-judge",
    model: "openai/gpt-oss-120b",
    generation: GPT_OSS,
    optionKeys: ["judge_prompts", "metric_class"],
  },
  mathvision: {
    lang: "en",
    judge: "seahelm-verdict",
    metric: "seahelm-mathvision-judge",
    model: "openai/gpt-oss-120b",
    generation: { maxTokens: 65536, extraBody: { reasoning_effort: "high" } },
    optionKeys: ["judge_prompts", "metric_class"],
  },
  mathvision_mini: {
    lang: "en",
    judge: "seahelm-verdict",
    metric: "seahelm-mathvision-judge",
    model: "openai/gpt-oss-120b",
    generation: { maxTokens: 65536, extraBody: { reasoning_effort: "high" } },
    optionKeys: ["judge_prompts", "metric_class"],
  },
  babyvision: {
    lang: "en",
    judge: "seahelm-verdict",
    metric: "seahelm-babyvision-judge",
    model: "openai/gpt-oss-120b",
    generation: GPT_OSS,
    optionKeys: ["judge_prompts", "metric_class"],
  },
};

describe("SEA-HELM judged tasks become TaskSpecs with a judge", () => {
  it("every judged task of the corpus, and only those, has a judge; the metricx / openclip blocks are not judges", () => {
    const judgedNames = [...new Set(specs.filter((s) => s.judge).map((s) => s.name))].sort();
    expect(judgedNames).toEqual(Object.keys(EXPECTED).sort());
    expect(specs.filter((s) => s.judge)).toHaveLength(42);
    for (const s of specs.filter((x) => x.name.startsWith("translation-") || x.name === "xm3600")) {
      expect(s.judge, s.key).toBeUndefined();
      expect(s.extra?.judge, s.key).toMatchObject({ judge_model_type: expect.stringMatching(/^(metricx|openclip)$/) });
    }
  });

  it.each(Object.entries(EXPECTED))("%s: judge id, metric id, judge model, generation and options", (task, want) => {
    const spec = one(task, want.lang);
    expect(spec.judge).toMatchObject({ id: want.judge, model: want.model });
    expect(spec.judge?.generation).toEqual(want.generation);
    expect(spec.metrics.map((m) => m.id)).toEqual([want.metric]);
    const options = spec.judge?.options ?? {};
    expect(Object.keys(options).sort()).toEqual(want.optionKeys);
    expect(options.metric_class).toBe(spec.extra?.metricClass);
    // The judge block's prompts are passed as written (upstream snake_case keys).
    expect(options.judge_prompts).toEqual(corpus.tasks.get(task)?.config.judge?.judge_prompts);
    // Judge settings are not carried twice.
    for (const k of ["judge", "baseline_model", "judgement_labels", "use_judges"]) expect(spec.extra?.[k], k).toBeUndefined();
  });

  it("keeps the pairwise keys of mt-bench: baseline, verdict labels, ties, reference categories, one prompt per turn", () => {
    const options = one("mt-bench", "vi").judge?.options as Record<string, unknown>;
    expect(options).toMatchObject({
      baseline_model: "gpt-4.1-2025-04-14",
      judgement_labels: { A_wins: "[[A]]", B_wins: "[[B]]", Tie: "[[C]]" },
      ties_allowed: true,
      categories_with_reference: ["math", "reasoning"],
      metric_class: "PairwiseLLMJudgeMetric",
    });
    const prompts = options.judge_prompts as Record<string, { system_prompt: string; prompt_template: string }[]>;
    expect(prompts["without-reference"]).toHaveLength(2);
    expect(prompts["with-reference"]?.[1]?.prompt_template).toContain("{ref_answer_2}");
  });

  it("follows the judge: interpolation of healthbench_hard and mathvision_mini to the same judge", () => {
    expect(one("healthbench_hard").judge).toEqual(one("healthbench").judge);
    expect(one("mathvision_mini").judge).toEqual(one("mathvision").judge);
    expect(one("healthbench_consensus").judge?.options?.judge_prompts).toMatchObject({ criteria_prompt: expect.stringContaining("{rubric_item}") });
  });

  it("builds the judged model's prompts: mt-bench's second turn from the row's second question and the first answer", () => {
    const spec = one("mt-bench", "id");
    expect(spec.turns).toBe(2);
    const sample = { id: "81", prompts: [{ text: "Tulis blog." }, { text: "Tulis ulang." }], raw: {} };
    const turn2 = buildSeahelmChat({ sample, task: spec, examples: [], turn: 2, previousResponses: ["Blog pertama."] }, spec.prompt.options ?? {});
    expect(turn2).toEqual([
      { role: "user", content: "Tulis blog." },
      { role: "assistant", content: "Blog pertama." },
      { role: "user", content: "Tulis ulang." },
    ]);
    expect(one("mt-bench-judge", "th").turns).toBe(2);
    expect(one("kalahi-judge", "tl").turns).toBeUndefined();
  });

  it("builds kalahi-judge's prompt from the row's {text} under its preamble, with no system message", () => {
    const spec = one("kalahi-judge", "tl");
    const sample = { id: "k1", prompts: [{ text: "Inimbitahan ako ng aking tiyahin." }], raw: {} };
    const messages = buildSeahelmChat({ sample, task: spec, examples: [], turn: 1, previousResponses: [] }, spec.prompt.options ?? {}) as { role: string; content: string }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe("user");
    expect(messages[0]?.content).toMatch(/^You are a Filipino culture expert[\s\S]*<SITUATION>\nInimbitahan ako ng aking tiyahin\.\n<\/SITUATION>$/);
  });

  it("maps generation kwargs like the task's own: typed fields, the rest in extraBody", () => {
    expect(seaHelmGenerationParams({ max_tokens: 10, temperature: 0, top_p: 0.9, seed: 7, stop: "###", reasoning_effort: "low", n: 1 })).toEqual({
      maxTokens: 10,
      temperature: 0,
      topP: 0.9,
      seed: 7,
      stop: ["###"],
      n: 1,
      extraBody: { reasoning_effort: "low" },
    });
  });
});

/** A judged task written for the tests; `judge` is the YAML of its judge block (indented by 2). */
function judgedTask(key: string, metricClass: string, judge: string, extra = ""): string {
  return `${key}:
  metadata:
    version: 1
  name: ${key}
  competency: cultural
  metric_file: src/metrics/llm_judges/criteria_judge_metric.py
  metric_class: ${metricClass}
  metric: average_criteria_score
  use_judges: true
${judge}${extra}  languages:
    tl:
      filepath: owner/dataset
      max_tokens: 64
      prompt_template:
        preamble: ""
        task_template: "{text}"
        answer_template: ""
        answer_tag: ""
`;
}

describe("validate checks what each judge needs", () => {
  it("passes the corpus's judge blocks", async () => {
    const report = await validateConfigs([CORPUS_TASKS]);
    expect(report.diagnostics).toEqual([]);
  });

  it("names the file, line and key path of an unknown template field, missing prompts and missing classifications", async () => {
    const root = writeTree({
      "seahelm_tasks/judged/config.yaml": [
        judgedTask(
          "crit",
          "CriteriaJudgeMetric",
          `  judge:
    judge_model_name: some/judge
    judge_prompts:
      system_prompt: "Be fair."
      criteria_prompt: "Response: {response} Criterion: {keyPointText} Row: {row_text}"
      reference_prompt: "Reference: {label}"
`,
        ),
        judgedTask("noprompts", "LindseaJudgeMetric", "  judge:\n    judge_model_name: some/judge\n    classifications:\n      CLASS_MET: 1\n"),
        judgedTask("nojudge", "AALCRJudgeMetric", ""),
      ].join(""),
    });
    const report = await validateConfigs([root]);
    const byPath = new Map(report.diagnostics.map((d) => [d.keyPath.join("."), d]));
    const unknown = byPath.get("crit.judge.judge_prompts.criteria_prompt");
    expect(unknown).toMatchObject({ file: expect.stringMatching(/judged\/config\.yaml$/), line: 14 });
    expect(unknown?.message).toMatch(/seahelm-criteria judge \(CriteriaJudgeMetric\) cannot fill this prompt: .*missing key 'row_text'.*'prompt', 'response', 'keyPointText', 'reference_text_block'/);
    expect(byPath.get("crit.judge")?.message).toMatch(/needs classifications/);
    expect(byPath.get("crit.judge.judge_prompts.reference_prompt")?.message).toMatch(/missing key 'label'.*'reference'/);
    expect(byPath.get("noprompts.judge")?.message).toMatch(/seahelm-criteria judge \(LindseaJudgeMetric\) needs judge_prompts/);
    expect(byPath.get("nojudge")?.message).toMatch(/AALCRJudgeMetric is scored by an LLM judge, but the task has no judge block/);
    expect(report.diagnostics).toHaveLength(5);
  });

  it("checks the judge's generation kwargs with the schema", async () => {
    const root = writeTree({
      "seahelm_tasks/judged/config.yaml": judgedTask(
        "verdict",
        "AALCRJudgeMetric",
        `  judge:
    judge_generation_kwargs:
      max_tokens: lots
      reasoning_effort: high
    judge_prompts:
      criteria_prompt: "{question} {official_answer} {candidate_answer}"
`,
      ),
    });
    const report = await validateConfigs([root]);
    expect(report.diagnostics).toHaveLength(1);
    expect(report.diagnostics[0]).toMatchObject({ line: 12, keyPath: ["verdict", "judge", "judge_generation_kwargs", "max_tokens"] });
    expect(report.diagnostics[0]?.message).toMatch(/expected.*number|int/i);
  });

  it("pairwise: one prompt per turn with the turn's fields, verdict labels for the system prompt, a baseline", async () => {
    const root = writeTree({
      "seahelm_tasks/mt/config.yaml": judgedTask(
        "pair",
        "PairwiseLLMJudgeMetric",
        `  judge:
    judge_prompts:
      without-reference:
        - system_prompt: "Say {A_wins} or {B_wins} or {Tie}."
          prompt_template: "{question_1} A: {answer_a_1} B: {answer_b_1} {answer_a_2}"
`,
        "  judgement_labels:\n    A_wins: '[[A]]'\n    B_wins: '[[B]]'\n",
      ).replace("competency: cultural", "competency: multi-turn"),
    });
    const report = await validateConfigs([root]);
    const messages = report.diagnostics.map((d) => `${d.keyPath.join(".")} ${d.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^pair\.judge\.judge_prompts\.without-reference\.0\.system_prompt .*missing key 'Tie'/),
        expect.stringMatching(/^pair\.judge\.judge_prompts\.without-reference\.0\.prompt_template .*missing key 'answer_a_2'/),
        expect.stringMatching(/^pair\.judge\.judge_prompts\.without-reference .*needs judge_prompts\.without-reference\.1, which is missing/),
        expect.stringMatching(/^pair .*needs baseline_model/),
      ]),
    );
    expect(messages).toHaveLength(4);
  });
});
