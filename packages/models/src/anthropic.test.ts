import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiCallError, type ChatRequest, ConfigError, type ModelRequest } from "@yardstick/core";
import { type DevServer, type DevServerOptions, type DevServerRequest, promptHash, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type AnthropicProvider, createAnthropic } from "./anthropic.js";
import type { AnthropicSettings } from "./anthropic-settings.js";
import { builtinModelFactories } from "./builtin-factories.js";
import { ModelCallError } from "./model-call-error.js";
import { parseModelSpec } from "./model-spec.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

const KEY = "sk-ant-test-0123456789abcdef";

async function dev(options: DevServerOptions = {}): Promise<DevServer> {
  const s = await startDevServer({ apiKey: KEY, ...options });
  cleanups.push(() => s.close());
  return s;
}

function provider(server: DevServer | string, settings: Partial<AnthropicSettings> = {}): AnthropicProvider {
  const p = createAnthropic({
    modelId: "claude-test",
    baseURL: typeof server === "string" ? server : server.url,
    apiKey: KEY,
    backoff: { baseMs: 1, maxMs: 5 },
    ...settings,
  });
  cleanups.push(() => p.close());
  return p;
}

/** Records what a policy saw, answering `answer`. */
function recording(answer = "ok"): { seen: DevServerRequest[]; policy: (r: DevServerRequest) => string } {
  const seen: DevServerRequest[] = [];
  return {
    seen,
    policy: (r) => {
      seen.push(r);
      return answer;
    },
  };
}

