import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

let server: DevServer;

beforeAll(async () => {
  server = await startDevServer({ port: 0, latencyMs: 2, policy: (req) => toyAnswer(req.lastUserText) });
});
afterAll(async () => {
  await server.close();
});

const chatRequests = (): number => server.stats().requests["/v1/chat/completions"] ?? 0;

/** A fresh task folder, its own request cache, and a price file pricing the dev model at `usdPerToken`. */
function setup(rows: number, usdPerToken = 1e-6) {
  const dir = makeSentimentTask(rows);
  const env = { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cost-cache-")) };
  const prices = join(dir, "prices.yaml");
  const perMillion = usdPerToken * 1e6;
  writeFileSync(prices, `models:\n  toy-model: { input: ${perMillion}, output: ${perMillion}, batchDiscount: 0.5 }\n`);
  const base = ["run", dir, "--model", "openai-compatible:toy-model", "--base-url", `${server.url}/v1`, "--concurrency", "1", "--no-report"];
  return { dir, env, prices, base, out: join(dir, "run") };
}

interface Usage {
  input: number;
  output: number;
}

/** Tokens the dev server reported for the requests a run sent (cache hits excluded). */
function sentUsage(out: string): Usage & { sent: number } {
  const lines = readFileSync(join(out, "responses.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const sent = lines.filter((l) => l.status === "ok" && !l.cached);
  return {
    sent: sent.length,
    input: sent.reduce((a, l) => a + l.usage.promptTokens, 0),
    output: sent.reduce((a, l) => a + l.usage.completionTokens, 0),
  };
}

/** The generate stage's total row of the dry-run report: requests, input and output tokens, cost. */
function estimateTotals(report: string): { requests: number; input: number; output: number; cost: string } {
  const m = /^generate\s+total \([^)]*\)\s+(\d+)\s+([\d,]+)\s+([\d,]+)\s+(\S+)/m.exec(report);
  if (!m) throw new Error(`no total row in:\n${report}`);
  const n = (s: string) => Number(s.replaceAll(",", ""));
  return { requests: n(m[1]!), input: n(m[2]!), output: n(m[3]!), cost: m[4]! };
}

const within = (estimate: number, actual: number, fraction: number) => Math.abs(estimate - actual) <= fraction * actual;

describe("yardstick run --dry-run", () => {
  it("sends nothing, and its token estimate is within 10% of what the dev server then reports", async () => {
    const { env, prices, base, out } = setup(24);
    // A first, smaller run answers 4 of the requests into the cache: the estimate leaves them out
    // and takes the task's output tokens from their recorded mean.
    expect(await main([...base, "--limit", "4", "--out", join(out, "..", "first"), "--quiet"], captureIO(env))).toBe(0);

    const before = server.stats().requests;
    const dry = captureIO(env);
    expect(await main([...base, "--out", out, "--dry-run", "--prices", prices], dry)).toBe(0);
    // Only the model listing (the model's identity keys the cache) is asked; nothing is generated.
    const after = server.stats().requests;
    for (const path of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (path !== "/v1/models") expect(after[path] ?? 0, path).toBe(before[path] ?? 0);
    }
    expect(existsSync(out)).toBe(false);
    const report = dry.out();
    expect(report).toContain("nothing was sent");
    expect(report).toMatch(/generate\s+toy\/en\s+20\s+[\d,]+\s+[\d,]+\s+recorded mean 3/);
    expect(report).toContain("4 request(s) from the cache");
    // Latencies of the first run are in its own store, not this one: the rate is not known yet.
    expect(report).toContain("unknown (no recorded latencies)");
    const estimate = estimateTotals(report);
    expect(estimate.requests).toBe(20);

    expect(await main([...base, "--out", out, "--quiet"], captureIO(env))).toBe(0);
    const actual = sentUsage(out);
    expect(actual.sent).toBe(20);
    expect(within(estimate.input, actual.input, 0.1)).toBe(true);
    expect(within(estimate.output, actual.output, 0.1)).toBe(true);
    expect(within(estimate.input + estimate.output, actual.input + actual.output, 0.1)).toBe(true);
    // Price: 1 USD per 1M tokens.
    expect(estimate.cost).toBe(`$${((estimate.input + estimate.output) / 1e6).toPrecision(2)}`);
  });

  it("reports a model without a price as such", async () => {
    const { env, base, out } = setup(10);
    expect(await main([...base, "--out", join(out, "..", "first"), "--limit", "6", "--quiet"], captureIO(env))).toBe(0);
    const noPrice = captureIO(env);
    expect(await main([...base, "--out", out, "--dry-run"], noPrice)).toBe(0);
    expect(noPrice.out()).toMatch(/generate\s+total \(openai-compatible:toy-model\)\s+4\s+[\d,]+\s+[\d,]+\s+no price/);
    expect(noPrice.out()).toContain("6 request(s) from the cache");
    expect(noPrice.out()).toContain("total cost: unknown (a model has no price; add it with --prices FILE)");
  });
});

describe("yardstick run --max-cost", () => {
  it("refuses a run whose estimate is over the budget before the first request", async () => {
    const { env, prices, base, out } = setup(8, 1e-3);
    const before = chatRequests();
    const io = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--max-cost", "0.01"], io)).toBe(1);
    expect(io.err()).toMatch(/the run is estimated at \$0\.\d+, more than --max-cost 0\.01 USD allows, so nothing was sent/);
    expect(chatRequests()).toBe(before);
    expect(existsSync(out)).toBe(false);
  });

  it("stops a running run before its recorded spend crosses the budget; a rerun with more budget resumes", async () => {
    // 1 USD per token, so the dry-run report's dollars are tokens.
    const { env, prices, base, out } = setup(12, 1);
    expect(await main([...base, "--limit", "3", "--out", join(out, "..", "warm"), "--quiet"], captureIO(env))).toBe(0);
    const dry = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--dry-run"], dry)).toBe(0);
    const estimate = estimateTotals(dry.out());
    expect(estimate.requests).toBe(9);
    // Just above the estimate (answers of 3 tokens), below what the last request could cost at its
    // max_tokens (16): the run starts, and stops before the last request.
    const budget = estimate.input + estimate.output + 5;
    const before = chatRequests();
    const io = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--max-cost", String(budget)], io)).toBe(130);
    expect(io.err()).toContain(`--max-cost ${budget} USD: stopping before it is crossed`);
    expect(io.err()).toContain("stopped; run the same command again to continue");
    const spent = sentUsage(out);
    expect(chatRequests() - before).toBe(spent.sent);
    expect(spent.sent).toBeGreaterThan(0);
    expect(spent.sent).toBeLessThan(9);
    expect(spent.input + spent.output).toBeLessThanOrEqual(budget);

    // What resume would send now: the requests the stopped run did not get to (the store answers the rest).
    const left = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--dry-run", "--no-cache"], left)).toBe(0);
    expect(estimateTotals(left.out()).requests).toBe(9 - spent.sent);
    expect(left.out()).toContain(`answered already: ${3 + spent.sent} sample(s) from the run store`);
    // The stopped run recorded its latencies: the time at the current rate is known.
    expect(left.out()).toMatch(/generate\s+total .* ~\d+s at [\d.]+ req\/s/);

    expect(left.out()).toContain(`spent already (recorded in the run store): $${(spent.input + spent.output).toFixed(2)}`);

    // The budget is the run's: the same --max-cost again sends nothing, as the spend is recorded.
    const same = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--max-cost", String(budget)], same)).not.toBe(0);
    expect(chatRequests() - before).toBe(spent.sent);

    const rerun = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--max-cost", String(budget * 2), "--quiet"], rerun)).toBe(0);
    expect(chatRequests() - before).toBe(9);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    expect(results.en.nlu.toy.n).toBe(12);
  });

  it("needs a price for the model, and says how to give one, before anything is sent", async () => {
    const { env, base, out } = setup(4);
    const before = chatRequests();
    const io = captureIO(env);
    expect(await main([...base, "--out", out, "--max-cost", "5"], io)).toBe(1);
    expect(io.err()).toContain("no price for model openai-compatible:toy-model, so --max-cost cannot be enforced");
    expect(io.err()).toContain("--prices FILE");
    expect(chatRequests()).toBe(before);
  });
});

describe("yardstick run --prices", () => {
  it("names the file, line and key path of a bad price", async () => {
    const { env, base, dir, out } = setup(4);
    const bad = join(dir, "bad-prices.yaml");
    writeFileSync(bad, "models:\n  toy-model:\n    input: cheap\n    output: 1\n");
    const io = captureIO(env);
    expect(await main([...base, "--out", out, "--dry-run", "--prices", bad], io)).toBe(1);
    expect(io.err()).toMatch(new RegExp(`${bad.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:\\d+ models\\.toy-model\\.input: .*price in USD per 1M tokens`));
    expect(io.err()).not.toMatch(/\n\s+at /);

    writeFileSync(bad, "models:\n  toy-model: { input: 1, output: 1, discount: 0.5 }\n");
    const unknownKey = captureIO(env);
    expect(await main([...base, "--out", out, "--dry-run", "--prices", bad], unknownKey)).toBe(1);
    expect(unknownKey.err()).toMatch(/bad-prices\.yaml:2:\d+ models\.toy-model: .*discount/);

    const missing = captureIO(env);
    expect(await main([...base, "--out", out, "--dry-run", "--prices", join(dir, "nope.yaml")], missing)).toBe(1);
    expect(missing.err()).toContain("cannot read the price file: ENOENT");
  });
});

describe("--dry-run and --max-cost with --batch", () => {
  const batchCalls = () => (server.stats().requests["/v1/batches"] ?? 0) + (server.stats().requests["/v1/files"] ?? 0);

  it("prices at the batch discount, and a batch that could cross the budget is not created", async () => {
    const { env, prices, base, out } = setup(10, 1);
    expect(await main([...base, "--limit", "2", "--out", join(out, "..", "warm"), "--quiet"], captureIO(env))).toBe(0);
    const before = [chatRequests(), batchCalls()];
    const online = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--dry-run"], online)).toBe(0);
    const batched = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--dry-run", "--batch"], batched)).toBe(0);
    expect([chatRequests(), batchCalls()]).toEqual(before);
    const full = estimateTotals(online.out());
    const half = estimateTotals(batched.out());
    expect(half.requests).toBe(8);
    expect(Number(half.cost.slice(1))).toBeCloseTo(Number(full.cost.slice(1)) / 2, 1);
    expect(batched.out()).toContain("(batch -50%)");

    // Over the estimate, under the batch's worst case (every answer at max_tokens): refused whole.
    const budget = (full.input + full.output) / 2 + 5;
    const io = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--batch", "--max-cost", String(budget)], io)).toBe(130);
    expect(io.err()).toContain(`--max-cost ${budget} USD: stopping before it is crossed`);
    expect([chatRequests(), batchCalls()]).toEqual(before);

    const rerun = captureIO(env);
    expect(await main([...base, "--out", out, "--prices", prices, "--batch", "--batch-poll-seconds", "0.05", "--max-cost", String(budget * 3), "--quiet"], rerun)).toBe(0);
    expect(chatRequests()).toBe(before[0]);
    expect(batchCalls()).toBeGreaterThan(before[1]!);
    expect(JSON.parse(readFileSync(join(out, "results.json"), "utf8")).en.nlu.toy.n).toBe(10);
  });
});

