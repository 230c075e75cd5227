import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRegistry,
  type DataloaderV1,
  type MetricV1,
  type ModelProviderV1,
  type PromptBuilderV1,
  type Sample,
  type TaskSpec,
} from "@yardstick/core";
import { createOpenAICompatible, ModelCallError } from "@yardstick/models";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { runEvaluation } from "./evaluate.js";
import { createRunManifest } from "./manifest.js";
import { openRequestCache } from "./request-cache.js";
import { RunStore } from "./run-store.js";

// Multiple choice by log-likelihood over /v1/completions (echo + logprobs), end to end.
const QUESTIONS = [
  { q: "The capital of France is", options: [" Berlin", " Paris", " Madrid"], gold: 1 },
  { q: "Water freezes at zero degrees", options: [" Celsius", " Kelvin"], gold: 0 },
  { q: "The largest planet is", options: [" Mars", " Venus", " Jupiter"], gold: 2 },
];

const loader: DataloaderV1 = {
  specVersion: "v1",
  id: "questions",
  async *load() {
    for (const [i, x] of QUESTIONS.entries()) {
      yield { id: `q${i}`, prompts: [{ q: x.q }], label: x.gold, raw: { options: x.options } } satisfies Sample;
    }
  },
};

const choices: PromptBuilderV1 = {
  specVersion: "v1",
  id: "choices",
  build: () => {
    throw new Error("generation is not used by this task");
  },
  buildChoices: ({ sample }) => ({ context: String(sample.prompts[0]?.q), continuations: sample.raw.options as string[] }),
};

/** Accuracy of the highest-logprob choice. */
const argmaxAccuracy: MetricV1 = {
  specVersion: "v1",
  id: "argmax-accuracy",
  compute(inputs) {
    const perSample = inputs.map((x) => {
      const lp = x.prediction as number[];
      const best = lp.indexOf(Math.max(...lp));
      return { sampleId: x.sampleId, scores: { correct: best === x.reference ? 1 : 0 } };
    });
    return { scores: { accuracy: (100 * perSample.filter((s) => s.scores.correct === 1).length) / perSample.length }, perSample };
  },
};

const task: TaskSpec = {
  key: "mc/en",
  name: "mc",
  language: "en",
  competency: "knowledge",
  data: { id: "questions" },
  fewshot: 0,
  prompt: { id: "choices" },
  mode: "loglikelihood",
  endpoint: "completion",
  generation: {},
  postprocessors: [],
  metrics: [{ id: "argmax-accuracy" }],
  mainScore: "accuracy",
  errorResponses: "replace",
};

