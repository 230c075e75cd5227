import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// The run as stages over one run store: deterministic scores whatever the arrival order, shards
// that merge into the unsharded run, and re-scoring that sends nothing.

let server: DevServer;
let cacheDir: string;
let tasks: string;

/** Wrong on every fifth sample, across labels (so the interval is not degenerate). */
function imperfect(lastUserText: string): string {
  const i = Number(/sentence number (\d+)/.exec(lastUserText)?.[1] ?? 0);
  return i % 5 === 1 ? "Answer: Neutral" : toyAnswer(lastUserText);
}

beforeAll(async () => {
  // Seeded latency up to 25 ms with 16 requests in flight: answers arrive out of dataset order.
  server = await startDevServer({ port: 0, policy: (req) => imperfect(req.lastUserText), latencyMs: { min: 0, max: 25 }, seed: 11 });
  cacheDir = mkdtempSync(join(tmpdir(), "yardstick-cache-"));
  tasks = makeSentimentTask(90);
});
afterAll(async () => {
  await server.close();
});

const sent = (): number => server.stats().requests["/v1/chat/completions"] ?? 0;
const env = (): NodeJS.ProcessEnv => ({ YARDSTICK_CACHE_DIR: cacheDir });
const runArgs = (out: string, ...more: string[]): string[] => [
  "run",
  tasks,
  "--model",
  "openai-compatible:stage-model",
  "--base-url",
  `${server.url}/v1`,
  "--concurrency",
  "16",
  "--out",
  out,
  "--quiet",
  ...more,
];

/**
 * sha256 of results.json and every scores/ file of a store, by name. results.json without its
 * per-task `retries`: they count the store's run history (a timeout on a loaded machine adds one), not its answers.
 */
function derivedDigests(dir: string): Record<string, string> {
  const digest = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");
  const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
  for (const t of Object.values(results.meta.tasks as Record<string, { retries?: number }>)) delete t.retries;
  const out: Record<string, string> = { "results.json": createHash("sha256").update(JSON.stringify(results)).digest("hex") };
  for (const f of readdirSync(join(dir, "scores")).sort()) out[`scores/${f}`] = digest(join(dir, "scores", f));
  return out;
}

const sampleOrder = (dir: string): string[] =>
  readFileSync(join(dir, "responses.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).sample as string);

describe("deterministic scores", () => {
  it("gives byte-identical scores/ and results.json for a shuffled run and its fully cached re-run", async () => {
    const a = join(tasks, "a");
    const b = join(tasks, "b");
    const s0 = sent();
    expect(await main(runArgs(a), captureIO(env()))).toBe(0);
    expect(sent() - s0).toBe(90);
    // The answers really arrived out of dataset order.
    const order = sampleOrder(a);
    expect(order).not.toEqual([...order].sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))));

    expect(await main(runArgs(b, "--concurrency", "1"), captureIO(env()))).toBe(0);
    expect(sent() - s0).toBe(90); // every answer of b came from the cache
    expect(derivedDigests(b)).toEqual(derivedDigests(a));
    const results = JSON.parse(readFileSync(join(a, "results.json"), "utf8"));
    expect(results.formatVersion).toBe(2);
    expect(results.en.nlu.toy.stderr).toBeGreaterThan(0);
  });
});

