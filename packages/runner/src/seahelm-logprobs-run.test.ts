/**
 * SEA-HELM logprob twins end to end through `yardstick run` against the dev server: the corpus's
 * sentiment-logprobs (LogProbMetric) and mp-r-logprobs (MinimalPairsLogProbMetric) configs with data
 * written for the tests (__fixtures__/seahelm_logprobs).
 *
 * By default each row is answered as upstream's LogprobsInferenceStrategy: a first pass generates from
 * the prompt up to the answer tag (the served model reasons a little first), then one echo request
 * on /v1/completions scores " " + the gold label after the prompt and that text; a row whose first
 * pass never writes the tag scores null (probability 0, counted in null_count). With the task's
 * `yardstick.logprobFirstPass: false` the tag is written straight after the prompt: one echo request
 * per row. Scores are checked against probabilities computed by hand from the dev server's
 * deterministic logprobs. A server that does not echo logprobs stops the run at its first echo request.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRun } from "@yardstick/report";
import { type DevServer, startDevServer, tokenLogprob } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";
import { promptsCommand } from "./prompts-command.js";

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

/** The served model's first pass: a little reasoning, then the answer tag and a label (the stop string cuts there). */
const REASONING = "Saya baca kalimatnya dulu.";
/** Row s3's sentence: the served model rambles past max_tokens (32) without the tag. */
const RAMBLING_ROW = "Toko itu buka jam sembilan.";
const RAMBLE = Array.from({ length: 40 }, () => "hmm").join(" ");

let server: DevServer;
const prompts: { prompt: string; body: Record<string, unknown> }[] = [];
let tasks: string;
/** The same configs with `yardstick.logprobFirstPass: false` on both logprob tasks. */
let tasksNoFirstPass: string;

beforeAll(async () => {
  server = await startDevServer({
    port: 0,
    models: ["lp-model"],
    policy: (req) => {
      prompts.push({ prompt: req.prompt ?? "", body: req.body });
      if (req.body.echo === true) return LIKELY;
      return (req.prompt ?? "").includes(RAMBLING_ROW) ? RAMBLE : `${REASONING} Jawaban: Positif`;
    },
  });
  tasks = mkdtempSync(join(tmpdir(), "yardstick-seahelm-logprobs-"));
  cpSync(FIXTURE, tasks, { recursive: true });
  tasksNoFirstPass = mkdtempSync(join(tmpdir(), "yardstick-seahelm-logprobs-one-pass-"));
  cpSync(FIXTURE, tasksNoFirstPass, { recursive: true });
  // Both logprob twins are the last task of their file.
  for (const file of ["nlu/sentiment_analysis/config.yaml", "lindsea/syntax/config.yaml"]) {
    appendFileSync(join(tasksNoFirstPass, file), "\n  yardstick:\n    logprobFirstPass: false\n");
  }
});
afterAll(async () => {
  await server.close();
});

const SENTIMENT_PROMPT =
  "Apa sentimen dari kalimat berikut ini? Gunakan salah satu dari pilihan di bawah ini: Positif, Negatif, atau Netral.\n\n" +
  'Jawablah hanya dengan menggunakan format berikut ini:\n"Jawaban: ANSWER"\nGanti ANSWER dengan jawaban yang telah dipilih.\n\n' +
  "Kalimat:\n```\nMakanannya dingin dan hambar.\n```";

