/**
 * Every judge and judged metric runs its conformance suite of @yardstick/testing, on fixture rows in
 * SEA-HELM's row shape with the corpus configs' own judge options (loaded with top-level await, as
 * the suites register their tests when the file loads).
 */
import type { ModelResponse, Sample, TaskSpec } from "@yardstick/core";
import { testJudge, testMetric, textResponse } from "@yardstick/testing";
import { criteriaJudge } from "./criteria-judge.js";
import { healthbenchJudge } from "./healthbench-judge.js";
import { corpusTask, fixtureSamples, metricInput, storedAnswers } from "./judge-kit.test-helper.js";
import { criteriaJudgeMetric, healthbenchJudgeMetric, lindseaJudgeMetric, mtBenchJudgeMetric } from "./metrics/criteria-metrics.js";
import { pairwiseJudgeMetric } from "./metrics/pairwise-metric.js";
import { rubricJudgeMetric } from "./metrics/rubric-metric.js";
import { aaLcrJudgeMetric, babyVisionJudgeMetric, mathVisionJudgeMetric } from "./metrics/verdict-metrics.js";
import { pairwiseJudge } from "./pairwise-judge.js";
import { RUBRIC_TOOL_NAME, rubricJudge } from "./rubric-judge.js";
import { verdictJudge } from "./verdict-judge.js";

const classified = (cls: string) => `<reflection>Checked the criterion.</reflection><classification>${cls}</classification>`;

// ---------------------------------------------------------------- pairwise

const mtBenchRows = fixtureSamples("mt-bench.jsonl");
const sample = (id: string) => mtBenchRows.find((s) => s.id === id)!;
const modelAnswers = storedAnswers(["MODEL-TURN-1", "MODEL-TURN-2"]);
const mtBench = await corpusTask("mt-bench/en");
testJudge(pairwiseJudge, {
  cases: [
    {
      name: "mt-bench writing",
      sample: sample("q1"),
      answers: modelAnswers,
      options: mtBench.judge!.options!,
      task: mtBench,
      expectedRequests: 4,
      replies: [
        { response: "[[A]]", expected: { label: "win", score: 1 } },
        { requestId: "turn1-BA", response: "[[A]]", expected: { label: "lose", score: 0 } },
        { response: "[[A]] [[C]]", expected: { error: true } },
      ],
    },
    { name: "mt-bench math with references", sample: sample("q2"), answers: modelAnswers, options: mtBench.judge!.options!, task: mtBench, expectedRequests: 4 },
  ],
  invalidOptions: [{}, { judge_prompts: { "without-reference": "not a list" } }, { judge_prompts: { "without-reference": [{ system_prompt: "s" }] } }],
});

testMetric(
  pairwiseJudgeMetric,
  [
    {
      name: "two samples",
      inputs: fixtureSamples("mt-bench.jsonl")
        .slice(0, 2)
        .map((s) =>
          metricInput(s, [
            { stage: "judge", call: "turn1-AB", judgement: { label: "win", score: 1 } },
            { stage: "judge", call: "turn1-BA", judgement: { label: "win", score: 1 } },
            { stage: "judge", call: "turn2-AB", judgement: { error: "no verdict" } },
          ]),
        ),
      expectedRange: { weighted_win_rate: [0, 100], win_rate: [0, 1] },
    },
  ],
  { invalidOptions: [{ ties_allowed: "yes" }] },
);

// ---------------------------------------------------------------- criteria, HealthBench

const kalahi = await corpusTask("kalahi-judge/tl");
const syntax = await corpusTask("syntax-criteria/id");
const mtBenchJudge = await corpusTask("mt-bench-judge/en");
const health = await corpusTask("healthbench/en");
testJudge(criteriaJudge, {
  cases: [
    {
      name: "kalahi",
      sample: fixtureSamples("kalahi.jsonl")[0]!,
      answers: storedAnswers(["sagot"]),
      options: kalahi.judge!.options!,
      task: kalahi,
      expectedRequests: 3,
      replies: [
        { response: classified("CLASS_SLIGHTLY_MET"), expected: { label: "CLASS_SLIGHTLY_MET", score: 0.25 } },
        { response: "<classification>CLASS_NOPE</classification>", expected: { error: true } },
        { response: "no tags at all", expected: { error: true } },
      ],
    },
    { name: "syntax-criteria", sample: fixtureSamples("syntax-criteria.jsonl")[0]!, answers: storedAnswers(["Buku dibaca."]), options: syntax.judge!.options!, task: syntax, expectedRequests: 12 },
    { name: "mt-bench-judge", sample: fixtureSamples("mt-bench-judge.jsonl")[0]!, answers: storedAnswers(["a", "b"]), options: mtBenchJudge.judge!.options!, task: mtBenchJudge, expectedRequests: 3 },
  ],
  invalidOptions: [{}, { classifications: {}, judge_prompts: { criteria_prompt: "x" } }, { classifications: { CLASS_MET: "one" }, judge_prompts: { criteria_prompt: "x" } }],
});

