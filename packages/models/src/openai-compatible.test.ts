import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiCallError, type ChatRequest, ConfigError, type ModelRequest } from "@yardstick/core";
import { type DevServer, type DevServerOptions, type DevServerRequest, promptHash, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ModelCallError } from "./model-call-error.js";
import { createOpenAICompatible, type OpenAICompatibleProvider } from "./openai-compatible.js";
import type { OpenAICompatibleSettings } from "./openai-settings.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function dev(options: DevServerOptions = {}): Promise<DevServer> {
  const s = await startDevServer(options);
  cleanups.push(() => s.close());
  return s;
}

function provider(servers: DevServer | DevServer[], settings: Partial<OpenAICompatibleSettings> = {}): OpenAICompatibleProvider {
  const list = Array.isArray(servers) ? servers : [servers];
  const p = createOpenAICompatible({
    modelId: "test-model",
    baseURLs: list.map((s) => `${s.url}/v1`),
    backoff: { baseMs: 1, maxMs: 5 },
    ...settings,
  });
  cleanups.push(() => p.close());
  return p;
}

/** A plain node:http server for replies the dev server does not make. */
async function rawServer(handler: RequestListener): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const ask = (text: string, params: ChatRequest["params"] = {}): ModelRequest => ({
  kind: "chat",
  messages: [{ role: "user", content: text }],
  params,
});

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ApiCallError.isInstance(error)).toBe(true);
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe("openai-compatible: chat", () => {
  it("returns content, finish reason, usage and the server's model name", async () => {
    const s = await dev();
    const p = provider(s);
    const r = await p.generate(ask("hello there"));
    expect(r.text).toBe("hello there");
    expect(r.finishReason).toBe("stop");
    expect(r.choices).toEqual([{ text: "hello there", finishReason: "stop" }]);
    // The dev server counts o200k BPE tokens, 3 per message and 3 to prime the reply.
    expect(r.usage).toEqual({ promptTokens: 8, completionTokens: 2, totalTokens: 10 });
    expect(r.model).toBe("test-model");
    expect(r.latencyMs).toBeGreaterThan(0);
    expect(s.stats().byPromptHash[promptHash([{ role: "user", content: "hello there" }])]).toBe(1);
    expect(p.identity()).toBe("openai-compatible:test-model");
  });

  it("sends the sampling params and merges extraBody into the body", async () => {
    const seen: DevServerRequest[] = [];
    const s = await dev({
      policy: (req) => {
        seen.push(req);
        return "ok";
      },
    });
    const p = provider(s);
    const r = await p.generate(
      ask("x", {
        maxTokens: 7,
        temperature: 0.2,
        topP: 0.9,
        stop: ["\n"],
        seed: 5,
        n: 2,
        extraBody: { chat_template_kwargs: { enable_thinking: false }, top_k: 20 },
      }),
    );
    expect(r.choices).toHaveLength(2);
    expect(seen[0]!.body).toMatchObject({
      model: "test-model",
      max_tokens: 7,
      temperature: 0.2,
      top_p: 0.9,
      stop: ["\n"],
      seed: 5,
      n: 2,
      chat_template_kwargs: { enable_thinking: false },
      top_k: 20,
    });
    // Unset params are not sent, so the server's defaults apply.
    await p.generate(ask("y"));
    expect(Object.keys(seen[1]!.body).sort()).toEqual(["messages", "model"]);
  });

  it("parses reasoning_content, and a cut answer's finish reason length", async () => {
    const s = await dev({ policy: () => ({ content: "the answer is 42", reasoningContent: "think think" }) });
    const p = provider(s);
    const full = await p.generate(ask("q"));
    expect(full.reasoningContent).toBe("think think");
    expect(full.choices[0]!.reasoningContent).toBe("think think");
    expect(full.usage?.reasoningTokens).toBe(2);
    const cut = await p.generate(ask("q", { maxTokens: 4 }));
    expect(cut.text).toBe("the answer");
    expect(cut.finishReason).toBe("length");
    expect(cut.usage?.completionTokens).toBe(4);
  });

  it("accepts `reasoning` as the reasoning field and content parts", async () => {
    const url = await rawServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          choices: [
            { index: 1, message: { content: [{ type: "text", text: "B" }], reasoning: "r2" }, finish_reason: "eos" },
            { index: 0, message: { content: null, reasoning: "r1" }, finish_reason: null },
          ],
        }),
      );
    });
    const p = createOpenAICompatible({ modelId: "m", baseURL: url });
    cleanups.push(() => p.close());
    const r = await p.generate(ask("q"));
    expect(r.choices).toEqual([
      { text: "", finishReason: "unknown", reasoningContent: "r1" },
      { text: "B", finishReason: "stop", reasoningContent: "r2" },
    ]);
    expect(r.usage).toBeUndefined();
  });
});

