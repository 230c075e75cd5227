import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, type DataloaderV1, type MetricInput, type MetricResult, type MetricV1, type PromptBuilderV1, perSampleView, type Sample, type TaskSpec } from "@yardstick/core";
import { createOpenAICompatible } from "@yardstick/models";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerTasks } from "./answer.js";
import { createRunManifest } from "./manifest.js";
import { RunStore } from "./run-store.js";
import { scoreStore } from "./score-store.js";

// A metric that returns its per-sample scores as columns (`perSampleColumns`) gives the same
// scores/ and results.json, byte for byte, as the same metric returning one object per sample.

const SAMPLES = 30;
const loader: DataloaderV1 = {
  specVersion: "v1",
  id: "rows",
  async *load() {
    for (let i = 0; i < SAMPLES; i++) yield { id: `s${i}`, prompts: [{ q: `question ${i}` }], label: i % 3 === 0 ? "no" : "yes", raw: { n: i } } satisfies Sample;
  },
};
const builder: PromptBuilderV1 = { specVersion: "v1", id: "ask", build: ({ sample }) => [{ role: "user", content: `Q: ${String(sample.prompts[0]?.q)}` }] };

/** Hit (1/0) and answer length per sample; hit rate and a length-weighted score for the task. */
function hitsMetric(id: string, asColumns: boolean): MetricV1 {
  return {
    specVersion: "v1",
    id,
    compute(inputs: readonly MetricInput[]): MetricResult {
      const hit = Float64Array.from(inputs, (x) => (String(x.prediction).includes(String(x.reference)) ? 1 : 0));
      const length = Float64Array.from(inputs, (x) => String(x.prediction).length);
      const rate = inputs.length === 0 ? 0 : (100 * hit.reduce((a, b) => a + b, 0)) / inputs.length;
      const scores = { hit_rate: rate, weighted: rate * 0.5 + 1 };
      if (!asColumns) return { scores, perSample: inputs.map((x, i) => ({ sampleId: x.sampleId, scores: { hit: hit[i]!, length: length[i]! } })) };
      const perSampleColumns = { scores: { hit, length } };
      return { scores, perSample: perSampleView(inputs, perSampleColumns), perSampleColumns };
    },
  };
}

const task: TaskSpec = {
  key: "hits/en",
  name: "hits",
  language: "en",
  competency: "nlu",
  data: { id: "rows" },
  fewshot: 0,
  prompt: { id: "ask" },
  mode: "generate",
  endpoint: "chat",
  generation: {},
  postprocessors: [],
  // Two metrics giving the same per-sample names: the second's are prefixed with its id.
  metrics: [{ id: "hits" }, { id: "hits-again" }],
  mainScore: "weighted",
  errorResponses: "replace",
};

const registryOf = (asColumns: boolean) =>
  createRegistry({
    dataloaders: { rows: loader },
    promptBuilders: { ask: builder },
    metrics: { hits: hitsMetric("hits", asColumns), "hits-again": hitsMetric("hits-again", asColumns) },
  });

function digests(dir: string): Record<string, string> {
  const digest = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");
  const out: Record<string, string> = { "results.json": digest(join(dir, "results.json")) };
  for (const f of readdirSync(join(dir, "scores")).sort()) out[`scores/${f}`] = digest(join(dir, "scores", f));
  return out;
}

let server: DevServer;
beforeAll(async () => {
  server = await startDevServer({ port: 0, policy: (req) => (/question \d*[05]\b/.test(req.lastUserText) ? "Answer: no" : "Answer: yes") });
});
afterAll(async () => {
  await server.close();
});

/** Answers the task into a new run store in `dir` (closed again). */
async function answerInto(dir: string): Promise<void> {
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`], maxAttempts: 1 });
    const store = new RunStore(dir);
    await store.open(createRunManifest({ tasks: [task], model: { provider: "p", modelId: "m", identity: "m" }, options: {} }));
    await answerTasks({ tasks: [task], registry: registryOf(false), model, store });
    await store.close();
    await model.close();
}

describe("per-sample columns", () => {
  it("score a stored run byte-identically to per-sample objects", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-columns-"));
    await answerInto(dir);

    const objects = await scoreStore({ store: new RunStore(dir), registry: registryOf(false) });
    const before = digests(dir);
    const firstLine = JSON.parse(readFileSync(join(dir, "scores", readdirSync(join(dir, "scores"))[0]!), "utf8").split("\n")[0]!);
    expect(Object.keys(firstLine.scores)).toEqual(["hit", "length", "hits-again.hit", "hits-again.length"]);
    const columns = await scoreStore({ store: new RunStore(dir), registry: registryOf(true) });
    expect(digests(dir)).toEqual(before);
    expect(columns.tasks[0]?.main).toBe(objects.tasks[0]?.main);
    expect(columns.tasks[0]?.summary).toEqual(objects.tasks[0]?.summary);
  });

  it("fail the task, not the run, when a column is not one value per input", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-columns-bad-"));
    await answerInto(dir);
    const short: MetricV1 = {
      specVersion: "v1",
      id: "hits",
      compute: (inputs) => ({ scores: { weighted: 1 }, perSample: [], perSampleColumns: { scores: { hit: new Float64Array(inputs.length - 1) } } }),
    };
    const registry = createRegistry({ dataloaders: { rows: loader }, promptBuilders: { ask: builder }, metrics: { hits: short, "hits-again": short } });
    const scored = await scoreStore({ store: new RunStore(dir), registry });
    expect(scored.tasks[0]?.failure).toMatch(/metric hits: per-sample column "hit" must be a Float64Array with one value per input \(30\)/);
  });
});
