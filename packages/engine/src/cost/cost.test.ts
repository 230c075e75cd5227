import { ApiCallError, type ChatMessage, type ModelRequest } from "@yardstick/core";
import { createOpenAIBatchClient, createOpenAICompatible } from "@yardstick/models";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CostBudget, withBatchBudget, withBudget } from "./budget.js";
import { builtinPrices, costOf, extendPrices, findPrice } from "./price-table.js";
import { countRequestInputTokens, countTextTokens } from "./token-count.js";

let server: DevServer;
beforeAll(async () => {
  server = await startDevServer({ port: 0, policy: "echo" });
});
afterAll(async () => {
  await server.close();
});

const chatOf = (messages: ChatMessage[], maxTokens = 64): ModelRequest => ({ kind: "chat", messages, params: { maxTokens } });
const chatRequests = () => server.stats().requests["/v1/chat/completions"] ?? 0;

describe("input token counts", () => {
  it("are the prompt tokens the dev server reports for the same chat", async () => {
    const model = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`], maxAttempts: 1 });
    const chats: ChatMessage[][] = [
      [{ role: "user", content: "hello there" }],
      [
        { role: "system", content: "You are a careful grader. Answer with one word." },
        { role: "user", content: "Is 17 prime? Think, then answer." },
        { role: "assistant", content: "Yes." },
        { role: "user", content: "Terjemahkan ke bahasa Thai: selamat pagi — สวัสดีตอนเช้า 😀" },
      ],
      [{ role: "user", content: [{ type: "text", text: "describe" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }, { type: "text", text: "this 日本語" }] }],
    ];
    for (const messages of chats) {
      const request = chatOf(messages);
      const response = await model.generate(request);
      expect(countRequestInputTokens(request)).toBe(response.usage?.promptTokens);
    }
    // Tool definitions count too; the wire wraps them a little differently (a few tokens per tool).
    const verdict = { type: "object", properties: { verdict: { type: "string", enum: ["A", "B", "tie"] } }, required: ["verdict"] };
    const withTools: ModelRequest = {
      kind: "chat",
      messages: [{ role: "user", content: "Which answer is better, A or B? Answer through the tool." }],
      params: { maxTokens: 64, tools: [{ name: "record_verdict", description: "Record the verdict", parameters: verdict }], toolChoice: { name: "record_verdict" } },
    };
    const reported = (await model.generate(withTools)).usage?.promptTokens ?? 0;
    expect(Math.abs(countRequestInputTokens(withTools) - reported)).toBeLessThanOrEqual(0.1 * reported);
    expect(countRequestInputTokens(withTools)).toBeGreaterThan(countRequestInputTokens({ ...withTools, params: { maxTokens: 64 } }) + 20);
    await model.close?.();
  });
});

describe("price table", () => {
  const table = builtinPrices();

  it("finds a model by provider:model, by model id, and by a dated snapshot name", () => {
    expect(findPrice(table, "openai", "gpt-4o")).toEqual(table.get("gpt-4o"));
    expect(findPrice(table, "openai", "gpt-4o-2024-08-06")).toEqual(table.get("gpt-4o"));
    expect(findPrice(table, "openai", "gpt-4o-mini-2024-07-18")).toEqual(table.get("gpt-4o-mini"));
    expect(findPrice(table, "anthropic", "claude-sonnet-4-5-20250929")).toEqual(table.get("claude-sonnet-4-5"));
    // Not a snapshot: another model, which must not get gpt-5's price.
    expect(findPrice(table, "openai", "gpt-5-pro")).toBeUndefined();
    expect(findPrice(table, "openai-compatible", "Qwen/Qwen3-8B")).toBeUndefined();
    // The baselines answer locally: free.
    expect(findPrice(table, "baseline:majority", "majority")).toEqual({ input: 0, output: 0 });
  });

  it("lets the user's prices extend and override the built-in ones", () => {
    const mine = extendPrices(table, { "gpt-4o": { input: 1, output: 2 }, "openai-compatible:Qwen/Qwen3-8B": { input: 0.1, output: 0.2 } });
    expect(findPrice(mine, "openai", "gpt-4o")).toEqual({ input: 1, output: 2 });
    expect(findPrice(mine, "openai-compatible", "Qwen/Qwen3-8B")).toEqual({ input: 0.1, output: 0.2 });
    expect(findPrice(mine, "other", "Qwen/Qwen3-8B")).toBeUndefined();
    expect(table.get("gpt-4o")?.input).toBe(2.5);
  });

  it("prices tokens per million, with the batch discount only in batch mode", () => {
    const price = { input: 2, output: 8, batchDiscount: 0.5 };
    expect(costOf(price, 1_000_000, 0)).toBe(2);
    expect(costOf(price, 500_000, 250_000)).toBe(3);
    expect(costOf(price, 500_000, 250_000, true)).toBe(1.5);
    expect(costOf({ input: 2, output: 8 }, 1_000_000, 0, true)).toBe(2);
  });
});

describe("withBudget", () => {
  it("never lets recorded spend cross the limit, even with requests in flight, and stops once", async () => {
    const inner = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`], maxAttempts: 1 });
    // 1 USD per token: each request reserves its input + max_tokens (32) and settles at its usage.
    const price = { input: 1e6, output: 1e6 };
    const stops: string[] = [];
    const budget = new CostBudget(300, (m) => stops.push(m));
    const model = withBudget(inner, { budget, price });
    const before = chatRequests();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => model.generate(chatOf([{ role: "user", content: `question number ${i} please` }], 32))),
    );
    const ok = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(ApiCallError.isInstance(r.reason)).toBe(true);
      expect(String(r.reason.message)).toMatch(/^not sent: it could cost up to \$\d+\.\d\d, past --max-cost 300 USD/);
    }
    // The refused requests never reached the server; what did is what was recorded.
    expect(chatRequests() - before).toBe(ok.length);
    const recorded = ok.reduce((a, o) => a + (o.value.usage?.totalTokens ?? 0), 0);
    expect(budget.spentUsd).toBeCloseTo(recorded, 6);
    expect(recorded).toBeLessThanOrEqual(300);
    expect(budget.reservedUsd).toBeCloseTo(0, 6);
    expect(stops).toHaveLength(1);
    expect(stops[0]).toContain("--max-cost 300 USD: stopping before it is crossed");
    await inner.close?.();
  });
});

