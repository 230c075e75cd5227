/**
 * SEA-HELM logprob twins end to end through `yardstick run` against the dev server: the corpus's
 * sentiment-logprobs (LogProbMetric) and mp-r-logprobs (MinimalPairsLogProbMetric) configs with data
 * written for the tests (__fixtures__/seahelm_logprobs). Each row is one echo request on
 * /v1/completions scoring " " + the gold label after the prompt and the answer tag; the scores are
 * checked against probabilities computed by hand from the dev server's deterministic logprobs. A
 * server that does not echo logprobs stops the run at its first request with a message saying so.
 */
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DevServer, startDevServer, tokenLogprob } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const FIXTURE = join(import.meta.dirname, "__fixtures__", "seahelm_logprobs");

/** Words the served model finds likely: every other token gets a logprob in [-10, -2). */
const LIKELY = "Positif A";

const SENTIMENT = [
  { id: "s1", label: "Positif" },
  { id: "s2", label: "Negatif" },
  { id: "s3", label: "Netral" },
  { id: "s4", label: "Positif" },
];
const MP_R = [
  { id: "m1", label: "A", phenomenon: "word_order" },
  { id: "m2", label: "B", phenomenon: "argument_structure" },
  { id: "m3", label: "A", phenomenon: "word_order" },
];

/**
 * By hand: the context ends with the answer tag's ":", and the continuation " <label>" is one dev
 * server token after it, likely when the label is one of LIKELY's words.
 */
function probability(label: string): number {
  const likely = LIKELY.toLowerCase().split(" ").includes(label.toLowerCase());
  return 100 * Math.exp(tokenLogprob(":", ` ${label}`, likely));
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

const scoreLine = z.object({ sample: z.string(), scores: z.record(z.string(), z.number().nullable()) });
const readScores = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => scoreLine.parse(JSON.parse(l)));

let server: DevServer;
const prompts: { prompt: string; body: Record<string, unknown> }[] = [];
let tasks: string;

beforeAll(async () => {
  server = await startDevServer({
    port: 0,
    models: ["lp-model"],
    policy: (req) => {
      prompts.push({ prompt: req.prompt ?? "", body: req.body });
      return LIKELY;
    },
  });
  tasks = mkdtempSync(join(tmpdir(), "yardstick-seahelm-logprobs-"));
  cpSync(FIXTURE, tasks, { recursive: true });
});
afterAll(async () => {
  await server.close();
});

describe("yardstick run on SEA-HELM logprob tasks", () => {
  it("scores the gold label's probability after the answer tag, one echo request per row", async () => {
    const out = join(tasks, "run");
    const io = captureIO({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });
    const args = ["run", tasks, "--tasks", "sentiment-logprobs,mp-r-logprobs", "--model", "openai-compatible:lp-model"];
    const code = await main([...args, "--base-url", `${server.url}/v1`, "--out", out, "--quiet"], io);
    expect(io.err()).toBe("");
    expect(code).toBe(0);

    // Nothing generated: one echoed prompt per row, on the completions endpoint only.
    const requests = server.stats().requests;
    expect(requests["/v1/chat/completions"] ?? 0).toBe(0);
    expect(requests["/v1/completions"]).toBe(SENTIMENT.length + MP_R.length);
    expect(prompts.every((p) => p.body.echo === true && p.body.max_tokens === 0)).toBe(true);
    // The prompt is the conversation as base-model text, the answer tag, then " " + the gold label.
    expect(prompts.map((p) => p.prompt)).toContain(
      "Apa sentimen dari kalimat berikut ini? Gunakan salah satu dari pilihan di bawah ini: Positif, Negatif, atau Netral.\n\n" +
        'Jawablah hanya dengan menggunakan format berikut ini:\n"Jawaban: ANSWER"\nGanti ANSWER dengan jawaban yang telah dipilih.\n\n' +
        "Kalimat:\n```\nMakanannya dingin dan hambar.\n```\n\nJawaban: Negatif",
    );

    const sentimentProbs = SENTIMENT.map((r) => probability(r.label));
    const sentiment = readScores(join(out, "scores", "sentiment-logprobs_id.jsonl"));
    expect(sentiment.map((s) => s.sample)).toEqual(SENTIMENT.map((r) => r.id));
    sentiment.forEach((s, i) => {
      expect(s.scores.probabilities_accuracy).toBeCloseTo(sentimentProbs[i]!, 9);
    });
    // The likely label is far more probable than the others: the data exercises both kinds.
    expect(sentimentProbs[0]!).toBeGreaterThan(50);
    expect(sentimentProbs[1]!).toBeLessThan(15);

    const mprProbs = MP_R.map((r) => probability(r.label));
    const mpr = readScores(join(out, "scores", "mp-r-logprobs_id.jsonl"));
    mpr.forEach((s, i) => {
      expect(s.scores.probabilities_accuracy).toBeCloseTo(mprProbs[i]!, 9);
    });

    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    const sentimentResult = results.id.nlu["sentiment-logprobs"];
    expect(sentimentResult.average_cumulative_probabilities).toBeCloseTo(mean(sentimentProbs), 9);
    expect(sentimentResult.null_count).toBe(0);
    const mprResult = results.id["linguistic-diagnostics"]["mp-r-logprobs"];
    expect(mprResult.average_cumulative_probabilities).toBeCloseTo(mean(mprProbs), 9);
    const { subcategories } = mprResult["seahelm-minimal-pairs-logprob.details"];
    expect(Object.keys(subcategories)).toEqual(["word_order", "argument_structure"]);
    expect(subcategories.word_order.average_cumulative_probabilities).toBeCloseTo(mean([mprProbs[0]!, mprProbs[2]!]), 9);
    expect(subcategories.argument_structure.average_cumulative_probabilities).toBeCloseTo(mprProbs[1]!, 9);
  });

  it("a server without echoed logprobs stops the run at its first request, saying so", async () => {
    let completions = 0;
    const plain = createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url?.endsWith("/models")) {
        res.end(JSON.stringify({ object: "list", data: [{ id: "lp-model", object: "model" }] }));
        return;
      }
      completions++;
      // A server that ignores echo: the generated text, no prompt logprobs.
      res.end(JSON.stringify({ choices: [{ index: 0, text: "x", logprobs: null, finish_reason: "length" }] }));
    });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/v1`;
      const io = captureIO({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });
      const args = ["run", tasks, "--tasks", "sentiment-logprobs", "--model", "openai-compatible:lp-model", "--base-url", url];
      const code = await main([...args, "--out", join(tasks, "run-no-echo"), "--quiet", "--concurrency", "1"], io);
      expect(code).toBe(1);
      expect(io.err()).toMatch(/returned no usable echoed logprobs for the continuation \(does the server support echo with logprobs on \/completions\?\)/);
      expect(io.err()).not.toMatch(/\n\s+at /);
      expect(completions).toBe(1);
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});
