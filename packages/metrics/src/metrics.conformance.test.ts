/**
 * Every built-in metric runs the metric conformance suite of @yardstick/testing. Each metric gets
 * inputs of the shape it scores (labels, references, log-probabilities, UltraEval records), with
 * upstream's recorded values for the UltraEval metrics (golden fixture).
 */
import { readFileSync } from "node:fs";
import type { MetricInput, Sample, TaskSpec } from "@yardstick/core";
import { type MetricConformanceCase, type MetricConformanceOptions, testMetric } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { builtinMetrics } from "./index.js";

/** A metric input with a minimal sample (metadata and raw row as given). */
function row(sampleId: string, prediction: unknown, reference: unknown, extra: { metadata?: Record<string, unknown>; raw?: Record<string, unknown> } = {}): MetricInput {
  const sample: Sample = { id: sampleId, prompts: [{}], label: reference, metadata: extra.metadata ?? {}, raw: extra.raw ?? {} };
  return { sampleId, prediction, reference, sample };
}

const task = (language: string): TaskSpec => ({
  key: `task/${language}`,
  name: "task",
  language,
  competency: "",
  data: { id: "seahelm-local" },
  fewshot: 0,
  prompt: { id: "seahelm-chat" },
  mode: "generate",
  endpoint: "chat",
  generation: {},
  postprocessors: [],
  metrics: [],
  mainScore: "x",
  errorResponses: "replace",
});

const textPairs: MetricInput[] = [
  row("t1", "The cat sat on the mat.", "The cat sat on the mat."),
  row("t2", "A dog ran in the park today", ["The dog runs in the park.", "A dog was running in a park."]),
  row("t3", "", "Nothing was said."),
  row("t4", "Kucing itu duduk di atas tikar.", "Kucing duduk di tikar."),
];

const golden = JSON.parse(readFileSync(new URL("./ultraeval/__fixtures__/golden_metrics.json", import.meta.url), "utf8")) as {
  metric?: string;
  aggregator?: string;
  doc?: Record<string, unknown>;
  ground_truth?: unknown;
  results?: unknown[];
  in?: unknown[];
}[];
// The fixture writes NaN as "NaN" (JSON has none).
const revive = (v: unknown): unknown => (v === "NaN" ? Number.NaN : Array.isArray(v) ? v.map(revive) : v);
function goldenInputs(name: string): MetricInput[] {
  return golden.flatMap((c, i) => {
    if (c.metric === name) return [row(`golden-${i}`, revive(c.results), c.ground_truth, { raw: c.doc ?? {} })];
    if (c.aggregator === name) return [row(`golden-${i}`, c.in, null)];
    return [];
  });
}

const humaneval = JSON.parse(readFileSync(new URL("./ultraeval/__fixtures__/humaneval_issue17.jsonl", import.meta.url), "utf8").trim()) as Record<string, unknown>;
const ph = (p: string) => ({ metadata: { linguistic_phenomenon: p } });

// LongProc labels (SEA-HELM's row format) and a LiveCodeBench stdin problem.
const countdownLabel = {
  nums: [6, 4, 3, 2],
  target: 14,
  search_procedure: "<Search Procedure>\nInitial number set: [6, 4, 3, 2], target: 14.\n |- Pick two numbers (6, 4) (numbers left: [3, 2]). Try possible operations.\n</Search Procedure>",
};
const travelLabel = {
  ground_truth_cities: "Oslo**Riga",
  ground_truth_durations: "3**3",
  solving_procedure: "<Solving Procedure>\nStart.\n</Solving Procedure>\n<Plan>\n**Day 1-3:** Visit Oslo.\n</Plan>",
};
const lcbRow = (id: string, response: string): MetricInput => {
  const raw = { test_cases: { public: [{ input: "1 2\n", output: "3\n", testtype: "stdin" }], private: "[]" }, metadata: { func_name: null } };
  return { ...row(id, response, null, { raw }), rawResponse: response };
};

type Suite = { cases: MetricConformanceCase[]; opts?: MetricConformanceOptions };

