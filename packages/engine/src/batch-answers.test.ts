import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BatchClient, createRegistry, type DataloaderV1, type JudgeV2, type ModelProviderV1, type PromptBuilderV1, type Sample, type TaskSpec } from "@yardstick/core";
import { createAnthropic, createAnthropicBatchClient, createOpenAIBatchClient, createOpenAICompatible } from "@yardstick/models";
import { type DevServer, type DevServerOptions, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { answerTasks } from "./answer.js";
import { judgeTasks } from "./judge-stage.js";
import type { BatchSettings } from "./batch-answers.js";
import { createRunManifest } from "./manifest.js";
import { RunStore } from "./run-store.js";

// Batch mode of the generate stage end to end: the dev server's batch APIs, a real run store.

const SAMPLES = 5;
const loader: DataloaderV1 = {
  specVersion: "v1",
  id: "rows",
  async *load() {
    for (let i = 0; i < SAMPLES; i++) yield { id: `s${i}`, prompts: [{ q: `question ${i}` }], raw: { n: i } } satisfies Sample;
  },
};
// Turn 2 shows turn 1's answer: it can only be asked once turn 1 is answered.
const builder: PromptBuilderV1 = {
  specVersion: "v1",
  id: "ask",
  build: ({ sample, turn, previousResponses }) =>
    turn === 1
      ? [{ role: "user", content: `Q: ${String(sample.prompts[0]?.q)}` }]
      : [
          { role: "user", content: `Q: ${String(sample.prompts[0]?.q)}` },
          { role: "assistant", content: previousResponses[0] ?? "" },
          { role: "user", content: `and then? (${previousResponses[0]?.length})` },
        ],
};
// A judge that asks the model to grade each answer, and takes its reply's length as the score.
const lengthJudge: JudgeV2 = {
  specVersion: "v2",
  id: "length",
  buildRequests: (_sample, answers) => [
    { id: "grade", request: { kind: "chat", messages: [{ role: "user", content: `GRADE ${answers.find((a) => a.run === undefined)?.text}` }], params: { maxTokens: 8 } } },
  ],
  parse: (response) => ({ label: response.text, score: response.text.length }),
};
const registry = createRegistry({ dataloaders: { rows: loader }, promptBuilders: { ask: builder }, judges: { length: lengthJudge } });

const task = (turns = 1): TaskSpec => ({
  key: "batched/en",
  name: "batched",
  language: "en",
  competency: "qa",
  data: { id: "rows" },
  fewshot: 0,
  prompt: { id: "ask" },
  mode: "generate",
  endpoint: "chat",
  generation: { maxTokens: 16 },
  postprocessors: [],
  metrics: [],
  mainScore: "x",
  turns,
  errorResponses: "replace",
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function server(options: DevServerOptions = {}): Promise<DevServer> {
  const s = await startDevServer({ apiKey: "test-key-1234", ...options });
  closers.push(() => s.close());
  return s;
}

function openai(s: DevServer, limits: { maxRequests?: number } = {}): { model: ModelProviderV1; client: BatchClient } {
  const settings = { modelId: "m", baseURL: `${s.url}/v1` };
  const model = createOpenAICompatible(settings);
  const client = createOpenAIBatchClient(settings, limits);
  closers.push(() => model.close(), () => client.close());
  return { model, client };
}

function anthropic(s: DevServer): { model: ModelProviderV1; client: BatchClient } {
  const settings = { modelId: "claude-x", baseURL: s.url, apiKey: "test-key-1234" };
  const model = createAnthropic(settings);
  const client = createAnthropicBatchClient(settings);
  closers.push(() => model.close(), () => client.close());
  return { model, client };
}

const root = mkdtempSync(join(tmpdir(), "yardstick-batch-"));
let dirs = 0;

async function run(
  parts: { model: ModelProviderV1; client: BatchClient },
  t: TaskSpec,
  more: { dir?: string; batch?: Partial<BatchSettings> | false; signal?: AbortSignal; log?: (m: string) => void } = {},
) {
  const dir = more.dir ?? join(root, `run${dirs++}`);
  const store = new RunStore(dir);
  await store.open(createRunManifest({ tasks: [t], model: { provider: "p", modelId: "m", identity: "m" }, options: {} }));
  try {
    const result = await answerTasks({
      tasks: [t],
      registry,
      model: parts.model,
      store,
      ...(more.batch === false ? {} : { batchApi: { client: parts.client, pollSeconds: 0.02, collectMs: 20, ...more.batch } }),
      ...(more.signal ? { signal: more.signal } : {}),
      ...(more.log ? { log: more.log } : {}),
    });
    return { result, dir };
  } finally {
    await store.close();
  }
}

type Rec = Record<string, any>;
const records = (dir: string): Rec[] =>
  readFileSync(join(dir, "responses.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Rec);

/** The final record of each (sample, turn), with what scoring reads of it. */
function answers(dir: string): Map<string, Rec> {
  const out = new Map<string, Rec>();
  for (const r of records(dir)) {
    if (r.status === "pending") continue;
    out.set(`${r.sample}/${r.turn}`, { status: r.status, choices: r.choices, usage: r.usage, error: r.error?.message, key: r.key });
  }
  return out;
}

describe("generate stage in batch mode", () => {
  it("OpenAI Batch: a two-turn run gives the online run's answers, one batch per turn, pending records first", async () => {
    const s = await server();
    const parts = openai(s);
    const online = await run(parts, task(2), { batch: false });
    const before = s.stats().requests["/v1/chat/completions"] ?? 0;
    const batched = await run(parts, task(2));
    expect(s.stats().requests["/v1/chat/completions"] ?? 0).toBe(before); // nothing sent online
    expect(s.stats().batches).toEqual({ created: 2, requests: 2 * SAMPLES });
    expect(answers(batched.dir)).toEqual(answers(online.dir));
    expect(answers(batched.dir).size).toBe(2 * SAMPLES);
    const recs = records(batched.dir);
    const firstPending = recs.findIndex((r) => r.status === "pending");
    expect(recs.filter((r) => r.status === "pending")).toHaveLength(2 * SAMPLES);
    expect(recs.slice(0, firstPending + SAMPLES).every((r) => r.status === "pending")).toBe(true);
    expect(recs[firstPending].batch).toMatchObject({ id: expect.stringMatching(/^batch_/), customId: expect.any(String) });
    expect(batched.result.tasks[0]).toMatchObject({ samples: SAMPLES, errors: 0 });
  });

  it("Anthropic Message Batches: the same answers as the online run", async () => {
    const s = await server();
    const parts = anthropic(s);
    const online = await run(parts, task(), { batch: false });
    const batched = await run(parts, task());
    expect(answers(batched.dir)).toEqual(answers(online.dir));
    expect(s.stats().batches).toEqual({ created: 1, requests: SAMPLES });
  });

  it("a run stopped after its batch was created re-attaches to it on restart instead of sending again", async () => {
    const s = await server({ batch: { processingMs: 300 } });
    const parts = openai(s);
    const stop = new AbortController();
    const dir = join(root, "killed");
    const first = await run(parts, task(), { dir, signal: stop.signal, log: (m) => m.includes("created") && stop.abort() });
    expect(first.result.aborted).toBe(true);
    expect(records(dir).filter((r) => r.status === "pending")).toHaveLength(SAMPLES);
    expect(records(dir).filter((r) => r.status === "ok")).toHaveLength(0);
    const second = await run(parts, task(), { dir });
    expect(second.result.aborted).toBe(false);
    expect(s.stats().batches).toEqual({ created: 1, requests: SAMPLES });
    const final = answers(dir);
    expect([...final.values()].every((r) => r.status === "ok")).toBe(true);
    expect(final.size).toBe(SAMPLES);
    // Each prompt was answered once: by the batch, not again online.
    expect(Object.values(s.stats().byPromptHash).every((n) => n === 1)).toBe(true);
  });

  it("a pending batch the provider no longer knows is sent again on restart", async () => {
    const first = await server({ batch: { processingMs: 5000 } });
    const stop = new AbortController();
    const dir = join(root, "unknown-batch");
    await run(openai(first), task(), { dir, signal: stop.signal, log: (m) => m.includes("created") && stop.abort() });
    expect(records(dir).filter((r) => r.status === "pending")).toHaveLength(SAMPLES);
    const second = await server(); // another server: the first one's batch is unknown here
    const r = await run(openai(second), task(), { dir });
    expect(second.stats().batches).toEqual({ created: 1, requests: SAMPLES });
    expect([...answers(r.dir).values()].every((x) => x.status === "ok")).toBe(true);
  });

  it("a batch the API refuses to create fails its requests with the reason", async () => {
    const s = await server({ batch: { maxRequests: 2 } });
    const r = await run(anthropic(s), task(), { batch: { maxResubmits: 3 } });
    expect(s.stats().batches).toEqual({ created: 0, requests: 0 });
    const final = [...answers(r.dir).values()];
    expect(final).toHaveLength(SAMPLES);
    for (const rec of final) expect(rec.error).toMatch(/sending the batch failed: .*HTTP 400: .*at most 2 requests/);
    expect(records(r.dir).filter((x) => x.status === "pending")).toHaveLength(0);
  });

  it("resubmits failed requests up to the bound, then records them as errors", async () => {
    const s = await server({ batch: { failRate: 1 } });
    const r = await run(openai(s), task(), { batch: { maxResubmits: 3 } });
    expect(s.stats().batches).toEqual({ created: 4, requests: 4 * SAMPLES });
    const final = [...answers(r.dir).values()];
    expect(final).toHaveLength(SAMPLES);
    for (const rec of final) {
      expect(rec.status).toBe("error");
      expect(rec.error).toMatch(/HTTP 500: injected batch failure.*after 4 batch submissions/);
    }
    expect(r.result.tasks[0]).toMatchObject({ errors: SAMPLES });
  });

  it("partial failures: the failed share is sent again and ends with the online answers", async () => {
    const s = await server({ batch: { failRate: 0.4 }, seed: 7 });
    const parts = openai(s);
    const online = await run(parts, task(), { batch: false });
    const r = await run(parts, task(), { batch: { maxResubmits: 10 } });
    expect(s.stats().batches.created).toBeGreaterThan(1);
    expect(answers(r.dir)).toEqual(answers(online.dir));
  });

  it("an expired batch: unfinished requests are sent again, and the last ones are recorded with the reason", async () => {
    const s = await server({ batch: { expireRate: 0.5 } });
    const r = await run(openai(s), task(), { batch: { maxResubmits: 1 } });
    // 5 requests: 2 answered, the last 3 expire; sent again: 1 answered, 2 expire for good.
    expect(s.stats().batches).toEqual({ created: 2, requests: SAMPLES + 3 });
    const errors = [...answers(r.dir).values()].filter((x) => x.status === "error");
    expect(errors).toHaveLength(2);
    expect(errors[0]!.error).toMatch(/batch_expired.*completion window expired.*after 2 batch submissions/);
  });

  it("splits a batch by the client's lowered request limit", async () => {
    const s = await server();
    const r = await run(openai(s, { maxRequests: 2 }), task());
    expect(s.stats().batches).toEqual({ created: 3, requests: SAMPLES });
    expect([...answers(r.dir).values()].every((x) => x.status === "ok")).toBe(true);
  });

  it("the judge stage sends its calls through the judge model's batch API, with the online judgements", async () => {
    const s = await server();
    const parts = openai(s);
    const judged: TaskSpec = { ...task(), judge: { id: "length", options: {}, generation: {}, model: "judge" } };
    async function judgeRun(batch: boolean): Promise<Rec[]> {
      const { dir } = await run(parts, judged, { batch: false });
      const store = new RunStore(dir);
      await store.open(createRunManifest({ tasks: [judged], model: { provider: "p", modelId: "m", identity: "m" }, options: {} }));
      try {
        const r = await judgeTasks({
          tasks: [judged],
          registry,
          model: parts.model,
          store,
          ...(batch ? { batchApi: { client: parts.client, pollSeconds: 0.02, collectMs: 20 } } : {}),
        });
        expect(r.tasks[0]).toMatchObject({ samples: SAMPLES, errors: 0 });
      } finally {
        await store.close();
      }
      return records(dir).filter((r) => r.stage === "judge");
    }
    const online = await judgeRun(false);
    const batched = await judgeRun(true);
    expect(s.stats().batches).toEqual({ created: 1, requests: SAMPLES });
    expect(batched.filter((r) => r.status === "pending")).toHaveLength(SAMPLES);
    const judgements = (recs: Rec[]) => recs.filter((r) => r.status === "ok").map((r) => [r.sample, r.call, r.judgement]);
    expect(judgements(batched)).toEqual(judgements(online));
    expect(judgements(online)).toHaveLength(SAMPLES);
  });
});
