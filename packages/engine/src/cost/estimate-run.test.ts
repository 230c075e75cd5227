import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, type DataloaderV1, type PromptBuilderV1, type Sample, type TaskSpec } from "@yardstick/core";
import { createOpenAIBatchClient, createOpenAICompatible } from "@yardstick/models";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerTasks } from "../answer.js";
import { createRunManifest } from "../manifest.js";
import { openRequestCache } from "../request-cache.js";
import { RunStore } from "../run-store.js";
import { estimateRun } from "./estimate-run.js";
import { builtinPrices } from "./price-table.js";

// estimateRun on a two-turn task: the second turn's prompt holds the first answer, so the estimate
// answers with placeholders as long as the recorded answers, and comes within 10% of the real run.

const SAMPLES = 10;
const loader: DataloaderV1 = {
  specVersion: "v1",
  id: "rows",
  async *load() {
    for (let i = 0; i < SAMPLES; i++) yield { id: `s${i}`, prompts: [{ q: `question number ${i}` }], raw: { n: i } } satisfies Sample;
  },
};
const builder: PromptBuilderV1 = {
  specVersion: "v1",
  id: "ask",
  build: ({ sample, turn, previousResponses }) =>
    turn === 1
      ? [{ role: "user", content: `Q: ${String(sample.prompts[0]?.q)}` }]
      : [
          { role: "user", content: `Q: ${String(sample.prompts[0]?.q)}` },
          { role: "assistant", content: previousResponses[0] ?? "" },
          { role: "user", content: "Say more." },
        ],
};
const registry = createRegistry({ dataloaders: { rows: loader }, promptBuilders: { ask: builder } });
const task: TaskSpec = {
  key: "talk/en",
  name: "talk",
  language: "en",
  competency: "qa",
  data: { id: "rows" },
  fewshot: 0,
  prompt: { id: "ask" },
  mode: "generate",
  endpoint: "chat",
  generation: { maxTokens: 200 },
  postprocessors: [],
  metrics: [],
  mainScore: "x",
  turns: 2,
  errorResponses: "replace",
};

// Long answers, so that leaving them out of the second turn's prompt would miss by far more than 10%.
const LONG = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
let server: DevServer;
beforeAll(async () => {
  server = await startDevServer({ port: 0, policy: (req) => `${LONG} about ${req.lastUserText.slice(0, 20)}` });
});
afterAll(async () => {
  await server.close();
});

describe("estimateRun", () => {
  it("estimates a two-turn task's second-turn prompts with the recorded answer length, within 10% of the real run", async () => {
    const root = mkdtempSync(join(tmpdir(), "yardstick-estimate-"));
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`], maxAttempts: 1 });
    const cache = openRequestCache({ path: join(root, "cache.sqlite") });
    const manifest = (limit: number | null) => createRunManifest({ tasks: [task], model: { provider: "p", modelId: "m", identity: "m" }, options: { limit } });
    const answer = async (dir: string, limit?: number) => {
      const store = new RunStore(dir);
      await store.open(manifest(limit ?? null));
      try {
        await answerTasks({ tasks: [task], registry, model, store, cache, ...(limit ? { limit } : {}) });
      } finally {
        await store.close();
      }
    };
    // Two samples answered first: the cache holds them and their answers' length.
    await answer(join(root, "warm"), 2);
    cache.flush();

    const chat = () => server.stats().requests["/v1/chat/completions"] ?? 0;
    const before = chat();
    const estimate = await estimateRun({ tasks: [task], registry, model, storeDir: join(root, "full"), manifest: manifest(null), cache, prices: builtinPrices() });
    expect(chat()).toBe(before);
    const [generate] = estimate.stages;
    expect(generate).toMatchObject({ stage: "generate", requests: 16, price: undefined, costUsd: undefined });
    expect(generate!.tasks[0]).toMatchObject({ task: "talk/en", outputSource: "recorded" });

    await answer(join(root, "full"));
    const sent = readFileSync(join(root, "full", "responses.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((r) => !r.cached);
    expect(sent).toHaveLength(16);
    const input = sent.reduce((a, r) => a + r.usage.promptTokens, 0);
    const output = sent.reduce((a, r) => a + r.usage.completionTokens, 0);
    expect(Math.abs(generate!.inputTokens - input)).toBeLessThanOrEqual(0.1 * input);
    expect(Math.abs(generate!.outputTokens - output)).toBeLessThanOrEqual(0.1 * output);
    cache.close();
    await model.close?.();
  });

  it("leaves out the requests of a batch still in flight: a rerun re-attaches to it, it does not pay again", async () => {
    const slow = await startDevServer({ port: 0, policy: "echo", batch: { processingMs: 5_000 } });
    const root = mkdtempSync(join(tmpdir(), "yardstick-estimate-batch-"));
    const settings = { modelId: "m", baseURLs: [`${slow.url}/v1`] };
    const model = createOpenAICompatible(settings);
    const client = createOpenAIBatchClient(settings);
    const one: TaskSpec = { ...task, key: "one/en", turns: 1 };
    const manifest = createRunManifest({ tasks: [one], model: { provider: "p", modelId: "m", identity: "m" }, options: {} });
    const store = new RunStore(join(root, "run"));
    await store.open(manifest);
    const stop = new AbortController();
    const answered = await answerTasks({
      tasks: [one],
      registry,
      model,
      store,
      batchApi: { client, pollSeconds: 0.02, collectMs: 20 },
      signal: stop.signal,
      log: (m) => m.includes("created") && stop.abort(),
    });
    await store.close();
    expect(answered.aborted).toBe(true);

    const estimate = await estimateRun({ tasks: [one], registry, model, storeDir: join(root, "run"), manifest, prices: builtinPrices() });
    expect(estimate.inFlightRequests).toBe(SAMPLES);
    expect(estimate.stages[0]!.requests).toBe(0);
    expect(slow.stats().requests["/v1/chat/completions"] ?? 0).toBe(0);
    await client.close();
    await model.close?.();
    await slow.close();
  });
});