describe("openai-compatible: completions and loglikelihood", () => {
  it("maps echoed logprobs into TokenLogprobs", async () => {
    const s = await dev({ policy: { fixed: " Paris" } });
    const p = provider(s);
    const r = await p.generate({ kind: "completion", prompt: "Capital:", params: { maxTokens: 1 }, echo: true, logprobs: 1 });
    expect(r.text).toBe("Capital: Paris");
    expect(r.logprobs?.tokens).toEqual(["Capital", ":", " Paris"]);
    expect(r.logprobs?.tokenLogprobs[0]).toBeNull();
    expect(r.logprobs?.textOffset).toEqual([0, 7, 8]);
    expect(r.logprobs?.topLogprobs?.[2]).toEqual({ " Paris": r.logprobs?.tokenLogprobs[2] });
  });

  it("scores continuations so that the policy's answer wins, with one request each", async () => {
    const s = await dev({ policy: { fixed: "Paris" } });
    const p = provider(s);
    const context = "Question: What is the capital of France?\nAnswer:";
    const options = [" London", " Paris", " Rome", " Berlin"];
    const results = await Promise.all(options.map((continuation) => p.loglikelihood({ context, continuation })));
    const best = results.reduce((bi, r, i) => (r.logprob > results[bi]!.logprob ? i : bi), 0);
    expect(options[best]).toBe(" Paris");
    expect(results[1]).toMatchObject({ isGreedy: true, tokenCount: 1 });
    expect(results[0]!.isGreedy).toBe(false);
    for (const r of results) expect(r.logprob).toBeLessThan(0);
    expect(s.stats().requests["/v1/completions"]).toBe(4);
    // The request is the lm-eval one: the whole text, echoed, nothing generated.
    expect(s.stats().byPromptHash[promptHash(context + " Paris")]).toBe(1);
  });

  it("counts a token straddling the context end as continuation", async () => {
    const s = await dev({ policy: { fixed: "Paris" } });
    const p = provider(s);
    const r = await p.loglikelihood({ context: "Answer: ", continuation: "Paris" });
    expect(r.tokenCount).toBe(1);
    expect(r.isGreedy).toBe(true);
  });

  it("refuses an empty context", async () => {
    const p = provider(await dev());
    await expect(p.loglikelihood({ context: "", continuation: "x" })).rejects.toThrow(ConfigError);
  });

  it("reports a server without echoed logprobs as an invalid response", async () => {
    const url = await rawServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ choices: [{ text: "x", logprobs: null, finish_reason: "length" }] }));
    });
    const p = createOpenAICompatible({ modelId: "m", baseURL: url });
    cleanups.push(() => p.close());
    const e = await failure(p.loglikelihood({ context: "a", continuation: " b" }));
    expect(e.kind).toBe("invalid-response");
    expect(e.message).toMatch(/no usable echoed logprobs/);
  });
});