const ask = (text: string, params: ChatRequest["params"] = { maxTokens: 64 }): ModelRequest => ({
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

describe("anthropic: requests and answers", () => {
  it("returns the text, stop reason, usage and model, and keeps the key out of identity()", async () => {
    const s = await dev();
    const p = provider(s);
    const r = await p.generate(ask("hello there"));
    expect(r.text).toBe("hello there");
    expect(r.finishReason).toBe("stop");
    expect(r.choices).toEqual([{ text: "hello there", finishReason: "stop" }]);
    // The dev server counts o200k BPE tokens, 3 per message and 3 to prime the reply.
    expect(r.usage).toEqual({ promptTokens: 8, completionTokens: 2, totalTokens: 10 });
    expect(r.model).toBe("claude-test");
    expect(r.latencyMs).toBeGreaterThan(0);
    expect(p.identity()).toBe("anthropic:claude-test");
    expect(p.identity()).not.toContain(KEY);
    expect(p.messagesURL).toBe(`${s.url}/v1/messages`);
    expect(s.stats().requests["/v1/messages"]).toBe(1);
    // A plain conversation reaches the server as the same prompt as over chat completions.
    expect(s.stats().byPromptHash[promptHash([{ role: "user", content: "hello there" }])]).toBe(1);
  });

  it("moves system messages to the system field, merges same-role turns and maps sampling params", async () => {
    const { seen, policy } = recording();
    const s = await dev({ policy });
    const p = provider(s);
    await p.generate({
      kind: "chat",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "first" },
        { role: "user", content: [{ type: "text", text: "second" }] },
        { role: "assistant", content: "sure" },
        { role: "system", content: "Answer in French." },
        { role: "user", content: "third" },
      ],
      params: { maxTokens: 32, temperature: 0.2, topP: 0.9, stop: ["\n\n"], seed: 5, extraBody: { top_k: 4 } },
    });
    const body = seen[0]!.body;
    expect(body.system).toBe("Be brief.\n\nAnswer in French.");
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "second" },
        ],
      },
      { role: "assistant", content: "sure" },
      { role: "user", content: "third" },
    ]);
    expect(body).toMatchObject({ model: "claude-test", max_tokens: 32, temperature: 0.2, top_p: 0.9, stop_sequences: ["\n\n"], top_k: 4 });
    // The API has no seed and no n.
    expect(body).not.toHaveProperty("seed");
    expect(body).not.toHaveProperty("n");
    expect(seen[0]!.headers["x-api-key"]).toBe(KEY);
    expect(seen[0]!.headers["anthropic-version"]).toBe("2023-06-01");
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("sends images as base64 (data URIs) or URL image blocks", async () => {
    const { seen, policy } = recording();
    const s = await dev({ policy });
    const p = provider(s);
    await p.generate({
      kind: "chat",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "compare" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
            { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
          ],
        },
      ],
      params: { maxTokens: 8 },
    });
    expect((seen[0]!.body.messages as { content: unknown }[])[0]!.content).toEqual([
      { type: "text", text: "compare" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
    ]);
    const bmp = { type: "image_url" as const, image_url: { url: "data:image/bmp;base64,AA==" } };
    await expect(p.generate({ kind: "chat", messages: [{ role: "user", content: [bmp] }], params: { maxTokens: 8 } })).rejects.toThrow(
      /messages\[0\]\.content\[0\]: the Anthropic API does not accept images of type image\/bmp/,
    );
  });

  it("maps max_tokens to length, stop sequences to stop, thinking to reasoning content", async () => {
    const s = await dev({ policy: () => ({ content: "one two three END four", reasoningContent: "let me think" }) });
    const p = provider(s);
    const cut = await p.generate(ask("x", { maxTokens: 4 }));
    expect(cut.finishReason).toBe("length");
    expect(cut.reasoningContent).toBe("let me think");
    expect(cut.text).toBe("one");
    const stopped = await p.generate(ask("x", { maxTokens: 64, stop: ["END"] }));
    expect(stopped.finishReason).toBe("stop");
    expect(stopped.text).toBe("one two three ");
  });

  it("serves n > 1 with repeated requests and sums their usage", async () => {
    const s = await dev();
    const p = provider(s);
    const r = await p.generate(ask("hi you", { maxTokens: 8, n: 3 }));
    expect(r.choices).toHaveLength(3);
    expect(r.choices.every((c) => c.text === "hi you")).toBe(true);
    expect(r.usage).toEqual({ promptTokens: 24, completionTokens: 6, totalTokens: 30 });
    expect(s.stats().requests["/v1/messages"]).toBe(3);
  });

  it("takes max_tokens from the params, else defaultMaxTokens, else refuses with a clear ConfigError", async () => {
    const { seen, policy } = recording();
    const s = await dev({ policy });
    await provider(s, { defaultMaxTokens: 77 }).generate(ask("a", {}));
    expect(seen[0]!.body.max_tokens).toBe(77);
    const error = await provider(s)
      .generate(ask("a", {}))
      .catch((e: unknown) => e);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/requires max_tokens/);
    expect(seen).toHaveLength(1);
  });

  it("refuses completion requests with a ConfigError, before any request", async () => {
    const s = await dev();
    const error = await provider(s)
      .generate({ kind: "completion", prompt: "2 + 2 =", params: { maxTokens: 4 } })
      .catch((e: unknown) => e);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/no completion endpoint/);
    expect(s.stats().requests["/v1/messages"]).toBeUndefined();
  });

  it("accepts a base URL that already ends in /v1", async () => {
    const s = await dev();
    const p = provider(`${s.url}/v1`);
    expect(p.messagesURL).toBe(`${s.url}/v1/messages`);
    expect((await p.generate(ask("fine"))).text).toBe("fine");
  });
});

