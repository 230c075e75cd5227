/** Shared by the judges' tests: the corpus configs as TaskSpecs, fixture rows as samples, and a judge run without a model. */
import { readFileSync } from "node:fs";
import { loadSeaHelmConfigs, toTaskSpecs } from "@yardstick/config";
import type { JudgementRecord, JudgeV2, MetricInput, ModelResponse, Sample, StoredAnswer, TaskSpec } from "@yardstick/core";
import { textResponse } from "@yardstick/testing";

const FIXTURES = new URL("./__fixtures__/", import.meta.url);

let specs: Promise<Map<string, TaskSpec>> | undefined;

/** A task of the copied SEA-HELM configs by key, e.g. "mt-bench/en". */
export async function corpusTask(key: string): Promise<TaskSpec> {
  specs ??= loadSeaHelmConfigs([new URL("seahelm_tasks", FIXTURES).pathname]).then((loaded) => new Map(toTaskSpecs(loaded).map((s) => [s.key, s])));
  const spec = (await specs).get(key);
  if (!spec) throw new Error(`no task ${key} in the fixture configs`);
  return spec;
}

/** The rows of a fixture file in SEA-HELM's row shape, as samples (the id from `question_id` or `id`). */
export function fixtureSamples(file: string): Sample[] {
  const text = readFileSync(new URL(`rows/${file}`, FIXTURES), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const row = JSON.parse(line) as Record<string, unknown>;
      const id = String(row.question_id ?? row.id);
      const sample: Sample = { id, prompts: (row.prompts as Record<string, unknown>[] | undefined) ?? [{}], raw: row };
      if (row.label !== undefined) sample.label = row.label;
      if (row.metadata !== undefined) sample.metadata = row.metadata as Record<string, unknown>;
      return sample;
    });
}

/** The judged model's stored answers, one per turn (`run` "baseline" for a baseline run's). */
export function storedAnswers(texts: readonly string[], run?: string): StoredAnswer[] {
  return texts.map((text, i) => ({ stage: "generate", turn: i + 1, texts: [text], text, ...(run !== undefined ? { run } : {}) }));
}

export type Replier = (requestId: string, request: { messages: { role: string; content: unknown }[] }) => string | ModelResponse;

/** Builds a sample's judge requests, answers each with `reply`, and parses: the judgements a metric sees. */
export function judgeWith(judge: JudgeV2, task: TaskSpec, sample: Sample, answers: StoredAnswer[], reply: Replier): JudgementRecord[] {
  const options = task.judge?.options ?? {};
  return judge.buildRequests(sample, answers, options, { task }).map((request) => {
    const r = reply(request.id, request.request as never);
    const response = typeof r === "string" ? textResponse(r) : r;
    return { stage: "judge", call: request.id, judgement: judge.parse(response, options, { sample, task, request }) };
  });
}

export function metricInput(sample: Sample, judgements: JudgementRecord[]): MetricInput {
  return { sampleId: sample.id, prediction: "", reference: sample.label, sample, judgements };
}

/** The user message of a chat request. */
export function userText(request: { messages: { role: string; content: unknown }[] }): string {
  return String(request.messages.find((m) => m.role === "user")?.content ?? "");
}

export function systemText(request: { messages: { role: string; content: unknown }[] }): string {
  return String(request.messages.find((m) => m.role === "system")?.content ?? "");
}
