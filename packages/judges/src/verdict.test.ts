import type { TaskSpec } from "@yardstick/core";
import { beforeAll, describe, expect, it } from "vitest";
import { corpusTask, fixtureSamples, judgeWith, metricInput, storedAnswers, userText } from "./judge-kit.test-helper.js";
import { aaLcrJudgeMetric, babyVisionJudgeMetric, mathVisionJudgeMetric } from "./metrics/verdict-metrics.js";
import { lastBoxed, verdictJudge } from "./verdict-judge.js";

describe("seahelm-verdict judge (AA-LCR)", () => {
  let task: TaskSpec;
  const rows = fixtureSamples("aa-lcr.jsonl");
  beforeAll(async () => {
    task = await corpusTask("aa-lcr/en");
  });

  it("asks with the question, the official answer and the whole candidate answer", () => {
    const [request] = verdictJudge.buildRequests(rows[0]!, storedAnswers(["It was \\boxed{5m}."]), task.judge!.options!, { task });
    const user = userText(request!.request as never);
    expect(user).toContain("The question, for reference only: What was the revenue?\nThe OFFICIAL ANSWER: $5 million\nCANDIDATE ANSWER TO ASSESS: It was \\boxed{5m}.");
    expect((request!.request as { messages: unknown[] }).messages).toHaveLength(1);
  });

  it("scores CORRECT 1, INCORRECT 0, both words 0 (as upstream, counted as ambiguous), neither an error", async () => {
    const replies: Record<string, string> = { a1: "CORRECT", a2: "It is CORRECT, not INCORRECT.", a3: "INCORRECT", a4: "I am not sure." };
    const inputs = rows.map((s) => metricInput(s, judgeWith(verdictJudge, task, s, storedAnswers(["x"]), () => replies[s.id]!)));
    expect(inputs[1]!.judgements![0]!.judgement).toMatchObject({ label: "ambiguous", score: 0, data: { ambiguous: true } });
    expect(inputs[3]!.judgements![0]!.judgement.error).toMatch(/neither CORRECT nor INCORRECT/);
    const result = await aaLcrJudgeMetric.compute(inputs, {});
    expect(result.scores).toEqual({ accuracy_score: 25, judge_errors: 1, ambiguous_verdicts: 1 });
    expect(result.perSample.map((p) => p.scores.accuracy_score)).toEqual([1, 0, 0, 0]);
  });

  it("matches the verdict words as whole words, as Python's \\b does", () => {
    const [request] = verdictJudge.buildRequests(rows[0]!, storedAnswers(["x"]), task.judge!.options!, { task });
    const parse = (text: string) => verdictJudge.parse({ text, finishReason: "stop", choices: [{ text, finishReason: "stop" }] }, task.judge!.options!, { sample: rows[0]!, task, request: request! });
    expect(parse("INCORRECT").score).toBe(0);
    expect(parse("CORRECTLY done").error).toBeDefined();
    expect(parse("Verdict: CORRECT.").score).toBe(1);
    expect(parse("ÉCORRECT").error).toBeDefined();
  });
});

describe("seahelm-verdict judge (BabyVision, MathVision)", () => {
  it("sends the last \\boxed{} content and reads TRUE/FALSE for BabyVision", async () => {
    const task = await corpusTask("babyvision/en");
    const rows = fixtureSamples("babyvision.jsonl");
    const [request] = verdictJudge.buildRequests(rows[0]!, storedAnswers(["First \\boxed{A}, no wait: \\boxed{ B }"]), task.judge!.options!, { task });
    expect(userText(request!.request as never)).toContain("Question: Which shape is different?,\nGround Truth Answer: B,\nModel Output: B");
    const inputs = rows.map((s) => metricInput(s, judgeWith(verdictJudge, task, s, storedAnswers(["\\boxed{B}"]), () => (s.id === "b1" ? "TRUE" : "TRUE or FALSE? FALSE"))));
    const result = await babyVisionJudgeMetric.compute(inputs, {});
    expect(result.scores).toEqual({ accuracy_score: 50, judge_errors: 0, ambiguous_verdicts: 1 });
    expect(result.details?.categories).toEqual({ counting: { score: 0, n: 1 }, "odd-one-out": { score: 100, n: 1 } });
  });

  it("extracts boxed answers like upstream: nested braces, one or two backslashes, else the whole answer", () => {
    expect(lastBoxed("\\boxed{\\frac{1}{2}}")).toBe("\\frac{1}{2}");
    expect(lastBoxed("\\\\boxed{7} then \\BOXED{8}")).toBe("8");
    expect(lastBoxed("no box here")).toBe("no box here");
  });

  it("uses CORRECT/INCORRECT and boxed extraction for MathVision", async () => {
    const task = await corpusTask("mathvision/en");
    const sample = { id: "mv1", prompts: [{ question: "What is x?", options: "" }], label: "4", raw: {} };
    const [request] = verdictJudge.buildRequests(sample, storedAnswers(["so x = \\boxed{4}"]), task.judge!.options!, { task });
    expect(userText(request!.request as never)).toContain("CANDIDATE ANSWER TO ASSESS: 4\n");
    const result = await mathVisionJudgeMetric.compute([metricInput(sample, judgeWith(verdictJudge, task, sample, storedAnswers(["\\boxed{4}"]), () => "CORRECT"))], {});
    expect(result.scores.accuracy_score).toBe(100);
  });
});