describe("anthropic: failures and retries", () => {
  it("retries 429 and 529, waiting as retry-after says", async () => {
    const s = await dev({ faults: { script: ["429", "529"], retryAfterSeconds: 0.3 } });
    const p = provider(s);
    const logs: string[] = [];
    const r = await p.generate(ask("again"), { log: (m) => logs.push(m) });
    expect(r.text).toBe("again");
    // The waits are retry-after's 300 ms; backoff alone would be at most 5 ms here.
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(/attempt 1\/6 failed \(HTTP 429: rate_limit_error: injected fault: rate limit reached\); retrying in 300 ms/);
    expect(logs[1]).toMatch(/attempt 2\/6 failed \(HTTP 529: overloaded_error: Overloaded\); retrying in 300 ms/);
    expect(s.stats().faults).toEqual({ "429": 1, "529": 1 });
    // Both count as "send less": the limiter halved its limit.
    expect(p.limiter.decreases).toBeGreaterThanOrEqual(1);
  });

  it("retries 5xx, resets and malformed bodies, then gives up with kind, attempts and status", async () => {
    const s = await dev({ faults: { script: ["500", "reset", "malformed"] } });
    expect((await provider(s).generate(ask("through"))).text).toBe("through");
    const always = await dev({ faults: { rate529: 1 }, seed: 1 });
    const error = await failure(provider(always, { maxAttempts: 3, maxRetryAfterMs: 0 }).generate(ask("x")));
    expect(error.kind).toBe("api");
    expect(error.attempts).toBe(3);
    expect(error.status).toBe(529);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterSeconds).toBe(1);
    expect(error.message).toMatch(/failed after 3 attempts \(giving up\): HTTP 529: overloaded_error: Overloaded/);
    expect(error.toRecord()).toEqual({ message: error.message, kind: "api", attempts: 3, status: 529 });
  });

  it("does not retry a 400 or a 401, and keeps the key out of every stored error", async () => {
    const s = await dev();
    const p = provider(s);
    const bad = await failure(p.generate(ask("x", { maxTokens: 8, temperature: 1.7 })));
    expect(bad.status).toBe(400);
    expect(bad.attempts).toBe(1);
    expect(bad.retryable).toBe(false);
    expect(bad.message).toMatch(/\(not retryable\): HTTP 400: invalid_request_error: temperature: /);
    expect(s.stats().requests["/v1/messages"]).toBe(1);
    const wrongKey = await failure(provider(s, { apiKey: "sk-ant-wrong-key-999" }).generate(ask("x")));
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.attempts).toBe(1);
    expect(wrongKey.message).toMatch(/authentication_error: invalid x-api-key/);
    expect(JSON.stringify(wrongKey.toRecord())).not.toContain("sk-ant-wrong-key-999");
  });

  it("scrubs the key from error text a server echoes back", async () => {
    const server: Server = createServer((req, res) => {
      req.resume();
      const body = JSON.stringify({ type: "error", error: { type: "authentication_error", message: `bad key ${req.headers["x-api-key"]}` } });
      res.writeHead(401, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        }),
    );
    const error = await failure(provider(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).generate(ask("x")));
    expect(error.message).toContain("bad key ***");
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify(error.toRecord())).not.toContain(KEY);
  });

  it("a body that is not a message is an invalid-response error, not retried", async () => {
    const server: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ choices: [] }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        }),
    );
    const error = await failure(provider(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).generate(ask("x")));
    expect(error.kind).toBe("invalid-response");
    expect(error.attempts).toBe(1);
    expect(error.message).toMatch(/not a Messages API message \(type: /);
  });

  it("is named by anthropic:<model> and made by the built-in factory", async () => {
    expect(parseModelSpec("anthropic:claude-sonnet-4-5")).toEqual({ provider: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(() => parseModelSpec("anthropic:")).toThrow(ConfigError);
    const p = builtinModelFactories.anthropic!({ modelId: "claude-x", apiKey: KEY });
    expect(p.identity()).toBe("anthropic:claude-x");
    expect((p as AnthropicProvider).messagesURL).toBe("https://api.anthropic.com/v1/messages");
    await p.close?.();
  });

  it("rejects bad settings with a ConfigError naming the key", () => {
    expect(() => createAnthropic({ modelId: "" })).toThrow(/invalid anthropic settings/);
    const error = (() => {
      try {
        createAnthropic({ modelId: "m", baseURL: "https://user:pw@api.anthropic.com" });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(error?.keyPath).toEqual(["baseURL"]);
  });
});