testJudge(healthbenchJudge, {
  cases: [
    {
      name: "healthbench",
      sample: fixtureSamples("healthbench.jsonl")[1]!,
      answers: storedAnswers(["Yes, that is fine."]),
      options: health.judge!.options!,
      task: health,
      expectedRequests: 2,
      replies: [
        { response: '{"criteria_met": true}', expected: { label: "met", score: 1 } },
        { response: '{"explanation": "x", "criteria_met": false} and later {"criteria_met": true}', expected: { score: 1 } },
        { response: '{"criteria_met": "yes"}', expected: { error: true } },
      ],
    },
  ],
  invalidOptions: [{}, { judge_prompts: { criteria_prompt: 3 } }],
});

const judged = (calls: [string, number | undefined][]) =>
  calls.map(([call, score]) => ({ stage: "judge", call, judgement: score === undefined ? { error: "bad reply" } : { score, label: "x" } }));
for (const metric of [criteriaJudgeMetric, lindseaJudgeMetric, mtBenchJudgeMetric, healthbenchJudgeMetric]) {
  const file = metric === healthbenchJudgeMetric ? "healthbench.jsonl" : metric === lindseaJudgeMetric ? "syntax-criteria.jsonl" : metric === mtBenchJudgeMetric ? "mt-bench-judge.jsonl" : "kalahi.jsonl";
  const rows = fixtureSamples(file);
  testMetric(
    metric,
    [
      {
        name: "fixture rows with an error",
        inputs: rows.map((s, i) => {
          const n = (s.raw.criteria as unknown[]).length;
          return metricInput(s, judged(Array.from({ length: n }, (_, k): [string, number | undefined] => [`criterion-${k}`, k === i ? undefined : k % 2])));
        }),
        expectedRange: { average_criteria_score: [0, 100] },
      },
    ],
    { invalidOptions: [{ compat: "yes" }, { compat: { criteriaStringSort: 1 } }] },
  );
}

// ---------------------------------------------------------------- verdict

const aaLcr = await corpusTask("aa-lcr/en");
const baby = await corpusTask("babyvision/en");
testJudge(verdictJudge, {
  cases: [
    {
      name: "aa-lcr",
      sample: fixtureSamples("aa-lcr.jsonl")[0]!,
      answers: storedAnswers(["5 million"]),
      options: aaLcr.judge!.options!,
      task: aaLcr,
      expectedRequests: 1,
      replies: [
        { response: "CORRECT", expected: { score: 1, label: "CORRECT" } },
        { response: "CORRECT INCORRECT", expected: { score: 0, label: "ambiguous" } },
        { response: "", expected: { error: true } },
      ],
    },
    { name: "babyvision", sample: fixtureSamples("babyvision.jsonl")[0]!, answers: storedAnswers(["\\boxed{B}"]), options: baby.judge!.options!, task: baby, replies: [{ response: "FALSE", expected: { score: 0 } }] },
  ],
  invalidOptions: [{}, { judge_prompts: { criteria_prompt: "x" }, verdict_words: { positive: "YES!", negative: "NO" } }, { judge_prompts: { criteria_prompt: "x" }, extract_boxed: "yes" }],
});

for (const metric of [aaLcrJudgeMetric, mathVisionJudgeMetric, babyVisionJudgeMetric]) {
  testMetric(
    metric,
    [
      {
        inputs: fixtureSamples("babyvision.jsonl").map((s, i) =>
          metricInput(s, [{ stage: "judge", call: "verdict", judgement: i === 0 ? { score: 1, label: "TRUE" } : { error: "no verdict" } }]),
        ),
        expectedRange: { accuracy_score: [0, 100] },
      },
    ],
    { invalidOptions: [{ category_field: 3 }] },
  );
}

// ---------------------------------------------------------------- rubric

const rubric = { question: "Is the answer factually correct?", choices: [{ label: "correct", score: 1 }, { label: "partly", score: 0.5 }, { label: "wrong", score: 0 }] };
const options = { rubric };
const task: TaskSpec = { ...(await corpusTask("aa-lcr/en")), judge: { id: "rubric", options } };
const rubricSample: Sample = { id: "s1", prompts: [{ text: "What is the capital of France?" }], label: "Paris", raw: {} };
const toolReply = (args: Record<string, unknown>): ModelResponse => textResponse("", [{ id: "call_1", name: RUBRIC_TOOL_NAME, arguments: args }]);

testJudge(rubricJudge, {
  cases: [
    {
      name: "inline rubric",
      sample: rubricSample,
      answers: storedAnswers(["Paris."]),
      options,
      task,
      expectedRequests: 1,
      replies: [
        { response: toolReply({ choice: "wrong" }), expected: { label: "wrong", score: 0 } },
        { response: "Reasoning.\nCHOICE: partly", expected: { label: "partly", score: 0.5 } },
        { response: "CHOICE: none", expected: { error: true } },
      ],
    },
  ],
  invalidOptions: [{}, { rubric: { question: "q", choices: [{ label: "only", score: 1 }] } }, { rubric, use_tools: "yes" }],
});

testMetric(rubricJudgeMetric, [{ inputs: [metricInput(rubricSample, [{ stage: "judge", call: "rubric", judgement: { label: "correct", score: 1 } }])], expectedRange: { mean_score: [1, 1] } }], {
  invalidOptions: [{ unknown: true }],
});