describe("openai-compatible: retries", () => {
  it("honours Retry-After on a 429", async () => {
    const s = await dev({ faults: { script: ["429"], retryAfterSeconds: 1 } });
    const p = provider(s);
    const started = Date.now();
    const r = await p.generate(ask("x"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(r.text).toBe("x");
    expect(s.stats().requests["/v1/chat/completions"]).toBe(2);
  });

  it("retries 500s and connection resets, then succeeds", async () => {
    const s = await dev({ faults: { script: ["500", "reset", "500"] } });
    const p = provider(s);
    const logs: string[] = [];
    const r = await p.generate(ask("x"), { log: (m) => logs.push(m) });
    expect(r.text).toBe("x");
    expect(s.stats().requests["/v1/chat/completions"]).toBe(4);
    expect(s.stats().faults).toEqual({ "500": 2, reset: 1 });
    expect(logs).toHaveLength(3);
    expect(logs[1]).toMatch(/attempt 2\/6 failed \(connection failed/);
  });

  it("does not retry a 400", async () => {
    const s = await dev();
    const p = provider(s);
    const e = await failure(p.generate(ask("x", { extraBody: { temperature: 9 } })));
    expect(e.status).toBe(400);
    expect(e.retryable).toBe(false);
    expect(e.attempts).toBe(1);
    expect(e.message).toMatch(/failed after 1 attempt \(not retryable\): HTTP 400: temperature/);
    expect(s.stats().requests["/v1/chat/completions"]).toBe(1);
  });

  it("gives up on malformed JSON after maxAttempts", async () => {
    const s = await dev({ faults: { rateMalformed: 1 } });
    const p = provider(s, { maxAttempts: 3 });
    const e = await failure(p.generate(ask("x")));
    expect(e.kind).toBe("invalid-response");
    expect(e.retryable).toBe(true);
    expect(e.attempts).toBe(3);
    expect(e.message).toMatch(/failed after 3 attempts \(giving up\): response is not valid JSON/);
    expect(e.toRecord()).toEqual({ message: e.message, kind: "invalid-response", attempts: 3 });
    expect(s.stats().requests["/v1/chat/completions"]).toBe(3);
  });

  it("does not retry a 2xx body of the wrong shape", async () => {
    let hits = 0;
    const url = await rawServer((_req, res) => {
      hits++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ choices: [] }));
    });
    const p = createOpenAICompatible({ modelId: "m", baseURL: url });
    cleanups.push(() => p.close());
    const e = await failure(p.generate(ask("x")));
    expect(e.kind).toBe("invalid-response");
    expect(e.retryable).toBe(false);
    expect(hits).toBe(1);
  });

  it("times out a hung request on every attempt", async () => {
    const s = await dev({ faults: { rateHang: 1 } });
    const p = provider(s, { timeoutMs: 100, maxAttempts: 2 });
    const e = await failure(p.generate(ask("x")));
    expect(e.kind).toBe("timeout");
    expect(e.attempts).toBe(2);
    expect(e.message).toMatch(/timed out after 100 ms/);
  });

  it("stops at once when the caller aborts", async () => {
    const s = await dev({ faults: { rateHang: 1 } });
    const p = provider(s);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const e = await failure(p.generate(ask("x"), { signal: controller.signal }));
    expect(e.retryable).toBe(false);
    expect(e.message).toMatch(/interrupted \(the run was stopped\)/);
  });
});

