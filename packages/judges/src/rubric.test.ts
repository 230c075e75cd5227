import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelResponse, Sample, TaskSpec } from "@yardstick/core";
import { textResponse } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { corpusTask, metricInput, storedAnswers } from "./judge-kit.test-helper.js";
import { rubricJudgeMetric } from "./metrics/rubric-metric.js";
import { RUBRIC_TOOL_NAME, readTextChoice, rubricJudge } from "./rubric-judge.js";

const rubric = {
  question: "Is the answer factually correct?",
  instructions: "Judge only the facts.",
  choices: [
    { label: "correct", score: 1, description: "Every fact is right." },
    { label: "partly", score: 0.5 },
    { label: "wrong", score: 0 },
  ],
};
const options = { rubric };
// Any task will do: the rubric judge reads only its judge options and, for a relative rubric path, the config file's folder.
const task: TaskSpec = { ...(await corpusTask("aa-lcr/en")), judge: { id: "rubric", options } };
const sample: Sample = { id: "s1", prompts: [{ text: "What is the capital of France?" }], label: "Paris", raw: {} };
const answers = storedAnswers(["Paris."]);
const [request] = rubricJudge.buildRequests(sample, answers, options, { task });
const parse = (response: ModelResponse) => rubricJudge.parse(response, options, { sample, task, request: request! });
const toolReply = (args: Record<string, unknown>) => textResponse("", [{ id: "call_1", name: RUBRIC_TOOL_NAME, arguments: args }]);

describe("rubric judge", () => {
  it("offers one tool whose argument is an enum of the labels, and forces it", () => {
    const r = request!.request;
    expect(r.kind).toBe("chat");
    expect(r.params.toolChoice).toEqual({ name: RUBRIC_TOOL_NAME });
    expect(r.params.tools).toHaveLength(1);
    expect(r.params.tools![0]!.parameters).toMatchObject({ properties: { choice: { type: "string", enum: ["correct", "partly", "wrong"] } }, required: ["choice"] });
    const user = String((r as { messages: { content: unknown }[] }).messages[1]!.content);
    expect(user).toContain("Is the answer factually correct?\n\nJudge only the facts.");
    expect(user).toContain("[The Start of the Response]\nParis.\n[The End of the Response]");
    expect(user).toContain("[Reference answer]\nParis\n");
    expect(user).toContain("- correct: Every fact is right.\n- partly\n- wrong");
  });

  it("reads the choice from the tool call", () => {
    expect(parse(toolReply({ choice: "partly", rationale: "Half right." }))).toEqual({ label: "partly", score: 0.5, rationale: "Half right.", data: { rubric: "rubric", via: "tool", scale: [0, 1] } });
    expect(parse(toolReply({ choice: "maybe" })).error).toMatch(/not exactly one of correct, partly, wrong/);
  });

  it("falls back to a strict text parser when the reply has no tool call", () => {
    expect(parse(textResponse("The capital is right.\nCHOICE: correct"))).toMatchObject({ label: "correct", score: 1, rationale: "The capital is right.", data: { via: "text" } });
    expect(parse(textResponse("wrong"))).toMatchObject({ label: "wrong", score: 0 });
    expect(parse(textResponse("CHOICE: correct\nCHOICE: wrong")).error).toMatch(/several choices/);
    expect(parse(textResponse("I think it is correct.")).error).toMatch(/no "CHOICE: <label>" line/);
    expect(readTextChoice("**CHOICE:** [partly].", ["partly"])).toEqual({ label: "partly" });
  });

  it("retries once with a correction after a reply without a valid choice", () => {
    const bad = textResponse("Looks fine to me.");
    const judgement = parse(bad);
    const retry = rubricJudge.retryRequest!(request!, bad, judgement, options);
    expect(retry?.id).toBe("rubric");
    const messages = (retry!.request as { messages: { role: string; content: string }[] }).messages;
    expect(messages.slice(-2).map((m) => m.role)).toEqual(["assistant", "user"]);
    expect(messages.at(-1)!.content).toMatch(/CHOICE: <label>, where <label> is one of: correct, partly, wrong/);
    expect(rubricJudge.retryRequest!({ ...retry!, id: "rubric#retry" }, bad, judgement, options)).toBeUndefined();
    expect(rubricJudge.retryRequest!(request!, toolReply({ choice: "correct" }), parse(toolReply({ choice: "correct" })), options)).toBeUndefined();
  });

  it("reads a rubric.yaml path relative to the task's config file, and asks for text only with use_tools: false", () => {
    const dir = mkdtempSync(join(tmpdir(), "rubric-"));
    writeFileSync(join(dir, "helpful.yaml"), "question: Is it helpful?\nchoices:\n  - label: yes\n    score: 1\n  - label: no\n    score: 0\n");
    const fileOptions = { rubric: "helpful.yaml", use_tools: false };
    const fileTask = { ...task, source: { file: join(dir, "tasks.yaml"), dialect: "yardstick" } };
    const [r] = rubricJudge.buildRequests(sample, answers, fileOptions, { task: fileTask });
    expect(r!.request.params.tools).toBeUndefined();
    expect(String((r!.request as { messages: { content: unknown }[] }).messages[0]!.content)).toMatch(/End your reply with one line CHOICE: <label>\.\nLabels: yes \| no$/);
    expect(rubricJudge.parse(textResponse("CHOICE: no"), fileOptions, { sample, task: fileTask, request: r! })).toMatchObject({ label: "no", score: 0, data: { rubric: "helpful" } });
    expect(() => rubricJudge.checkOptions!({ rubric: join(dir, "missing.yaml") })).toThrow(/judge rubric: cannot read the rubric/);
  });

  it("scores the mean choice score, counts per label, and reports errors", async () => {
    const rows = ["a", "b", "c", "d"].map((id): Sample => ({ ...sample, id }));
    const inputs = rows.map((s, i) =>
      metricInput(s, [{ stage: "judge", call: "rubric", judgement: [parse(toolReply({ choice: "correct" })), parse(textResponse("CHOICE: partly")), parse(textResponse("CHOICE: correct")), parse(textResponse("??"))][i]! }]),
    );
    // A retry's judgement replaces the first one.
    inputs[3]!.judgements = [...inputs[3]!.judgements!, { stage: "judge", call: "rubric#retry", judgement: parse(textResponse("CHOICE: wrong")) }];
    const result = await rubricJudgeMetric.compute(inputs, {});
    expect(result.scores).toEqual({ mean_score: 2.5 / 4, normalized_score: 62.5, judged: 4, judge_errors: 0, "count:correct": 2, "count:partly": 1, "count:wrong": 1 });
    const failed = await rubricJudgeMetric.compute([metricInput(sample, [{ stage: "judge", call: "rubric", judgement: parse(textResponse("??")) }])], {});
    expect(failed.scores).toMatchObject({ judged: 0, judge_errors: 1 });
    expect((failed.details!.errors as { error: string }[])[0]!.error).toMatch(/no "CHOICE/);
  });
});