/** Cases per metric id. Every built-in must have an entry (checked below). */
const SUITES: Record<string, Suite> = {
  "seahelm-f1acc": {
    cases: [
      { inputs: [row("1", "Positif", "Positif"), row("2", "Negatif", "Positif"), row("3", "Netral", "Netral"), row("4", "Positif", "Negatif")], expectedRange: { accuracy: [0, 100] } },
    ],
    opts: { invalidOptions: [{ nullLabel: 3 }] },
  },
  "seahelm-qa": {
    cases: [
      { inputs: [row("1", "Jakarta", ["Jakarta", "kota Jakarta"]), row("2", "di Bandung", ["Surabaya"]), row("3", "", ["Medan"])] },
      { name: "thai", ctx: { task: task("th") }, inputs: [row("1", "กรุงเทพ", ["กรุงเทพมหานคร"]), row("2", "เชียงใหม่", ["เชียงใหม่"])] },
    ],
    opts: { invalidOptions: [{ firstReferenceOnlyForThZh: "yes" }] },
  },
  "seahelm-translation": {
    cases: [
      {
        inputs: [
          row("1", "Saya suka kucing.", "Saya menyukai kucing.", { raw: { metricx_score: 2.5 } }),
          row("2", "Dia pergi.", "Dia sudah pergi.", { metadata: { judgeScores: { metricx: 30 } } }),
          row("3", "", "Hujan turun.", { raw: { metricx_score: 12 } }),
        ],
        expectedRange: { normalized_metricx_wmt24_scores: [0, 100] },
      },
    ],
    opts: { invalidOptions: [{ useMetricx: "no" }] },
  },
  "seahelm-summarization": {
    cases: [{ options: { bootstrapSamples: 50 }, inputs: textPairs.map((r) => ({ ...r, reference: Array.isArray(r.reference) ? r.reference[0] : r.reference })) }],
    opts: { invalidOptions: [{ bootstrapSamples: 0 }] },
  },
  "seahelm-logprob": { cases: [{ inputs: [row("1", Math.log(0.5), "A"), row("2", -0.1, "B"), row("3", null, "C")] }] },
  "seahelm-minimal-pairs": {
    cases: [{ inputs: [row("1", "A", "A", ph("npi")), row("2", "B", "A", ph("npi")), row("3", "B", "B", ph("word_order"))] }],
    opts: { invalidOptions: [{ labels: [] }, { upstreamLabelKeys: "yes" }] },
  },
  "seahelm-pragmatic": {
    cases: [{ inputs: [row("1", "Benar", "Benar", ph("scalar_implicatures")), row("2", "Salah", "Benar", ph("presuppositions")), row("3", "Salah", "Salah", ph("presuppositions"))] }],
    opts: { invalidOptions: [{ answerTag: 1 }] },
  },
  "seahelm-minimal-pairs-logprob": {
    cases: [{ inputs: [row("1", [Math.log(0.5)], "A", ph("npi")), row("2", [-2], "B", ph("word_order")), row("3", "", "A", ph("npi"))] }],
  },
  "seahelm-pragmatic-logprob": {
    cases: [{ inputs: [row("1", [-0.1], "Benar", ph("scalar_implicatures")), row("2", null, "Salah", ph("presuppositions")), row("3", [-1], "Salah", ph("presuppositions"))] }],
  },
  "seahelm-niah": {
    cases: [{ inputs: [row("1", "<answer>12, 34</answer>", ["12", "34"]), row("2", "<answer>7</answer>", ["7", "8"]), row("3", "", ["1"])] }],
    opts: { invalidOptions: [{ normalizeReferences: "yes" }] },
  },
  "seahelm-cwe": {
    cases: [{ inputs: [row("1", "kucing, anjing, burung</answer>", ["kucing", "anjing", "burung"]), row("2", "ikan</answer>", ["ikan", "ayam"])] }],
    opts: { invalidOptions: [{ normalizeReferences: 1 }] },
  },
  "seahelm-bbh-exact-match": { cases: [{ inputs: [row("1", "True", "True"), row("2", "(A)", "(B)"), row("3", "", "valid")] }] },
  "seahelm-math": {
    cases: [{ inputs: [row("1", "so \\boxed{\\frac{1}{2}}", "0.5"), row("2", "The answer is 12", "12"), row("3", "I do not know", "3")] }],
    opts: { invalidOptions: [{ relativeTolerance: -1 }, { useRawResponse: "no" }] },
  },
  "seahelm-countdown": {
    cases: [{ inputs: [row("1", "<Solution>\n6 + 4 = 10\n10 - 3 = 7\n7 * 2 = 14\n</Solution>", countdownLabel), row("2", "<Search Procedure>\nInitial number set: [6, 4, 3, 2], target: 14.", countdownLabel), row("3", "", countdownLabel)] }],
    opts: { invalidOptions: [{ useRawResponse: "yes" }] },
  },
  "seahelm-path-traversal": {
    cases: [{ inputs: [row("1", "<Route>\nFrom A, take a bus to B.\n</Route>", "From A, take a bus to B."), row("2", "<Route>From A, take a train to B.</Route>", "From A, take a bus to B.\nFrom B, take a bus to C."), row("3", "", "From A, take a bus to B.")] }],
    opts: { invalidOptions: [{ upstreamPartialCount: 1 }] },
  },
  "seahelm-tom-tracking": {
    cases: [{ inputs: [row("1", "- Step 0: {Ana location: hall}", "- Step 0: {Ana location: the hall}"), row("2", "- Step 0: {Ana location: attic}", "- Step 0: {Ana location: hall}\n- Step 1: {Ana location: hall}")] }],
    opts: { invalidOptions: [{ unknown: true }] },
  },
  "seahelm-travel-planning": {
    cases: [{ inputs: [row("1", "<Plan>\n**Day 1-3:** Visit Oslo.\n**Day 3:** Fly from Oslo to Riga.\n**Day 3-5:** Visit Riga.\n</Plan>", travelLabel), row("2", "<Solving Procedure>\nStart.", travelLabel)] }],
    opts: { invalidOptions: [{ useRawResponse: 0 }] },
  },
  "seahelm-html-to-tsv": {
    cases: [{ inputs: [row("1", "```tsv\nName\tYear\nOak\t1998\n```", "Name\tYear\nOak\t1998\nElm\t2001"), row("2", "no table", "Name\tYear\nOak\t1998")] }],
    opts: { invalidOptions: [{ useRawResponse: "no" }] },
  },
  "seahelm-livecodebench": {
    cases: [{ inputs: [lcbRow("1", "```python\nprint(sum(map(int, input().split())))\n```"), lcbRow("2", "```python\nprint(0)\n```")] }],
    opts: { invalidOptions: [{ timeoutSeconds: 0 }, { upstreamPythonLiterals: "no" }] },
  },
  "ultraeval:function_execution": {
    cases: [
      {
        inputs: [
          { sampleId: "HumanEval/0", prediction: [humaneval.canonical_solution, "    return False\n"], reference: "", sample: { id: "HumanEval/0", prompts: [], raw: humaneval } },
          { sampleId: "HumanEval/0b", prediction: ["    return True\n"], reference: "", sample: { id: "HumanEval/0b", prompts: [], raw: humaneval } },
        ],
      },
    ],
    opts: { invalidOptions: [{ ks: "1" }, { timeout: 1 }] },
  },
  "ultraeval:bleu": { cases: [{ inputs: textPairs }], opts: { invalidOptions: [{ tokenize: "nope" }] } },
  "ultraeval:chrf": { cases: [{ inputs: textPairs }], opts: { invalidOptions: [{ beta: "x" }] } },
  "ultraeval:rouge": { cases: [{ inputs: textPairs }], opts: { invalidOptions: [{ kind: "nope" }] } },
  bleu: { cases: [{ inputs: textPairs, expectedRange: { bleu: [0, 100] } }, { name: "zh", options: { tokenize: "zh" }, inputs: [row("1", "我爱猫。", "我喜欢猫。")] }], opts: { invalidOptions: [{ tokenize: "nope" }, { max_ngram_order: 0 }, { smoth_method: "exp" }] } },
  chrf: { cases: [{ inputs: textPairs }], opts: { invalidOptions: [{ char_order: 0, word_order: 0 }, { beta: -1 }] } },
  "chrf++": { cases: [{ inputs: textPairs }], opts: { invalidOptions: [{ word_order: 9 }, { lowercase: "yes" }] } },
  rouge: { cases: [{ inputs: textPairs }, { name: "stemmed", options: { use_stemmer: true, rouge_types: ["rouge1", "rougeL"] }, inputs: textPairs }], opts: { invalidOptions: [{ rouge_types: ["rouge0"] }, { use_stemmer: 1 }] } },
  "exact-match": { cases: [{ inputs: textPairs }, { name: "squad", options: { normalize: "squad", ignore_case: true }, inputs: textPairs }], opts: { invalidOptions: [{ normalize: "lower" }, { ignorecase: true }] } },
  "token-f1": { cases: [{ inputs: textPairs }], opts: { invalidOptions: [{ unknown: 1 }] } },
  accuracy: { cases: [{ inputs: [row("1", "A", "A"), row("2", "b", ["B", "C"]), row("3", 4, 4)] }, { name: "ignore case", options: { ignore_case: true }, inputs: [row("1", "a", "A")] }], opts: { invalidOptions: [{ ignore_case: "yes" }] } },
};
for (const name of ["exact_match", "prefix_match", "in_match", "qa_match", "f1_score", "log_prob", "log_prob_mc2", "gaokaobench_match", "pass_k", "mean"]) {
  SUITES[`ultraeval:${name}`] = { cases: [{ name: "upstream golden values", inputs: goldenInputs(name) }], opts: { invalidOptions: [{ nam: "x" }] } };
}

describe("built-in metrics", () => {
  it("each has conformance cases, and every metric that takes options has checkOptions", () => {
    expect(Object.keys(builtinMetrics).filter((id) => SUITES[id] === undefined)).toEqual([]);
    const optionless = ["seahelm-logprob", "seahelm-minimal-pairs-logprob", "seahelm-pragmatic-logprob", "seahelm-bbh-exact-match"];
    expect(Object.keys(builtinMetrics).filter((id) => !optionless.includes(id) && typeof builtinMetrics[id]?.checkOptions !== "function")).toEqual([]);
  });
});

for (const [id, metric] of Object.entries(builtinMetrics)) {
  const suite = SUITES[id];
  if (suite !== undefined) testMetric(metric, suite.cases, suite.opts);
}