describe("shards and merge", () => {
  it("merges --shard 1/2 and 2/2 into the unsharded run's scores", async () => {
    const whole = join(tasks, "whole");
    const s1 = join(tasks, "s1");
    const s2 = join(tasks, "s2");
    const merged = join(tasks, "merged");
    expect(await main(runArgs(whole), captureIO(env()))).toBe(0);
    expect(await main(runArgs(s1, "--shard", "1/2"), captureIO(env()))).toBe(0);
    expect(await main(runArgs(s2, "--shard", "2/2"), captureIO(env()))).toBe(0);
    const one = new Set(sampleOrder(s1));
    const two = new Set(sampleOrder(s2));
    expect(one.size + two.size).toBe(90);
    expect([...one].some((s) => two.has(s))).toBe(false);
    expect(one.size).toBeGreaterThan(20); // both halves hold a real share

    const io = captureIO(env());
    expect(await main(["merge", s1, s2, "--out", merged, "--quiet"], io)).toBe(0);
    expect(derivedDigests(merged)).toEqual(derivedDigests(whole));
    expect(JSON.parse(readFileSync(join(merged, "run.json"), "utf8")).shard).toBeUndefined();
    // The shards' sessions come along, each with its shard: together they sent what the whole run sent.
    const stats = JSON.parse(readFileSync(join(merged, "run-stats.json"), "utf8"));
    expect(stats.sessions.map((s: { shard: unknown }) => s.shard)).toEqual([
      { index: 1, count: 2 },
      { index: 2, count: 2 },
    ]);
    const sent = (dir: string) => JSON.parse(readFileSync(join(dir, "run-stats.json"), "utf8")).sessions.reduce((n: number, s: { requests: number; cacheHits: number }) => n + s.requests + s.cacheHits, 0);
    expect(sent(merged)).toBe(sent(whole));
    expect(sent(merged)).toBe(90);
  });

  it("refuses a missing shard, a repeated one, and a shard of another run, naming them", async () => {
    const s1 = join(tasks, "r1");
    const s2 = join(tasks, "r2");
    const other = join(tasks, "other-2");
    expect(await main(runArgs(s1, "--shard", "1/2"), captureIO(env()))).toBe(0);
    expect(await main(runArgs(s2, "--shard", "2/2"), captureIO(env()))).toBe(0);
    expect(await main(runArgs(other, "--shard", "2/2", "--limit", "40"), captureIO(env()))).toBe(0);

    const missing = captureIO(env());
    expect(await main(["merge", s1, "--out", join(tasks, "m1")], missing)).toBe(1);
    expect(missing.err()).toMatch(/shard 2\/2 of this run is missing/);
    const twice = captureIO(env());
    expect(await main(["merge", s1, s1, "--out", join(tasks, "m2")], twice)).toBe(1);
    expect(twice.err()).toMatch(/shard 1\/2 is given twice/);
    const mixed = captureIO(env());
    expect(await main(["merge", s1, other, "--out", join(tasks, "m3")], mixed)).toBe(1);
    expect(mixed.err()).toMatch(/is a shard of another run/);
    expect(mixed.err()).toContain("option limit null → 40");
    expect(mixed.err()).toContain(other);
    expect(mixed.err()).not.toMatch(/\n\s+at /); // no stack trace
    for (const m of ["m1", "m2", "m3"]) expect(existsSync(join(tasks, m, "run.json"))).toBe(false);
  });
});

describe("merging shards that did not finish", () => {
  it("refuses a stopped or killed shard, naming it and what to do; --partial merges what the shards hold and says what is missing", async () => {
    const s1 = join(tasks, "p1");
    const s2 = join(tasks, "p2");
    expect(await main(runArgs(s1, "--shard", "1/2"), captureIO(env()))).toBe(0);
    expect(await main(runArgs(s2, "--shard", "2/2"), captureIO(env()))).toBe(0);
    // Shard 2 as a Ctrl-C leaves it: its session says it was stopped, and its last answers are missing.
    const statsPath = join(s2, "run-stats.json");
    const stats = JSON.parse(readFileSync(statsPath, "utf8"));
    stats.sessions.at(-1).aborted = true;
    writeFileSync(statsPath, JSON.stringify(stats));
    const responses = readFileSync(join(s2, "responses.jsonl"), "utf8").trim().split("\n");
    writeFileSync(join(s2, "responses.jsonl"), `${responses.slice(0, -5).join("\n")}\n`);
    rmSync(join(s2, "results.json"));

    const stopped = captureIO(env());
    expect(await main(["merge", s1, s2, "--out", join(tasks, "pm1")], stopped)).toBe(1);
    expect(stopped.err()).toContain(`${s2}: shard 2/2 did not finish: its last run was stopped; run its command again to finish it`);
    expect(existsSync(join(tasks, "pm1", "run.json"))).toBe(false);

    // As kill -9 leaves it: no session was recorded at all.
    rmSync(statsPath);
    const killed = captureIO(env());
    expect(await main(["merge", s1, s2, "--out", join(tasks, "pm2")], killed)).toBe(1);
    expect(killed.err()).toContain("shard 2/2 did not finish: no run of it has finished (killed, or still running)");

    const partial = captureIO(env());
    expect(await main(["merge", s1, s2, "--out", join(tasks, "pm3"), "--partial"], partial)).toBe(0);
    expect(partial.err()).toContain(`warning: ${s2} did not finish`);
    expect(partial.err()).toContain("5 sample(s) of the merged store have no final answer");
    const results = JSON.parse(readFileSync(join(tasks, "pm3", "results.json"), "utf8"));
    expect(Object.values(results.meta.tasks as Record<string, { unanswered: number }>).reduce((n, t) => n + t.unanswered, 0)).toBe(5);
  });
});

