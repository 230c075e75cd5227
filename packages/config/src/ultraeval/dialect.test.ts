import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigError, type TaskSpec } from "@yardstick/core";
import { testDialect } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { loadTasks } from "../load-tasks.js";
import { seahelmDialect } from "../seahelm-dialect.js";
import { CORPUS_TASKS, FIXTURES } from "../test-files.test-helper.js";
import { ultraevalDialect } from "./dialect.js";
import { pythonProblem } from "./python-transform-bridge.js";

const FIX = path.join(FIXTURES, "ultraeval");
const ROOT = path.join(FIX, "corpus");
const DATASETS = path.join(ROOT, "datasets");
const MERGED = path.join(ROOT, "configs", "eval_config.json");
const BROKEN = path.join(FIX, "broken", "datasets", "demo", "config", "demo_gen.json");
const BROKEN_JSON = path.join(FIX, "broken-json", "datasets", "demo", "config", "demo_gen.json");
const BROKEN_MERGED = path.join(FIX, "broken-merged", "configs", "eval_config.json");
const SEAHELM_FILE = path.join(CORPUS_TASKS, "nlu", "sentiment_analysis", "config.yaml");

testDialect("ultraeval", ultraevalDialect, {
  fixtures: [
    { path: path.join(DATASETS, "mmlu", "config", "abstract-algebra_gen.json"), name: "one task config" },
    { path: path.join(DATASETS, "wmt20-zh-en"), name: "a dataset folder" },
    { path: ROOT, name: "the UltraEval root (all 407 configs)" },
    { path: MERGED, name: "a merged make_config array" },
  ],
  otherDialect: [SEAHELM_FILE, path.join(CORPUS_TASKS, "nlu"), path.join(FIXTURES, "dialects", "mixed")],
  broken: [BROKEN, BROKEN_JSON, BROKEN_MERGED, { path: path.join(FIX, "broken"), file: BROKEN, name: "a folder holding a broken config" }],
});

function byKey(tasks: TaskSpec[]): Map<string, TaskSpec> {
  return new Map(tasks.map((t) => [t.key, t]));
}

