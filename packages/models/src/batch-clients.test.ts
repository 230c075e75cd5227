import type { ModelRequest, ModelResponse } from "@yardstick/core";
import { type DevServer, type DevServerOptions, type DevServerRequest, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropic } from "./anthropic.js";
import { createAnthropicBatchClient } from "./anthropic-batch.js";
import type { BatchClient, BatchItem, BatchResult } from "./batch-client.js";
import { createOpenAICompatible } from "./openai-compatible.js";
import { createOpenAIBatchClient } from "./openai-batch.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A dev server whose policy records every body it answers (online and batch lines alike). */
async function recordingServer(options: DevServerOptions = {}): Promise<{ server: DevServer; bodies: string[] }> {
  const bodies: string[] = [];
  const server = await startDevServer({
    policy: (r: DevServerRequest) => {
      bodies.push(JSON.stringify(r.body));
      return `answer to ${r.lastUserText}`;
    },
    ...options,
  });
  closers.push(() => server.close());
  return { server, bodies };
}

const chat = (text: string, params: ModelRequest["params"] = { maxTokens: 20, temperature: 0 }): ModelRequest => ({
  kind: "chat",
  messages: [
    { role: "system", content: "be brief" },
    { role: "user", content: text },
  ],
  params,
});

async function runBatch(client: BatchClient, items: BatchItem[]): Promise<{ results: Map<string, BatchResult>; batches: number }> {
  const handles = await client.submit(items);
  const results = new Map<string, BatchResult>();
  for (const h of handles) {
    for (;;) {
      const st = await client.status(h.id);
      if (st?.state === "ended") break;
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const [k, v] of await client.results(h.id)) results.set(k, v);
  }
  return { results, batches: handles.length };
}

const withoutLatency = ({ latencyMs: _l, ...rest }: ModelResponse): ModelResponse => rest;

describe("OpenAI batch client", () => {
  it("sends each request's online body and gets the online answers back", async () => {
    const { server, bodies } = await recordingServer({ batch: { processingMs: 20 } });
    const settings = { modelId: "m", baseURL: `${server.url}/v1` };
    const online = createOpenAICompatible(settings);
    const batch = createOpenAIBatchClient(settings);
    closers.push(() => online.close(), () => batch.close());
    const requests = [chat("one"), chat("two", { maxTokens: 5, stop: ["x"], seed: 3 }), { kind: "completion", prompt: "Q: three\nA:", params: { maxTokens: 8 } } as ModelRequest];
    const expected = [];
    for (const r of requests) expected.push(withoutLatency(await online.generate(r)));
    const onlineBodies = bodies.splice(0);
    const { results, batches } = await runBatch(batch, requests.map((request, i) => ({ customId: `r${i}`, request })));
    expect(batches).toBe(2); // chat and completion requests go in separate batches
    expect(new Set(bodies)).toEqual(new Set(onlineBodies));
    for (const i of requests.keys()) expect(results.get(`r${i}`)).toEqual({ ok: true, response: expected[i] });
    expect(server.stats().batches).toEqual({ created: 2, requests: 3 });
  });

  it("splits by a lowered request limit and reports failed and expired requests", async () => {
    const { server } = await recordingServer({ batch: { expireRate: 0.5 } });
    const batch = createOpenAIBatchClient({ modelId: "m", baseURL: `${server.url}/v1` }, { maxRequests: 2 });
    closers.push(() => batch.close());
    const items = [1, 2, 3, 4, 5].map((i) => ({ customId: `c${i}`, request: chat(`q${i}`) }));
    const { results, batches } = await runBatch(batch, items);
    expect(batches).toBe(3);
    expect(server.stats().batches).toEqual({ created: 3, requests: 5 });
    const expired = [...results.entries()].filter(([, r]) => !r.ok);
    expect(expired.map(([k]) => k)).toEqual(["c2", "c4", "c5"]);
    expect(expired[0]![1]).toMatchObject({ ok: false, retryable: true, error: { message: expect.stringMatching(/batch_expired/) } });
    expect((await batch.status((await batch.submit([items[0]!]))[0]!.id))?.state).toBeDefined();
    expect(await batch.status("batch_missing")).toBeUndefined();
  });

  it("splits by a lowered size limit, and refuses a request larger than the limit alone", async () => {
    const { server } = await recordingServer();
    const items = [1, 2, 3].map((i) => ({ customId: `c${i}`, request: chat(`q${i}`) }));
    // Each line is about 130 bytes: two do not fit in 200.
    const batch = createOpenAIBatchClient({ modelId: "m", baseURL: `${server.url}/v1` }, { maxBytes: 200 });
    closers.push(() => batch.close());
    const { results, batches } = await runBatch(batch, items);
    expect(batches).toBe(3);
    expect([...results.values()].every((r) => r.ok)).toBe(true);
    const tiny = createOpenAIBatchClient({ modelId: "m", baseURL: `${server.url}/v1` }, { maxBytes: 50 });
    closers.push(() => tiny.close());
    await expect(tiny.submit(items)).rejects.toThrow(/request c1 is \d+ bytes, more than a batch may hold \(50 bytes\)/);
  });

  it("spells max_tokens as max_completion_tokens when asked", async () => {
    const { server, bodies } = await recordingServer();
    const batch = createOpenAIBatchClient({ modelId: "m", baseURL: `${server.url}/v1` }, { maxTokensField: "max_completion_tokens" });
    closers.push(() => batch.close());
    await runBatch(batch, [{ customId: "a", request: chat("hi") }]);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ max_completion_tokens: 20 });
    expect(JSON.parse(bodies[0]!)).not.toHaveProperty("max_tokens");
  });
});

describe("Anthropic batch client", () => {
  it("sends each request's online params and gets the online answers back; splits by a lowered limit", async () => {
    const { server, bodies } = await recordingServer({ apiKey: "test-key-1234", batch: { processingMs: 10 } });
    const settings = { modelId: "claude-x", baseURL: server.url, apiKey: "test-key-1234" };
    const online = createAnthropic(settings);
    const batch = createAnthropicBatchClient(settings, { maxRequests: 2 });
    closers.push(() => online.close(), () => batch.close());
    const requests = [chat("one"), chat("two", { maxTokens: 3, stop: ["o"] }), chat("three")];
    const expected = [];
    for (const r of requests) expected.push(withoutLatency(await online.generate(r)));
    const onlineBodies = bodies.splice(0);
    const { results, batches } = await runBatch(batch, requests.map((request, i) => ({ customId: `r${i}`, request })));
    expect(batches).toBe(2);
    expect(new Set(bodies)).toEqual(new Set(onlineBodies));
    for (const i of requests.keys()) expect(results.get(`r${i}`)).toEqual({ ok: true, response: expected[i] });
    expect(server.stats().batches).toEqual({ created: 2, requests: 3 });
  });

  it("reports errored requests as retryable or not by their error type", async () => {
    const { server } = await recordingServer({ batch: { failRate: 1 } });
    const batch = createAnthropicBatchClient({ modelId: "claude-x", baseURL: server.url });
    closers.push(() => batch.close());
    const { results } = await runBatch(batch, [{ customId: "a", request: chat("x") }]);
    expect(results.get("a")).toMatchObject({ ok: false, retryable: true, error: { status: 500, message: expect.stringMatching(/api_error/) } });
    await expect(batch.submit([{ customId: "bad id", request: chat("x") }])).rejects.toThrow(/custom id/);
    await expect(batch.submit([{ customId: "c", request: { kind: "completion", prompt: "x", params: {} } }])).rejects.toThrow(/no completion endpoint/);
  });
});
