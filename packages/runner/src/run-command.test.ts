import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

let server: DevServer;
let cacheDir: string;

beforeAll(async () => {
  server = await startDevServer({ port: 0, policy: (req) => toyAnswer(req.lastUserText) });
  cacheDir = mkdtempSync(join(tmpdir(), "yardstick-cache-"));
});
afterAll(async () => {
  await server.close();
});

const chatRequests = (): number => server.stats().requests["/v1/chat/completions"] ?? 0;

describe("yardstick run against the dev server", () => {
  it("writes the run store, prints the table, and a second run sends nothing", async () => {
    const tasks = makeSentimentTask(30);
    const out = join(tasks, "run");
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    const args = ["run", tasks, "--model", "openai-compatible:toy-model", "--base-url", `${server.url}/v1`, "--out", out];
    const before = chatRequests();
    expect(await main(args, io)).toBe(0);
    expect(chatRequests() - before).toBe(30);

    const manifest = JSON.parse(readFileSync(join(out, "run.json"), "utf8"));
    expect(manifest.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest.formatVersion).toBe(2);
    expect(manifest.models.generate).toMatchObject({ provider: "openai-compatible", modelId: "toy-model" });
    expect(manifest.tasks[0].key).toBe("toy/en");
    const lines = readFileSync(join(out, "responses.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(30);
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({ task: "toy/en", turn: 1, stage: "generate", status: "ok", cached: false, choices: [{ finishReason: "stop" }] });
    // The request as sent is stored with its answer.
    expect(first.request.kind).toBe("chat");
    expect(first.request.messages.at(-1).role).toBe("user");
    expect(readFileSync(join(out, "samples", "toy_en.jsonl"), "utf8").trim().split("\n")).toHaveLength(30);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    expect(results.en.nlu.toy.normalized_accuracy).toBe(100);
    expect(results.en.nlu.toy.n).toBe(30);
    expect(results.en.nlu.total).toBe(100);
    expect(results.total).toBe(100);
    expect(io.out()).toMatch(/toy\s+en\s+normalized_accuracy\s+100\.00\s+0\.00\s+\[100\.00, 100\.00\]\s+30\s+0/);
    // Every answer right: the headline interval is degenerate, on the headline's 0-100 scale.
    expect(results.en.nlu.toy).toMatchObject({ stderr: 0, ci: [100, 100], per_sample: { key: "correct", mean: 1 } });

    // Same command again: everything comes from the run store.
    const again = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    const sent = chatRequests();
    expect(await main(args, again)).toBe(0);
    expect(chatRequests()).toBe(sent);
    expect(again.err()).toContain("resuming");
  });

  it("answers a new run of the same requests from the shared cache, unless --no-cache", async () => {
    const tasks = makeSentimentTask(12);
    const env = { YARDSTICK_CACHE_DIR: cacheDir };
    const base = ["run", tasks, "--model", "openai-compatible:cache-model", "--base-url", `${server.url}/v1`, "--quiet"];
    const s0 = chatRequests();
    expect(await main([...base, "--out", join(tasks, "a")], captureIO(env))).toBe(0);
    expect(chatRequests() - s0).toBe(12);
    expect(await main([...base, "--out", join(tasks, "b")], captureIO(env))).toBe(0);
    expect(chatRequests() - s0).toBe(12);
    const cachedLines = readFileSync(join(tasks, "b", "responses.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(cachedLines.every((l) => l.cached === true)).toBe(true);
    expect(await main([...base, "--out", join(tasks, "c"), "--no-cache"], captureIO(env))).toBe(0);
    expect(chatRequests() - s0).toBe(24);
  });

  it("evaluates with the baselines without any server", async () => {
    const tasks = makeSentimentTask(40);
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", join(tasks, "maj"), "--quiet"], io)).toBe(0);
    const results = JSON.parse(readFileSync(join(tasks, "maj", "results.json"), "utf8"));
    // Always the same label: balanced accuracy 1/3, which normalizes to 0.
    expect(results.en.nlu.toy.accuracy).toBeCloseTo(100 / 3, 10);
    expect(results.en.nlu.toy.normalized_accuracy).toBe(0);
    const r1 = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main(["run", tasks, "--model", "baseline:random", "--seed", "7", "--out", join(tasks, "r1"), "--quiet"], r1)).toBe(0);
    const r2 = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main(["run", tasks, "--model", "baseline:random", "--seed", "7", "--out", join(tasks, "r2"), "--quiet", "--no-cache"], r2)).toBe(0);
    const preds = (dir: string) => readFileSync(join(tasks, dir, "scores", "toy_en.jsonl"), "utf8");
    expect(preds("r1")).toBe(preds("r2"));
  });

  it("refuses to mix a different run into an existing run store", async () => {
    const tasks = makeSentimentTask(6);
    const out = join(tasks, "run");
    const env = { YARDSTICK_CACHE_DIR: cacheDir };
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", out, "--quiet"], captureIO(env))).toBe(0);
    const io = captureIO(env);
    expect(await main(["run", tasks, "--model", "baseline:random", "--out", out, "--quiet"], io)).toBe(1);
    expect(io.err()).toMatch(/already holds a different run/);
    // What differs, so the user knows which setting to put back.
    expect(io.err()).toContain("the model (baseline:majority:majority → baseline:random:random:seed=1234)");
    expect(io.err()).not.toMatch(/\n\s+at /);
    const tokens = captureIO(env);
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", out, "--quiet", "--max-tokens", "7"], tokens)).toBe(1);
    expect(tokens.err()).toMatch(/toy\/en: generation\.maxTokens \S+ → 7/);
  });

  it("respects --limit, --tasks and --langs", async () => {
    const tasks = makeSentimentTask(25);
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    const out = join(tasks, "lim");
    expect(await main(["run", tasks, "--model", "baseline:majority", "--limit", "5", "--tasks", "toy", "--langs", "en", "--out", out, "--quiet"], io)).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "results.json"), "utf8")).en.nlu.toy.n).toBe(5);
    const none = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main(["run", tasks, "--model", "baseline:majority", "--langs", "th", "--quiet"], none)).toBe(1);
    expect(none.err()).toMatch(/no task matches --langs th; tasks: toy; languages: en/);
  });

  it("records failed requests as errors, scores them as empty answers, and retries them on the next run", async () => {
    const flaky = await startDevServer({ port: 0, policy: (req) => toyAnswer(req.lastUserText), faults: { rate500: 1 } });
    try {
      const tasks = makeSentimentTask(4);
      const out = join(tasks, "run");
      const env = { YARDSTICK_CACHE_DIR: cacheDir };
      const args = ["run", tasks, "--model", "openai-compatible:flaky", "--base-url", `${flaky.url}/v1`, "--out", out, "--max-attempts", "2", "--quiet"];
      const io = captureIO(env);
      expect(await main(args, io)).toBe(1);
      expect(io.err()).toMatch(/4 request\(s\) failed for good/);
      const records = readFileSync(join(out, "responses.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(records).toHaveLength(4);
      expect(records[0].error).toMatchObject({ status: 500, kind: "api" });
      const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
      expect(results.en.nlu.toy.errors).toBe(4);
      expect(results.en.nlu.toy.null_count).toBe(4);

      // The same run against a healthy server (same model identity) retries only the failed ones.
      const healthy = ["run", tasks, "--model", "openai-compatible:flaky", "--base-url", `${server.url}/v1`, "--out", out, "--quiet"];
      const s0 = chatRequests();
      expect(await main(healthy, captureIO(env))).toBe(0);
      expect(chatRequests() - s0).toBe(4);
      expect(JSON.parse(readFileSync(join(out, "results.json"), "utf8")).en.nlu.toy.normalized_accuracy).toBe(100);
    } finally {
      await flaky.close();
    }
  });

  it("keeps per-sample scores that yardstick compare can pair", async () => {
    const tasks = makeSentimentTask(20);
    const env = { YARDSTICK_CACHE_DIR: cacheDir };
    const a = join(tasks, "a");
    const b = join(tasks, "b");
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", a, "--quiet"], captureIO(env))).toBe(0);
    expect(await main(["run", tasks, "--model", "openai-compatible:toy-model", "--base-url", `${server.url}/v1`, "--out", b, "--quiet"], captureIO(env))).toBe(0);
    const io = captureIO(env);
    expect(await main(["compare", a, b, "--json"], io)).toBe(0);
    const report = JSON.parse(io.out());
    expect(report.rows[0]).toMatchObject({ task: "toy/en", n: 20, test: "mcnemar" });
    expect(report.rows[0].meanB).toBe(1);
    expect(existsSync(join(b, "scores"))).toBe(true);
    expect(readdirSync(join(b, "scores"))).toEqual(["toy_en.jsonl"]);
  });
});