describe("ultraeval dialect on the upstream corpus", () => {
  it("loads all 407 configs with make_config's names, none overwriting another", async () => {
    const tasks = await ultraevalDialect.load(ROOT);
    expect(tasks).toHaveLength(407);
    expect(new Set(tasks.map((t) => t.key)).size).toBe(407);
    expect(tasks.filter((t) => t.mode === "generate")).toHaveLength(340);
    expect(tasks.filter((t) => t.mode === "loglikelihood")).toHaveLength(67);
    const k = byKey(tasks);
    // The raw name "news" is in both wmt20 folders; the irregular suites config keeps its own name.
    expect(k.has("wmt20-en-zh_news_gen")).toBe(true);
    expect(k.has("wmt20-zh-en_news_gen")).toBe(true);
    expect(k.has("wmt20-zh-en_wmt20-zh-en_gen")).toBe(true);
    expect(k.get("mmlu_abstract-algebra_gen")?.aggregationGroup).toBe("mmlu");
    expect(new Set(tasks.map((t) => t.aggregationGroup)).size).toBe(61);
    expect(tasks.every((t) => t.source?.dialect === "ultraeval" && t.endpoint === "completion")).toBe(true);
  });

  it("maps fewshot, description, params files, metrics with kwargs and the pass_k aggregation", async () => {
    const k = byKey(await ultraevalDialect.load(ROOT));
    const mmlu = k.get("mmlu_abstract-algebra_gen")!;
    expect(mmlu.fewshot).toBe(5);
    expect(mmlu.prompt.options).toMatchObject({
      transform: "datasets/mmlu/transform_gen_v1.py",
      description: "The following are multiple choice questions (with answers) about abstract_algebra.\n\n",
      taskName: "mmlu_abstract-algebra_gen",
    });
    expect(mmlu.metrics).toEqual([{ id: "ultraeval:prefix_match", options: { name: "accuracy" } }]);
    // No params file: the values of vllm_sample.json, as run_job_base.sh passes for gen.
    expect(mmlu.generation).toEqual({ temperature: 0.3, topP: 0.8, maxTokens: 300 });
    expect(mmlu.data.options?.path).toBe(path.join(ROOT, "datasets/mmlu/data/abstract-algebra.jsonl"));
    expect(mmlu.unsupported?.map((p) => p.code)).toEqual(["data-missing"]);

    const bbh = k.get("bbh-cot_geometric-shapes_gen")!;
    expect(bbh.generation).toEqual({ temperature: 0.3, topP: 0.8, maxTokens: 1024, extraBody: { presence_penalty: 0 } });
    expect(bbh.postprocessors).toEqual([{ id: "ultraeval:bbh_post" }]);
    expect(k.get("bbh_word-sorting_gen")?.postprocessors).toEqual([{ id: "ultraeval:bbh_post" }]);
    expect(k.get("bbh_word-sorting_gen")?.metrics[0]?.id).toBe("ultraeval:exact_match");

    const humaneval = k.get("humaneval_humaneval_gen")!;
    expect(humaneval.generation).toEqual({ temperature: 0.1, topP: 0.95, maxTokens: 300 });
    expect(humaneval.metrics).toEqual([{ id: "ultraeval:function_execution", options: { name: "pass_k", aggregation: "pass_k" } }]);
    expect(humaneval.mainScore).toBe("pass@1");

    const tydiqa = k.get("tydiqa_tydiqa_gen")!;
    expect(tydiqa.metrics.map((m) => m.id)).toEqual(["ultraeval:f1_score", "ultraeval:exact_match"]);
    expect(tydiqa.mainScore).toBe("f1_score");
    const wmt = k.get("wmt20-en-zh_news_gen")!;
    expect(wmt.metrics[0]).toEqual({ id: "ultraeval:bleu", options: { name: "bleu-4", tokenizer: "char" } });

    const hellaswag = k.get("hellaswag_hellaswag_ppl")!;
    expect(hellaswag.mode).toBe("loglikelihood");
    expect(hellaswag.postprocessors).toEqual([]);
    expect(hellaswag.extra?.ultraeval).toMatchObject({ pplScoring: "general_torch_ppl_norm" });
    // The engine hands summed logprobs and token counts: the metric is told so.
    expect(hellaswag.metrics).toEqual([{ id: "ultraeval:log_prob", options: { name: "accuracy", predictions: "logprob-per-token" } }]);
    expect(k.get("truthfulqa_mc2_ppl")?.metrics[0]).toMatchObject({ id: "ultraeval:log_prob_mc2", options: { predictions: "logprob" } });
    expect(k.get("mmlu_abstract-algebra_gen")?.metrics[0]?.options).not.toHaveProperty("predictions");
  });

  it("lists a task whose transform has no port, and whose Python file is not in the checkout, as unsupported with code transform", async () => {
    const k = byKey(await ultraevalDialect.load(path.join(DATASETS, "ceval")));
    const problems = [...k.values()][0]!.unsupported ?? [];
    expect(problems.map((p) => p.code)).toContain("transform");
    expect(problems.find((p) => p.code === "transform")?.message).toMatch(
      /^uses the transform datasets\/ceval\/transform_gen_v1\.py, which has no TypeScript port, and the python3 bridge cannot run it: (python3 is not available|the transform file .*datasets\/ceval\/transform_gen_v1\.py is not there)/,
    );
  });

  it.skipIf(pythonProblem())(
    `runs a task whose transform has no port but whose Python file is in the checkout, through the bridge${pythonProblem() ? ` (skipped: ${pythonProblem()})` : ""}`,
    async () => {
      const root = mkdtempSync(path.join(tmpdir(), "ys-ultraeval-bridged-"));
      const write = (rel: string, text: string) => {
        mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        writeFileSync(path.join(root, rel), text);
      };
      const config = { task_name: "law", path: "datasets/ceval/data/law.jsonl", description: "", transform: "datasets/ceval/transform_gen_v1.py", fewshot: 0 };
      write("datasets/ceval/config/law_gen.json", JSON.stringify({ ...config, generate: { method: "generate", params: "" }, postprocess: "", metric: { accuracy: { evaluation: { type: "prefix_match" } } } }));
      write("datasets/ceval/data/law.jsonl", '{"question": "q", "target_scores": {"a": 1}}\n');
      write("datasets/ceval/transform_gen_v1.py", "def transform(data, num_sample, r, dataset_name):\n    return {'input': data['question'], 'output': '', 'processed_output': ''}\n");
      const [task] = await ultraevalDialect.load(path.join(root, "datasets"));
      expect(task?.unsupported).toBeUndefined();
      expect(task?.diagnostics?.some((d) => d.level === "info" && d.message.includes("runs as the Python file through the python3 bridge"))).toBe(true);
      // The dataloader is told the root the worker imports from; ported tasks do not carry it.
      expect(task?.data.options).toMatchObject({ transform: "datasets/ceval/transform_gen_v1.py", root });
      const [ported] = await ultraevalDialect.load(path.join(DATASETS, "mmlu", "config", "abstract-algebra_gen.json"));
      expect(ported?.data.options).not.toHaveProperty("root");
    },
  );

  it("keeps names of a merged array, reads the older key spelling, and keys a repeated name apart", async () => {
    const tasks = await ultraevalDialect.load(MERGED);
    expect(tasks.map((t) => t.key)).toEqual([
      "mmlu_abstract-algebra_gen",
      "humaneval_humaneval_gen",
      "hellaswag_hellaswag_ppl",
      "mmlu_abstract-algebra_gen~2",
    ]);
    expect(tasks[3]?.fewshot).toBe(0);
    expect(tasks[3]?.diagnostics?.some((d) => d.level === "warning" && d.message.includes("occurs 2 times"))).toBe(true);
    // The root is the folder above configs/ holding datasets/: params and data resolve against it.
    expect(tasks[1]?.generation.temperature).toBe(0.1);
    expect(tasks[2]?.data.options?.path).toBe(path.join(ROOT, "datasets/hellaswag/data/hellaswag.jsonl"));
  });

  it("selects by renamed task name or by dataset", async () => {
    expect((await ultraevalDialect.load(ROOT, { tasks: ["gsm8k"] })).map((t) => t.key)).toEqual(["gsm8k_gsm8k_gen"]);
    expect(await ultraevalDialect.load(ROOT, { tasks: ["mmlu_anatomy_gen"] })).toHaveLength(1);
  });
});

