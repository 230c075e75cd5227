/**
 * A loglikelihood task with a first pass (`generation.stopAtFirst`, SEA-HELM's logprob tasks) against
 * the dev server: the first pass generates up to the tag, the echo request scores every option after
 * that text; a first pass that fails is the row's error, retried by the next run (the rows already
 * scored are kept); a first pass that never reaches the tag is an empty answer and no echo request.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, type DataloaderV1, type MetricV1, type PromptBuilderV1, type TaskSpec } from "@yardstick/core";
import { createOpenAICompatible } from "@yardstick/models";
import type { ResponseRecord } from "@yardstick/run-format";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { runEvaluation } from "./evaluate.js";
import { createRunManifest } from "./manifest.js";
import { RunStore } from "./run-store.js";

const ROWS = [
  { id: "q1", text: "Is the sky blue?" },
  { id: "q2", text: "Is grass red?" },
  { id: "q3", text: "Count forever." },
];

const loader: DataloaderV1 = {
  specVersion: "v1",
  id: "rows",
  async *load() {
    for (const r of ROWS) yield { id: r.id, prompts: [{ text: r.text }], label: 0, raw: {} };
  },
};
const options: PromptBuilderV1 = {
  specVersion: "v1",
  id: "yes-no",
  build: () => {
    throw new Error("not used");
  },
  buildChoices: ({ sample }) => ({ context: `Q: ${String(sample.prompts[0]?.text)}\n`, continuations: [" yes", " no"] }),
};
/** Each sample's predictions as given (the logprob list, or the empty answer of a row without the tag). */
const predictions: unknown[] = [];
const recording: MetricV1 = {
  specVersion: "v1",
  id: "recording",
  compute(inputs) {
    if (predictions.length === 0) for (const x of inputs) predictions.push(x.prediction);
    return { scores: { n: inputs.length }, perSample: [] };
  },
};

const task: TaskSpec = {
  key: "yn/en",
  name: "yn",
  language: "en",
  competency: "knowledge",
  data: { id: "rows" },
  fewshot: 0,
  prompt: { id: "yes-no" },
  mode: "loglikelihood",
  endpoint: "completion",
  generation: { seed: 1, maxTokens: 8, stopAtFirst: "A:" },
  postprocessors: [],
  metrics: [{ id: "recording" }],
  mainScore: "n",
  errorResponses: "replace",
};

async function records(store: RunStore): Promise<ResponseRecord[]> {
  const out: ResponseRecord[] = [];
  for await (const r of store.readResponses()) out.push(r);
  return out;
}

describe("loglikelihood with a first pass", () => {
  it("generates up to the tag, scores after that text, records a failed first pass and retries it on resume", async () => {
    const sent: { prompt: string; echo: boolean }[] = [];
    let failQ2 = true;
    const server = await startDevServer({
      port: 0,
      policy: (req) => {
        const prompt = req.prompt ?? "";
        sent.push({ prompt, echo: req.body.echo === true });
        if (req.body.echo === true) return "yes";
        if (prompt.includes("grass") && failQ2) throw new Error("first pass broke");
        return prompt.includes("forever") ? "one two three four five six seven eight nine ten" : "Let me think. A: yes";
      },
    });
    // One attempt: the injected 500 is the row's error at once.
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`], maxAttempts: 1 });
    const registry = createRegistry({ dataloaders: { rows: loader }, promptBuilders: { "yes-no": options }, metrics: { recording } });
    const dir = join(mkdtempSync(join(tmpdir(), "ys-ll-first-")), "run");
    const manifest = createRunManifest({ tasks: [task], model: { provider: "p", modelId: "m", identity: "i" }, options: {} });
    try {
      const store = new RunStore(dir);
      await store.open(manifest);
      predictions.length = 0;
      await runEvaluation({ tasks: [task], registry, model, store, failFastAfter: 0 });
      await store.close();
      // q1: first pass + echo; q2: a failed first pass; q3: a first pass cut by max_tokens, no echo.
      expect(sent.filter((s) => s.echo).map((s) => s.prompt)).toEqual(["Q: Is the sky blue?\nLet me think. A: yes", "Q: Is the sky blue?\nLet me think. A: no"]);
      expect(sent.filter((s) => !s.echo).map((s) => s.prompt)).toEqual(expect.arrayContaining(["Q: Is the sky blue?\n", "Q: Is grass red?\n", "Q: Count forever.\n"]));
      const first = await records(new RunStore(dir));
      const byRow = (id: string) => first.filter((r) => r.sample === id).map((r) => [r.call ?? "", r.status]);
      expect(byRow("q1")).toEqual([["first-pass", "ok"], ["", "ok"]]);
      expect(byRow("q2")).toEqual([["first-pass", "error"], ["", "error"]]);
      expect(byRow("q3")).toEqual([["first-pass", "ok"], ["", "ok"]]);
      const q1 = first.find((r) => r.sample === "q1" && r.call === undefined)!;
      expect(q1.request).toMatchObject({ kind: "loglikelihood", context: "Q: Is the sky blue?\nLet me think. A:", continuations: [" yes", " no"] });
      expect(q1.choiceLogprobs).toHaveLength(2);
      // The metric gets q1's two logprobs, q2's error as "", and q3's empty answer.
      expect(predictions).toEqual([q1.choiceLogprobs, "", ""]);

      // Resume: only q2 is asked again (its first pass, then its echo request).
      failQ2 = false;
      sent.length = 0;
      const again = new RunStore(dir);
      await again.open(manifest);
      predictions.length = 0;
      const r2 = await runEvaluation({ tasks: [task], registry, model, store: again });
      await again.close();
      expect(r2.answering[0]?.fromStore).toBe(2);
      expect(sent.map((s) => [s.prompt, s.echo])).toEqual([
        ["Q: Is grass red?\n", false],
        ["Q: Is grass red?\nLet me think. A: yes", true],
        ["Q: Is grass red?\nLet me think. A: no", true],
      ]);
      expect((predictions[1] as number[]).length).toBe(2);
    } finally {
      await model.close();
      await server.close();
    }
  });
});
