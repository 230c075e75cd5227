/**
 * Every judge against the real dev server (echo policy) through the real OpenAI-compatible provider:
 * the dev server's judge replies parse without error, so judged runs work end to end.
 */
import type { JudgementRecord, JudgeV2, MetricInput, MetricV1, Sample, StoredAnswer, TaskSpec } from "@yardstick/core";
import { createOpenAICompatible } from "@yardstick/models";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinJudgeMetrics, builtinJudges } from "./index.js";
import { corpusTask, fixtureSamples, metricInput, storedAnswers } from "./judge-kit.test-helper.js";

let server: DevServer;
beforeAll(async () => {
  server = await startDevServer();
});
afterAll(async () => {
  await server.close();
});

async function judgeThroughServer(judge: JudgeV2, task: TaskSpec, sample: Sample, answers: StoredAnswer[]): Promise<JudgementRecord[]> {
  const provider = createOpenAICompatible({ modelId: "judge", baseURLs: [`${server.url}/v1`], maxAttempts: 1 });
  const options = task.judge?.options ?? {};
  const records: JudgementRecord[] = [];
  for (const request of judge.buildRequests(sample, answers, options, { task })) {
    const response = await provider.generate({ ...request.request, params: { ...request.request.params, maxTokens: 512 } } as never);
    records.push({ stage: "judge", call: request.id, judgement: judge.parse(response, options, { sample, task, request }) });
  }
  await provider.close?.();
  return records;
}

const CASES: { key: string; rows: string; metric: string; answers: string[] }[] = [
  { key: "mt-bench/en", rows: "mt-bench.jsonl", metric: "seahelm-pairwise-judge", answers: ["first answer", "second answer"] },
  { key: "kalahi-judge/tl", rows: "kalahi.jsonl", metric: "seahelm-criteria-judge", answers: ["sagot"] },
  { key: "syntax-criteria/id", rows: "syntax-criteria.jsonl", metric: "seahelm-lindsea-judge", answers: ["Buku itu dibaca."] },
  { key: "mt-bench-judge/en", rows: "mt-bench-judge.jsonl", metric: "seahelm-mt-bench-judge", answers: ["tips", "short tips"] },
  { key: "healthbench/en", rows: "healthbench.jsonl", metric: "seahelm-healthbench-judge", answers: ["See a doctor."] },
  { key: "aa-lcr/en", rows: "aa-lcr.jsonl", metric: "seahelm-aa-lcr-judge", answers: ["5 million"] },
  { key: "babyvision/en", rows: "babyvision.jsonl", metric: "seahelm-babyvision-judge", answers: ["\\boxed{B}"] },
];

describe("judges through the dev server", () => {
  for (const c of CASES) {
    it(`${c.key}: every judge reply parses and the metric reports no judge error`, async () => {
      const task = await corpusTask(c.key);
      const judge = builtinJudges[task.judge!.id]!;
      const inputs: MetricInput[] = [];
      for (const sample of fixtureSamples(c.rows)) {
        const records = await judgeThroughServer(judge, task, sample, storedAnswers(c.answers));
        expect(records.filter((r) => r.judgement.error !== undefined)).toEqual([]);
        inputs.push(metricInput(sample, records));
      }
      const metric: MetricV1 = builtinJudgeMetrics[c.metric]!;
      const result = await metric.compute(inputs, {}, { task });
      expect(result.scores.judge_errors).toBe(0);
      expect(result.scores[task.mainScore]).toBeGreaterThanOrEqual(0);
    });
  }

  it("rubric: the forced tool call comes back as a choice", async () => {
    const rubric = { question: "Is it helpful?", choices: [{ label: "yes", score: 1 }, { label: "no", score: 0 }] };
    const task = { ...(await corpusTask("aa-lcr/en")), judge: { id: "rubric", options: { rubric } } };
    const sample: Sample = { id: "r1", prompts: [{ text: "Hi" }], raw: {} };
    const [record] = await judgeThroughServer(builtinJudges.rubric!, task, sample, storedAnswers(["Hello!"]));
    expect(record!.judgement).toMatchObject({ data: { via: "tool" } });
    expect(["yes", "no"]).toContain(record!.judgement.label);
  });

  it("rubric without tools: the text form parses", async () => {
    const rubric = { question: "Is it helpful?", choices: [{ label: "yes", score: 1 }, { label: "no", score: 0 }] };
    const task = { ...(await corpusTask("aa-lcr/en")), judge: { id: "rubric", options: { rubric, use_tools: false } } };
    const sample: Sample = { id: "r1", prompts: [{ text: "Hi" }], raw: {} };
    const [record] = await judgeThroughServer(builtinJudges.rubric!, task, sample, storedAnswers(["Hello!"]));
    expect(record!.judgement).toMatchObject({ data: { via: "text" } });
  });
});