describe("score-run", () => {
  it("re-scores a stored run without sending a request, with its own or an added metric", async () => {
    const dir = join(tasks, "rescore");
    expect(await main(runArgs(dir), captureIO(env()))).toBe(0);
    const before = derivedDigests(dir);
    const s0 = sent();
    const stats0 = JSON.stringify(server.stats().requests);

    expect(await main(["score-run", dir, "--quiet"], captureIO(env()))).toBe(0);
    expect(derivedDigests(dir)).toEqual(before);

    const io = captureIO(env());
    expect(await main(["score-run", dir, "--add-metric", "exact-match", "--json"], io)).toBe(0);
    const written = JSON.parse(io.out());
    expect(written.en.nlu.toy.normalized_accuracy).toBeDefined();
    expect(written.en.nlu.toy["exact_match"] ?? written.en.nlu.toy["exact-match.exact_match"]).toBeDefined();
    expect(sent()).toBe(s0);
    expect(JSON.stringify(server.stats().requests)).toBe(stats0);
  });

  it("refuses an unknown metric and a store from a newer yardstick, changing nothing", async () => {
    const dir = join(tasks, "rescore-bad");
    expect(await main(runArgs(dir), captureIO(env()))).toBe(0);
    const before = derivedDigests(dir);
    const unknown = captureIO(env());
    expect(await main(["score-run", dir, "--metric", "no-such-metric"], unknown)).toBe(1);
    expect(unknown.err()).toContain('--metric no-such-metric: this run needs the metric "no-such-metric", which is not installed');
    expect(derivedDigests(dir)).toEqual(before);
    // Blamed on the flag that named it, not on the task's config file (which never mentions it).
    const added = captureIO(env());
    expect(await main(["score-run", dir, "--add-metric", "no-such-metric"], added)).toBe(1);
    expect(added.err()).toMatch(/^error: --add-metric no-such-metric: /);
    expect(added.err()).not.toContain("config");
    const options = captureIO(env());
    expect(await main(["score-run", dir, "--metric", "chrf", "--metric-options", '{"bogus":1}'], options)).toBe(1);
    expect(options.err()).toContain("--metric chrf: the metric refuses the options of --metric-options:");
    expect(options.err()).toContain("bogus");
    expect(derivedDigests(dir)).toEqual(before);

    // A run writing this store (this test's own live pid holds the lock): scoring beside it is refused.
    writeFileSync(join(dir, "run.lock"), JSON.stringify({ pid: process.pid, host: hostname(), since: "2026-01-01T00:00:00Z" }));
    const busy = captureIO(env());
    expect(await main(["score-run", dir, "--add-metric", "exact-match"], busy)).toBe(1);
    expect(busy.err()).toContain(`another yardstick run is writing to this run store (pid ${process.pid} on ${hostname()}`);
    expect(derivedDigests(dir)).toEqual(before);
    rmSync(join(dir, "run.lock"));

    const manifestPath = join(dir, "run.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, formatVersion: 99 }));
    const newer = captureIO(env());
    expect(await main(["score-run", dir], newer)).toBe(1);
    expect(newer.err()).toMatch(/newer yardstick \(run-store format 99/);
    expect(newer.err()).toContain(manifestPath);
    expect(derivedDigests(dir)).toEqual(before);
  });
});

describe("model identity", () => {
  it("never shares cached answers between two servers serving different checkpoints under one name", async () => {
    // Both list the model under the same name, as two vLLM servers with --served-model-name would.
    const first = await startDevServer({ port: 0, policy: { fixed: "Answer: Positive" }, models: ["same-name"] });
    const second = await startDevServer({ port: 0, policy: { fixed: "Answer: Negative" }, models: ["same-name"] });
    try {
      const small = makeSentimentTask(6);
      const cache = mkdtempSync(join(tmpdir(), "yardstick-cache-"));
      const args = (url: string, out: string, ...more: string[]) =>
        ["run", small, "--model", "openai-compatible:same-name", "--base-url", `${url}/v1`, "--out", join(small, out), "--quiet", ...more];
      const count = (s: DevServer) => s.stats().requests["/v1/chat/completions"] ?? 0;
      expect(await main(args(first.url, "one"), captureIO({ YARDSTICK_CACHE_DIR: cache }))).toBe(0);
      expect(await main(args(second.url, "two"), captureIO({ YARDSTICK_CACHE_DIR: cache }))).toBe(0);
      expect(count(first)).toBe(6);
      expect(count(second)).toBe(6); // not answered from the first server's cache
      const texts = (out: string): string[] =>
        readFileSync(join(small, out, "responses.jsonl"), "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l).choices[0].text);
      expect(new Set(texts("two"))).toEqual(new Set(["Answer: Negative"]));
      const manifest = JSON.parse(readFileSync(join(small, "two", "run.json"), "utf8"));
      expect(manifest.models.generate.served.root).toBeDefined();

      // Same server, same name, a --model-revision: a different model for the cache as well.
      expect(await main(args(first.url, "three", "--model-revision", "step-2000"), captureIO({ YARDSTICK_CACHE_DIR: cache }))).toBe(0);
      expect(count(first)).toBe(12);
      // And the first run again into a new folder: all from the cache.
      expect(await main(args(first.url, "four"), captureIO({ YARDSTICK_CACHE_DIR: cache }))).toBe(0);
      expect(count(first)).toBe(12);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("resume keeps a stored answer only for the same request", () => {
  it("asks again when run.json was deleted and the request changed (another temperature)", async () => {
    const small = makeSentimentTask(5);
    const out = join(small, "run");
    const cache = mkdtempSync(join(tmpdir(), "yardstick-cache-"));
    const args = (...more: string[]) => ["run", small, "--model", "openai-compatible:resume-model", "--base-url", `${server.url}/v1`, "--out", out, "--quiet", "--no-cache", ...more];
    const s0 = sent();
    expect(await main(args(), captureIO({ YARDSTICK_CACHE_DIR: cache }))).toBe(0);
    expect(sent() - s0).toBe(5);
    rmSync(join(out, "run.json"));
    expect(await main(args("--temperature", "0.7"), captureIO({ YARDSTICK_CACHE_DIR: cache }))).toBe(0);
    expect(sent() - s0).toBe(10); // every sample asked again at the new temperature
    rmSync(join(out, "run.json"));
    expect(await main(args("--temperature", "0.7"), captureIO({ YARDSTICK_CACHE_DIR: cache }))).toBe(0);
    expect(sent() - s0).toBe(10); // the same request again: the stored answers are kept
  });

  it("refuses a second run on a store another run is writing, naming its pid", async () => {
    const small = makeSentimentTask(3);
    const out = join(small, "run");
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "run.lock"), JSON.stringify({ pid: process.pid, host: hostname(), since: "2026-11-24T00:00:00Z" }));
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    const before = sent();
    expect(await main(["run", small, "--model", "openai-compatible:lock-model", "--base-url", `${server.url}/v1`, "--out", out], io)).toBe(1);
    expect(io.err()).toContain(`another yardstick run is writing to this run store (pid ${process.pid} on ${hostname()}`);
    expect(sent()).toBe(before);
    expect(existsSync(join(out, "run.lock"))).toBe(true); // the holder's lock is left alone
  });
});

describe("score-run --tasks", () => {
  it("re-scores the named tasks and keeps the others' results as they were", async () => {
    const two = makeSentimentTask(12);
    // A second language for the same task: two task keys in one run.
    const config = readFileSync(join(two, "toy", "config.yaml"), "utf8");
    writeFileSync(join(two, "toy", "config.yaml"), config.replace("  languages:\n    en:", "  languages:\n    id:\n      filepath: data/test.jsonl\n      max_tokens: 16\n      prompt_template:\n        preamble: |-\n          Classify the sentence. Answer as \"{answer_tag} LABEL\".\n        task_template: |-\n          Sentence: {text}\n        answer_template: \"{answer_tag} {label}\"\n        answer_tag: \"Answer:\"\n    en:"));
    const out = join(two, "run");
    expect(await main(["run", two, "--model", "openai-compatible:two-model", "--base-url", `${server.url}/v1`, "--out", out, "--quiet"], captureIO(env()))).toBe(0);
    const before = readFileSync(join(out, "results.json"), "utf8");
    expect(Object.keys(JSON.parse(before).meta.tasks).sort()).toEqual(["toy/en", "toy/id"]);
    expect(await main(["score-run", out, "--tasks", "toy/id", "--quiet"], captureIO(env()))).toBe(0);
    expect(readFileSync(join(out, "results.json"), "utf8")).toBe(before);
  });
});

describe("compare over run stores", () => {
  it("names the per-sample score it compares, and refuses runs that share no task", async () => {
    const a = join(tasks, "cmp-a");
    expect(await main(runArgs(a), captureIO(env()))).toBe(0);
    const b = join(tasks, "cmp-b");
    expect(await main(["run", tasks, "--model", "baseline:majority", "--out", b, "--quiet"], captureIO(env()))).toBe(0);
    const io = captureIO(env());
    expect(await main(["compare", a, b], io)).toBe(0);
    expect(io.out()).toContain("paired test on the per-sample score (toy/en: correct)");

    const other = makeSentimentTask(4);
    const config = join(other, "toy", "config.yaml");
    writeFileSync(config, readFileSync(config, "utf8").replace("toy:\n", "other:\n").replace("name: toy", "name: other"));
    const c = join(other, "run");
    expect(await main(["run", other, "--model", "baseline:majority", "--out", c, "--quiet"], captureIO(env()))).toBe(0);
    const none = captureIO(env());
    expect(await main(["compare", a, c], none)).toBe(1);
    expect(none.err()).toMatch(/share no task scored with the same per-sample score; A has toy\/en \(correct\); B has other\/en \(correct\)/);
  });
});