describe("yardstick run on SEA-HELM logprob tasks", () => {
  it("by default generates up to the answer tag first, then scores the gold label after that text; a row without the tag scores null", async () => {
    prompts.length = 0;
    server.resetStats();
    const out = join(tasks, "run");
    const cacheDir = mkdtempSync(join(tmpdir(), "yardstick-cache-"));
    const args = ["run", tasks, "--tasks", "sentiment-logprobs,mp-r-logprobs", "--model", "openai-compatible:lp-model", "--base-url", `${server.url}/v1`];
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main([...args, "--out", out, "--quiet"], io)).toBe(0);
    expect(io.err()).toBe("");

    // One first pass per row; an echo request for each row whose first pass reached the tag (not s3).
    const firstPasses = prompts.filter((p) => p.body.echo !== true);
    const echoes = prompts.filter((p) => p.body.echo === true);
    expect(firstPasses).toHaveLength(SENTIMENT.length + MP_R.length);
    expect(echoes).toHaveLength(SENTIMENT.length - 1 + MP_R.length);
    expect(server.stats().requests["/v1/completions"]).toBe(firstPasses.length + echoes.length);
    // The first pass: the same prompt without the tag, the task's max_tokens, stopping at the tag and keeping it.
    const sentimentFirst = firstPasses.find((p) => p.prompt.includes("Makanannya"))!;
    expect(sentimentFirst.prompt).toBe(`${SENTIMENT_PROMPT}\n\n`);
    expect(sentimentFirst.body).toMatchObject({ stop: ["Jawaban:"], max_tokens: 32, include_stop_str_in_output: true, seed: 1234 });
    expect(firstPasses.find((p) => p.prompt.includes("Dia sudah makan"))!.body.max_tokens).toBe(128);
    // The echo request: the prompt, the generated text through the tag (put back: the dev server drops
    // stop strings), then " " + the gold label.
    expect(echoes.map((p) => p.prompt)).toContain(`${SENTIMENT_PROMPT}\n\n${REASONING} Jawaban: Negatif`);
    expect(echoes.every((p) => p.body.max_tokens === 0)).toBe(true);
    expect(echoes.some((p) => p.prompt.includes(RAMBLING_ROW))).toBe(false);

    // By hand: the label still follows the tag's ":"; s3 is null (0, counted in null_count).
    const sentimentProbs = SENTIMENT.map((r) => (r.id === "s3" ? 0 : probability(r.label)));
    const sentiment = readScores(join(out, "scores", "sentiment-logprobs_id.jsonl"));
    sentiment.forEach((s, i) => {
      expect(s.scores.probabilities_accuracy).toBeCloseTo(sentimentProbs[i]!, 9);
    });
    expect(sentimentProbs[0]!).toBeGreaterThan(50);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    const sentimentResult = results.id.nlu["sentiment-logprobs"];
    expect(sentimentResult.null_count).toBe(1);
    expect(sentimentResult.average_cumulative_probabilities).toBeCloseTo(mean(sentimentProbs), 9);
    // Upstream's log-prob mean leaves the null out.
    const valid = SENTIMENT.filter((r) => r.id !== "s3").map((r) => Math.log(probability(r.label) / 100));
    expect(sentimentResult.average_cumulative_logprobs).toBeCloseTo(mean(valid), 9);
    const mprProbs = MP_R.map((r) => probability(r.label));
    expect(results.id["linguistic-diagnostics"]["mp-r-logprobs"].average_cumulative_probabilities).toBeCloseTo(mean(mprProbs), 9);

    // The run store keeps both passes: the first pass's text (call "first-pass") and the row's echo request.
    const records = readFileSync(join(out, "responses.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const s2 = records.filter((r) => r.task === "sentiment-logprobs/id" && r.sample === "s2");
    expect(s2.map((r) => r.call ?? "")).toEqual(["first-pass", ""]);
    expect(s2[0].choices[0]).toMatchObject({ text: `${REASONING} `, finishReason: "stop" });
    expect(s2[1].request.context).toBe(`${SENTIMENT_PROMPT}\n\n${REASONING} Jawaban:`);
    const s3 = records.filter((r) => r.task === "sentiment-logprobs/id" && r.sample === "s3");
    expect(s3.map((r) => [r.call ?? "", r.choices[0].finishReason])).toEqual([["first-pass", "length"], ["", "length"]]);

    // The report shows each row's echo request and answer, and counts a row once (its first pass's tokens too).
    const report = await readRun(out, { task: "sentiment-logprobs/id" });
    const stats = report.stats.get("sentiment-logprobs/id")!;
    expect([stats.answered, stats.errors]).toEqual([SENTIMENT.length, 0]);
    const firstPassTokens = records.filter((r) => r.task === "sentiment-logprobs/id" && r.call === "first-pass").reduce((n, r) => n + r.usage.completionTokens, 0);
    expect(stats.completionTokens).toBe(firstPassTokens);
    const reported = report.samples.find((x) => x.id === "s2")!;
    expect(reported.request).toMatchObject({ kind: "loglikelihood", context: `${SENTIMENT_PROMPT}\n\n${REASONING} Jawaban:` });
    expect(reported.response).toMatch(/^log-probabilities: -\d/);

    // Resume: the same run again sends nothing and appends nothing.
    server.resetStats();
    const before = readFileSync(join(out, "responses.jsonl"), "utf8");
    expect(await main([...args, "--out", out, "--quiet"], captureIO({ YARDSTICK_CACHE_DIR: cacheDir }))).toBe(0);
    expect(server.stats().requests["/v1/completions"] ?? 0).toBe(0);
    expect(readFileSync(join(out, "responses.jsonl"), "utf8")).toBe(before);

    // The cache answers both passes of a new run, with the same scores.
    const again = join(tasks, "run-cached");
    expect(await main([...args, "--out", again, "--quiet"], captureIO({ YARDSTICK_CACHE_DIR: cacheDir }))).toBe(0);
    expect(server.stats().requests["/v1/completions"] ?? 0).toBe(0);
    expect(readScores(join(again, "scores", "sentiment-logprobs_id.jsonl"))).toEqual(sentiment);

    // `yardstick prompts` prints the first pass of each row, and with --from the echo request after it.
    const previewArgs = [tasks, "--tasks", "sentiment-logprobs", "--limit", "3"];
    const alone = captureIO({});
    expect(await promptsCommand(previewArgs, alone)).toBe(0);
    const printed = alone.out().trim().split("\n").map((l) => JSON.parse(l));
    expect(printed.map((p) => [p.sample, p.call])).toEqual([["s1", "first-pass"], ["s2", "first-pass"], ["s3", "first-pass"]]);
    expect(printed[1].request).toMatchObject({ kind: "completion", prompt: `${SENTIMENT_PROMPT}\n\n`, params: { stop: ["Jawaban:"] } });
    expect(alone.err()).toMatch(/the echo request of 3 sample\(s\) not printed: .*--from/);
    const fromRun = captureIO({});
    expect(await promptsCommand([...previewArgs, "--from", out], fromRun)).toBe(0);
    const both = fromRun.out().trim().split("\n").map((l) => JSON.parse(l));
    expect(both.map((p) => [p.sample, p.call ?? ""])).toEqual([["s1", "first-pass"], ["s1", ""], ["s2", "first-pass"], ["s2", ""], ["s3", "first-pass"]]);
    expect(both[3].request).toEqual({ kind: "loglikelihood", context: `${SENTIMENT_PROMPT}\n\n${REASONING} Jawaban:`, continuations: [" Negatif"] });
    expect(fromRun.err()).toMatch(/the echo request of 1 sample\(s\) not printed: the first pass never reached the answer tag/);
  });

  it("with logprobFirstPass: false, scores the gold label's probability after the answer tag, one echo request per row", async () => {
    prompts.length = 0;
    server.resetStats();
    const out = join(tasksNoFirstPass, "run");
    const io = captureIO({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });
    const args = ["run", tasks, "--tasks", "sentiment-logprobs,mp-r-logprobs", "--model", "openai-compatible:lp-model"];
    const code = await main([...args.map((x) => (x === tasks ? tasksNoFirstPass : x)), "--base-url", `${server.url}/v1`, "--out", out, "--quiet"], io);
    expect(io.err()).toBe("");
    expect(code).toBe(0);

    // Nothing generated: one echoed prompt per row, on the completions endpoint only.
    const requests = server.stats().requests;
    expect(requests["/v1/chat/completions"] ?? 0).toBe(0);
    expect(requests["/v1/completions"]).toBe(SENTIMENT.length + MP_R.length);
    expect(prompts.every((p) => p.body.echo === true && p.body.max_tokens === 0)).toBe(true);
    // The prompt is the conversation as base-model text, the answer tag, then " " + the gold label.
    expect(prompts.map((p) => p.prompt)).toContain(`${SENTIMENT_PROMPT}\n\nJawaban: Negatif`);

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

  it("a server without echoed logprobs stops the run at its first echo request, saying so", async () => {
    let completions = 0;
    let echoes = 0;
    const plain = createServer(async (req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.url?.endsWith("/models")) {
        res.end(JSON.stringify({ object: "list", data: [{ id: "lp-model", object: "model" }] }));
        return;
      }
      completions++;
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      await new Promise((resolve) => req.on("end", resolve));
      if (body.includes('"echo":true')) echoes++;
      // A server that ignores echo: the generated text (the first pass reaches the tag), no prompt logprobs.
      res.end(JSON.stringify({ choices: [{ index: 0, text: "Jawaban:", logprobs: null, finish_reason: "stop" }] }));
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
      // The first row's first pass, then its echo request (the second worker's first pass may be under way).
      expect(echoes).toBe(1);
      expect(completions).toBeLessThanOrEqual(3);
    } finally {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});