describe("ultraeval dialect: refusals and detection", () => {
  it("a bad value names file, line and key path", async () => {
    const err = await ultraevalDialect.load(BROKEN).catch((e: unknown) => e);
    expect(ConfigError.isInstance(err)).toBe(true);
    const e = err as ConfigError;
    expect(e.file).toBe(BROKEN);
    expect(e.keyPath).toEqual(["fewshot"]);
    expect(e.line).toBe(6);
    expect(e.message).toContain("expected number");
  });

  it("an unknown evaluation type in a merged array names its index", async () => {
    const e = (await ultraevalDialect.load(BROKEN_MERGED).catch((x: unknown) => x)) as ConfigError;
    expect(e.keyPath).toEqual([0, "metric", "accuracy", "evaluation", "type"]);
    expect(e.message).toContain('unknown evaluation type "no_such_metric"');
  });

  it("never claims SEA-HELM YAML, and SEA-HELM never claims UltraEval JSON", async () => {
    expect(await ultraevalDialect.detect(SEAHELM_FILE)).toBe(false);
    expect(await ultraevalDialect.detect(CORPUS_TASKS)).toBe(false);
    for (const p of [ROOT, DATASETS, MERGED, BROKEN, BROKEN_JSON]) {
      expect(await seahelmDialect.detect(p)).toBe(false);
      expect(await ultraevalDialect.detect(p)).toBe(true);
    }
    const tasks = await loadTasks([MERGED, SEAHELM_FILE], { dialects: [seahelmDialect, ultraevalDialect] });
    expect(new Set(tasks.map((t) => t.source?.dialect))).toEqual(new Set(["seahelm", "ultraeval"]));
  });
});