describe("loglikelihood tasks", () => {
  it("score each option through /v1/completions and pick the likeliest; a rerun sends nothing", async () => {
    // The dev server makes tokens of its policy's answer likely: answer with every gold option.
    const server = await startDevServer({ port: 0, policy: { fixed: "Paris Celsius Jupiter" } });
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`] });
    const registry = createRegistry({ dataloaders: { questions: loader }, promptBuilders: { choices }, metrics: { "argmax-accuracy": argmaxAccuracy } });
    const dir = join(mkdtempSync(join(tmpdir(), "ys-ll-")), "run");
    const manifest = createRunManifest({ tasks: [task], model: { provider: "p", modelId: "m", identity: "i" }, options: {} });
    try {
      const store = new RunStore(dir);
      await store.open(manifest);
      const r = await runEvaluation({ tasks: [task], registry, model, store });
      await store.close();
      expect(r.tasks[0]?.main).toBe(100);
      // One request per question: its options go together as a prompt array (8 prompts in all).
      expect(server.stats().requests["/v1/completions"]).toBe(3);
      expect(Object.values(server.stats().byPromptHash).reduce((a, b) => a + b, 0)).toBe(8);
      const again = new RunStore(dir);
      await again.open(manifest);
      const r2 = await runEvaluation({ tasks: [task], registry, model, store: again });
      await again.close();
      expect(r2.answering[0]?.fromStore).toBe(3);
      expect(r2.tasks[0]?.main).toBe(100);
      expect(server.stats().requests["/v1/completions"]).toBe(3);
    } finally {
      await model.close();
      await server.close();
    }
  });

  it("are scored under the run store's lock, which is released when runEvaluation returns", async () => {
    const server = await startDevServer({ port: 0, policy: { fixed: "Paris Celsius Jupiter" } });
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`] });
    const dir = join(mkdtempSync(join(tmpdir(), "ys-ll-")), "run");
    const lockedWhileScoring: boolean[] = [];
    const lockWatcher: MetricV1 = {
      ...argmaxAccuracy,
      compute(inputs, options, ctx) {
        lockedWhileScoring.push(existsSync(join(dir, "run.lock")));
        return argmaxAccuracy.compute(inputs, options, ctx);
      },
    };
    const registry = createRegistry({ dataloaders: { questions: loader }, promptBuilders: { choices }, metrics: { "argmax-accuracy": lockWatcher } });
    const manifest = createRunManifest({ tasks: [task], model: { provider: "p", modelId: "m", identity: "i" }, options: {} });
    try {
      const store = new RunStore(dir);
      await store.open(manifest);
      const r = await runEvaluation({ tasks: [task], registry, model, store });
      expect(r.tasks[0]?.main).toBe(100);
      expect(lockedWhileScoring.length).toBeGreaterThan(0);
      expect(lockedWhileScoring.every(Boolean)).toBe(true);
      expect(existsSync(join(dir, "run.lock"))).toBe(false);
    } finally {
      await model.close();
      await server.close();
    }
  });

  it("keep each continuation's token count: stored, cached and handed to metrics beside the logprobs", async () => {
    const server = await startDevServer({ port: 0, policy: { fixed: "Paris Celsius Jupiter" } });
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`] });
    const seen: { logprobs: unknown; counts: unknown }[] = [];
    const recording: MetricV1 = {
      specVersion: "v1",
      id: "recording",
      compute(inputs) {
        // The first call gets the task's inputs; later ones are the headline interval's resamples.
        if (seen.length === 0) for (const x of inputs) seen.push({ logprobs: x.prediction, counts: x.choiceTokenCounts });
        return { scores: { accuracy: 0 }, perSample: [] };
      },
    };
    const registry = createRegistry({ dataloaders: { questions: loader }, promptBuilders: { choices }, metrics: { recording } });
    const recordingTask = { ...task, metrics: [{ id: "recording" }] };
    const root = mkdtempSync(join(tmpdir(), "ys-ll-"));
    const manifest = createRunManifest({ tasks: [recordingTask], model: { provider: "p", modelId: "m", identity: "i" }, options: {} });
    const cache = openRequestCache({ path: join(root, "cache.sqlite") });
    try {
      // What the provider reports for each option, asked directly.
      const expected = [];
      for (const x of QUESTIONS) {
        const results = await Promise.all(x.options.map((continuation) => model.loglikelihood({ context: x.q, continuation })));
        expected.push({ logprobs: results.map((r) => r.logprob), counts: results.map((r) => r.tokenCount) });
      }
      expect(expected[0]!.counts.every((n) => n >= 1)).toBe(true);
      for (const run of ["first", "cached"]) {
        seen.length = 0;
        const store = new RunStore(join(root, run));
        await store.open(manifest);
        await runEvaluation({ tasks: [recordingTask], registry, model, store, cache });
        const records = [];
        for await (const r of store.readResponses()) records.push(r);
        records.sort((a, b) => a.sample.localeCompare(b.sample)); // stored in arrival order
        await store.close();
        expect(records.map((r) => r.cached)).toEqual(QUESTIONS.map(() => run === "cached"));
        expect(records.map((r) => r.choiceTokenCounts)).toEqual(expected.map((e) => e.counts));
        expect(seen).toEqual(expected);
      }
    } finally {
      cache.close();
      await model.close();
      await server.close();
    }
  });

  it("stop at the first reply without usable logprobs (a server without echo), naming the cause", async () => {
    let calls = 0;
    const noEcho: ModelProviderV1 = {
      specVersion: "v1",
      id: "no-echo",
      modelId: "m",
      identity: () => "no-echo",
      generate: async () => {
        throw new Error("not used");
      },
      loglikelihood: async () => {
        calls++;
        throw new ModelCallError("POST /v1/completions returned no usable echoed logprobs for the continuation", {
          kind: "invalid-response",
          attempts: 1,
          retryable: false,
        });
      },
      close: async () => {},
    };
    const registry = createRegistry({ dataloaders: { questions: loader }, promptBuilders: { choices }, metrics: { "argmax-accuracy": argmaxAccuracy } });
    const manifest = createRunManifest({ tasks: [task], model: { provider: "p", modelId: "m", identity: "i" }, options: {} });
    const store = new RunStore(join(mkdtempSync(join(tmpdir(), "ys-ll-")), "run"));
    await store.open(manifest);
    try {
      await expect(runEvaluation({ tasks: [task], registry, model: noEcho, store, concurrency: 1 })).rejects.toThrow(
        /no usable echoed logprobs for the continuation; the run stopped at the first loglikelihood request/,
      );
      expect(calls).toBe(1);
    } finally {
      await store.close();
    }
  });
});