describe("openai-compatible: concurrency and endpoints", () => {
  it("halves the limit once per 429 episode and grows back on successes", async () => {
    // The first 8 requests are held until all 8 have arrived, then all get a 429: a deterministic
    // "burst of 429s while 8 requests are in flight". Later requests are answered at once.
    let arrived = 0;
    const held: (() => void)[] = [];
    const url = await rawServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (++arrived <= 8) {
          held.push(() => {
            res.writeHead(429, { "content-type": "application/json", "retry-after": "0" });
            res.end('{"error":{"message":"slow down"}}');
          });
          if (held.length === 8) for (const release of held) release();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ index: 0, message: { content: "ok" }, finish_reason: "stop" }] }));
      });
    });
    const p = createOpenAICompatible({ modelId: "m", baseURL: url, maxConcurrency: 8, concurrencyIncreaseEvery: 2 });
    cleanups.push(() => p.close());
    expect(p.limiter.limit).toBe(8);
    const first = await Promise.all(Array.from({ length: 8 }, (_, i) => p.generate(ask(`q${i}`))));
    expect(first.every((r) => r.text === "ok")).toBe(true);
    // All 8 were in flight when the 429s came back: one decrease (8 → 4), not eight.
    expect(p.limiter.decreases).toBe(1);
    // Then 8 successes at +1 per 2 successes: back to 8.
    expect(p.limiter.limit).toBe(8);
    expect(arrived).toBe(16);
    expect(p.limiter.inFlight).toBe(0);
  });

  it("halves again when requests admitted after a decrease are still rate limited", async () => {
    const s = await dev({ faults: { script: ["429", "429", "429"], retryAfterSeconds: 0 } });
    const p = provider(s, { maxConcurrency: 16, concurrencyIncreaseEvery: 100 });
    expect((await p.generate(ask("x"))).text).toBe("x");
    // One request, retried three times after a 429 each: every 429 is a new episode.
    expect(p.limiter.decreases).toBe(3);
    expect(p.limiter.limit).toBe(2);
  });

  it("never has more requests in flight than the limit", async () => {
    let inFlight = 0;
    let peak = 0;
    const s = await dev({
      policy: async (req) => {
        peak = Math.max(peak, ++inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        return req.lastUserText;
      },
    });
    const p = provider(s, { maxConcurrency: 3 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => p.generate(ask(`${i}`))));
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThanOrEqual(2);
  });

  it("spreads requests in flight over base URLs, and a retry goes to another base URL", async () => {
    const a = await dev();
    const b = await dev({ faults: { script: ["500"] } });
    const p = provider([a, b]);
    // Nothing measured yet: the first goes to a, the second to b (a has one in flight).
    await Promise.all([p.generate(ask("0")), p.generate(ask("1"))]);
    const stats = async (s: DevServer) => (await (await fetch(`${s.url}/stats`)).json()) as ReturnType<DevServer["stats"]>;
    // b's 500 is retried on a.
    expect((await stats(a)).requests["/v1/chat/completions"]).toBe(2);
    expect((await stats(b)).requests["/v1/chat/completions"]).toBe(1);
    expect((await stats(b)).faults).toEqual({ "500": 1 });
    expect(p.baseURLs).toEqual([`${a.url}/v1`, `${b.url}/v1`]);
    expect(p.endpointStats().map((e) => [e.requests, e.errors])).toEqual([
      [2, 0],
      [1, 1],
    ]);
  });
});

describe("openai-compatible: secrets and settings", () => {
  const KEY = "sk-test-SECRET-0123456789";

  it("sends the key only as a bearer token and never shows it", async () => {
    const seen: DevServerRequest[] = [];
    const s = await dev({
      policy: (req) => {
        seen.push(req);
        return "ok";
      },
    });
    const p = provider(s, { apiKey: KEY });
    await p.generate(ask("x"));
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(seen[0]!.body)).not.toContain(KEY);
    expect(p.identity()).not.toContain(KEY);
  });

  it("scrubs the key from errors even when the server echoes it", async () => {
    const url = await rawServer((req, res) => {
      res.statusCode = 401;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ error: { message: `bad key ${req.headers.authorization}` } }));
    });
    const p = createOpenAICompatible({ modelId: "m", baseURL: url, apiKey: KEY });
    cleanups.push(() => p.close());
    const e = await failure(p.generate(ask("x")));
    expect(e.status).toBe(401);
    expect(e.retryable).toBe(false);
    expect(e.message).toContain("bad key Bearer ***");
    expect(e.message).not.toContain(KEY);
    expect(String(e.stack)).not.toContain(KEY);
  });

  it("rejects bad settings with a ConfigError naming the key", () => {
    const bad: [unknown, RegExp][] = [
      [{ modelId: "m" }, /baseURLs/],
      [{ modelId: "m", baseURLs: ["ftp://x"] }, /baseURLs\[0\].*http\(s\) base URL/],
      [{ modelId: "m", baseURLs: ["http://user:pw@h/v1"] }, /without credentials/],
      [{ modelId: "m", baseURL: "http://h/v1", minConcurrency: 5, maxConcurrency: 2 }, /minConcurrency/],
      [{ modelId: "", baseURL: "http://h/v1" }, /modelId/],
      [{ modelId: "m", baseURL: "http://h/v1", maxAttemps: 2 }, /maxAttemps/],
    ];
    for (const [settings, message] of bad) {
      expect(() => createOpenAICompatible(settings as OpenAICompatibleSettings)).toThrow(ConfigError);
      expect(() => createOpenAICompatible(settings as OpenAICompatibleSettings)).toThrow(message);
    }
  });

  it("refuses requests after close()", async () => {
    const p = provider(await dev());
    await p.close();
    const e = await failure(p.generate(ask("x")));
    expect(e.message).toMatch(/closed/);
  });
});
