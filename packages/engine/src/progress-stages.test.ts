import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiCallError, createRegistry, type DataloaderV1, type ModelProviderV1, type PromptBuilderV1, type TaskSpec } from "@yardstick/core";
import { createOpenAICompatible } from "@yardstick/models";
import { startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { answerTasks } from "./answer.js";
import { createRunManifest } from "./manifest.js";
import { createRunStats } from "./progress-stats.js";
import { openRequestCache } from "./request-cache.js";
import { RunStore } from "./run-store.js";

// What the generate stage tells the progress reporter: requests, retries (from the provider's
// onRetry, or from the attempts of a failure), errors, cache hits and tokens.
const SAMPLES = 6;
const loader: DataloaderV1 = {
  specVersion: "v1",
  id: "rows",
  async *load() {
    for (let i = 0; i < SAMPLES; i++) yield { id: `s${i}`, prompts: [{ q: `question ${i}` }], raw: {} };
  },
};
const builder: PromptBuilderV1 = { specVersion: "v1", id: "ask", build: ({ sample }) => [{ role: "user", content: String(sample.prompts[0]?.q) }] };
const registry = createRegistry({ dataloaders: { rows: loader }, promptBuilders: { ask: builder } });
const task: TaskSpec = {
  key: "t/en",
  name: "t",
  language: "en",
  competency: "qa",
  data: { id: "rows" },
  fewshot: 0,
  prompt: { id: "ask" },
  mode: "generate",
  endpoint: "chat",
  generation: { maxTokens: 8 },
  postprocessors: [],
  metrics: [],
  mainScore: "x",
  errorResponses: "replace",
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function answerWith(model: ModelProviderV1, cachePath: string) {
  const dir = mkdtempSync(join(tmpdir(), "ys-progress-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const store = new RunStore(dir);
  await store.open(createRunManifest({ tasks: [task], model: { provider: "p", modelId: "m", identity: "m" }, options: {} }));
  const cache = openRequestCache({ path: cachePath });
  const stats = createRunStats();
  try {
    await answerTasks({ tasks: [task], registry, model, store, cache, concurrency: 1, progress: stats, failFastAfter: 0 });
  } finally {
    await store.close();
    cache.close();
  }
  return stats.session(false);
}

describe("the generate stage's report to the progress display", () => {
  it("counts requests, retries by cause, errors, cache hits and tokens", async () => {
    // One request at a time: the script's faults hit s0 (500 then 429, then answered) and s1 (three
    // 500s: failed for good after two retries).
    const server = await startDevServer({ faults: { script: [null, "500", "429", null, "500", "500", "500"], retryAfterSeconds: 0 } });
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`], maxAttempts: 3, backoff: { baseMs: 1, maxMs: 2 } });
    cleanups.push(() => server.close(), () => model.close());
    const cachePath = join(mkdtempSync(join(tmpdir(), "ys-progress-cache-")), "cache.sqlite");
    cleanups.push(() => rmSync(join(cachePath, ".."), { recursive: true, force: true }));
    await model.describeServedModel?.(); // the script's first entry
    // Without its adaptive `limiter` the stage runs one sample worker for concurrency 1 (with it, two:
    // a sample waiting out the 429's Retry-After would let the other's request take a script entry first).
    const oneAtATime: ModelProviderV1 = { specVersion: "v1", id: model.id, modelId: model.modelId, identity: () => model.identity(), generate: (r, c) => model.generate(r, c) };
    const first = await answerWith(oneAtATime, cachePath);
    expect(first).toMatchObject({ requests: SAMPLES, retries: 4, retriesBy: { "500": 3, "429": 1 }, errors: 1, cacheHits: 0, samples: { done: SAMPLES } });
    expect(first.tokens.input).toBeGreaterThan(0);
    expect(first.tokens.output).toBeGreaterThan(0);
    expect(first.stages.generate).toMatchObject({ requests: SAMPLES, errors: 1 });
    expect(first.byTask["t/en"]).toEqual(first.stages.generate);

    // A new store over the same cache: the answered requests come from it, the failed one is sent again.
    const second = await answerWith(oneAtATime, cachePath);
    expect(second).toMatchObject({ requests: 1, cacheHits: SAMPLES - 1, retries: 0, errors: 0, tokens: { input: expect.any(Number) } });
  });

  it("counts the retries of a provider that reports them only in its failures' attempts", async () => {
    const failing: ModelProviderV1 = {
      specVersion: "v1",
      id: "always-down",
      modelId: "m",
      identity: () => "always-down",
      async generate() {
        throw new ApiCallError("HTTP 503: down", { retryable: false, status: 503, attempts: 3 });
      },
    };
    const cachePath = join(mkdtempSync(join(tmpdir(), "ys-progress-cache-")), "cache.sqlite");
    cleanups.push(() => rmSync(join(cachePath, ".."), { recursive: true, force: true }));
    const session = await answerWith(failing, cachePath);
    expect(session).toMatchObject({ requests: SAMPLES, errors: SAMPLES, retries: 2 * SAMPLES, retriesBy: { api: 2 * SAMPLES } });
  });
});