describe("withBudget on loglikelihood scoring", () => {
  it("pays a batch of continuations by their prompt tokens, in one call, and refuses one over the limit unsent", async () => {
    const inner = createOpenAICompatible({ modelId: "m", baseURLs: [`${server.url}/v1`], maxAttempts: 1 });
    const requests = [
      { context: "The capital of France is", continuation: " Paris" },
      { context: "The capital of France is", continuation: " Lyon" },
    ];
    const cost = requests.reduce((a, r) => a + countTextTokens(r.context + r.continuation) + 1, 0);
    const budget = new CostBudget(cost, () => {});
    const model = withBudget(inner, { budget, price: { input: 1e6, output: 1e6 } });
    const completions = () => server.stats().requests["/v1/completions"] ?? 0;
    const before = completions();
    expect(await model.loglikelihoodBatch!(requests)).toHaveLength(2);
    expect(completions() - before).toBe(1);
    expect(budget.spentUsd).toBeCloseTo(cost, 6);
    await expect(model.loglikelihood!(requests[0]!)).rejects.toThrow(/not sent/);
    expect(completions() - before).toBe(1);
    await inner.close?.();
  });
});

describe("withBatchBudget", () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ customId: `c${i}`, request: chatOf([{ role: "user", content: `batched question ${i}` }], 16) }));
  const batches = () => server.stats().requests["/v1/batches"] ?? 0;

  it("refuses a whole batch whose worst case would cross the limit, before it is created", async () => {
    const client = createOpenAIBatchClient({ modelId: "m", baseURLs: [`${server.url}/v1`] });
    const stops: string[] = [];
    const budget = new CostBudget(100, (m) => stops.push(m));
    const guarded = withBatchBudget(client, { budget, price: { input: 1e6, output: 1e6, batchDiscount: 0.5 }, batch: true });
    const before = batches();
    await expect(guarded.submit(items(10))).rejects.toThrow(/not sent: this batch could cost up to \$\d+\.\d\d, past --max-cost 100 USD/);
    expect(batches()).toBe(before);
    expect(stops).toHaveLength(1);
    expect(budget.reservedUsd).toBe(0);
    await client.close();
  });

  it("reserves a batch's worst case at the batch price and settles each result at its usage, once", async () => {
    const client = createOpenAIBatchClient({ modelId: "m", baseURLs: [`${server.url}/v1`] });
    const budget = new CostBudget(1000, () => {});
    const guarded = withBatchBudget(client, { budget, price: { input: 1e6, output: 1e6, batchDiscount: 0.5 }, batch: true });
    const sent = items(3);
    const worst = sent.reduce((a, it) => a + (countRequestInputTokens(it.request) + 16) / 2, 0);
    const [handle] = await guarded.submit(sent);
    expect(budget.reservedUsd).toBeCloseTo(worst, 6);
    let status = await guarded.status(handle!.id);
    for (let i = 0; i < 50 && status?.state !== "ended"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = await guarded.status(handle!.id);
    }
    const results = await guarded.results(handle!.id);
    const usage = [...results.values()].reduce((a, r) => a + (r.ok ? (r.response.usage?.totalTokens ?? 0) : 0), 0);
    expect(results.size).toBe(3);
    expect(budget.reservedUsd).toBeCloseTo(0, 6);
    // Half price: the batch discount.
    expect(budget.spentUsd).toBeCloseTo(usage / 2, 6);
    await guarded.results(handle!.id);
    expect(budget.spentUsd).toBeCloseTo(usage / 2, 6);
    await client.close();
  });
});
