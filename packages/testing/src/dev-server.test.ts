import { fileURLToPath } from "node:url";
import { DataLoadError } from "@yardstick/core";
import { Client, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "./dev-server.js";
import type { DevServerOptions } from "./dev-server-options.js";
import type { DevServerRequest } from "./dev-server-policy.js";
import { promptHash } from "./prompt-hash.js";

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

const servers: DevServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: DevServerOptions = {}): Promise<DevServer> {
  const s = await startDevServer(options);
  servers.push(s);
  return s;
}

async function post(server: DevServer, path: string, body: unknown) {
  const res = await request(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

const chat = (content: string | unknown[], extra: Record<string, unknown> = {}) => ({
  model: "m",
  messages: [{ role: "user", content }],
  ...extra,
});

describe("dev server: models and routing", () => {
  it("lists models and answers unknown paths with an OpenAI-style 404", async () => {
    const s = await start({ models: ["a", "b"] });
    expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
    const models = await request(`${s.url}/v1/models`);
    const body = (await models.body.json()) as { object: string; data: { id: string }[] };
    expect(body.object).toBe("list");
    expect(body.data.map((m) => m.id)).toEqual(["a", "b"]);
    const missing = await request(`${s.url}/v1/nope`);
    expect(missing.statusCode).toBe(404);
    expect(((await missing.body.json()) as { error: { message: string } }).error.message).toContain("/v1/nope");
    const wrongMethod = await request(`${s.url}/v1/chat/completions`);
    expect(wrongMethod.statusCode).toBe(405);
    await wrongMethod.body.dump();
  });

  it("reports a model root (vLLM's ModelCard fields): given, or derived from the answer policy", async () => {
    type Card = { id: string; object: string; owned_by: string; root: string; parent: null; max_model_len: number; permission: unknown[] };
    const cards = async (options: DevServerOptions): Promise<Card[]> => {
      const s = await start(options);
      return ((await (await request(`${s.url}/v1/models`)).body.json()) as { data: Card[] }).data;
    };
    const given = await cards({ models: ["a", "b"], root: "/models/qwen3-8b/step-1000", maxModelLen: 4096 });
    expect(given).toEqual([
      { id: "a", object: "model", created: 0, owned_by: "yardstick", root: "/models/qwen3-8b/step-1000", parent: null, max_model_len: 4096, permission: [] },
      { id: "b", object: "model", created: 0, owned_by: "yardstick", root: "/models/qwen3-8b/step-1000", parent: null, max_model_len: 4096, permission: [] },
    ]);
    const rootOf = async (options: DevServerOptions) => (await cards(options))[0]!.root;
    const echo = await rootOf({});
    expect(echo).toBe("yardstick-dev/echo");
    expect((await cards({}))[0]!.max_model_len).toBe(32768);
    // Same policy, same root (across servers); another policy, another root.
    expect(await rootOf({ policy: { fixed: "A" } })).toBe(await rootOf({ policy: { fixed: "A" } }));
    const roots = [
      echo,
      await rootOf({ policy: { fixed: "A" } }),
      await rootOf({ policy: { fixed: "B" } }),
      await rootOf({ policy: { file: fixture("answers.jsonl") } }),
      await rootOf({ policy: { file: fixture("answers.jsonl"), fallback: "x" } }),
      await rootOf({ policy: () => "one" }),
      await rootOf({ policy: () => "two" }),
    ];
    expect(new Set(roots).size).toBe(roots.length);
  });

  it("rejects invalid bodies with 400 and names the bad field", async () => {
    const s = await start();
    const notJson = await post(s, "/v1/chat/completions", "{nope");
    expect(notJson.status).toBe(400);
    expect(notJson.json().error.type).toBe("invalid_request_error");
    const badRole = await post(s, "/v1/chat/completions", { model: "m", messages: [{ role: "robot", content: "x" }] });
    expect(badRole.status).toBe(400);
    expect(badRole.json().error.param).toBe("messages.0.role");
    const badTemp = await post(s, "/v1/completions", { model: "m", prompt: "x", temperature: 9 });
    expect(badTemp.status).toBe(400);
    expect(badTemp.json().error.param).toBe("temperature");
    const noMessages = await post(s, "/v1/chat/completions", { model: "m", messages: [] });
    expect(noMessages.status).toBe(400);
  });

  it("rejects bad options with a ConfigError", async () => {
    await expect(startDevServer({ faults: { rate429: 0.7, rate500: 0.7 } })).rejects.toThrow(/at most 1/);
    await expect(startDevServer({ latencyMs: { min: 5, max: 1 } })).rejects.toThrow(/min must not exceed max/);
    await expect(startDevServer({ policy: { bogus: 1 } as never })).rejects.toThrow(/policy/);
  });
});

describe("dev server: chat completions", () => {
  it("echoes the last user message, accepting image parts and unknown fields", async () => {
    const s = await start();
    const res = await post(
      s,
      "/v1/chat/completions",
      chat(
        [
          { type: "text", text: "describe" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          { type: "text", text: "this" },
        ],
        { chat_template_kwargs: { enable_thinking: false }, temperature: 0, top_p: 1, seed: 3 },
      ),
    );
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.object).toBe("chat.completion");
    expect(body.choices[0].message).toEqual({ role: "assistant", content: "describe\nthis" });
    expect(body.choices[0].finish_reason).toBe("stop");
    // o200k BPE: "describe", "\n", "this".
    expect(body.usage.completion_tokens).toBe(3);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + 3);
  });

  it("cuts at max_tokens with finish_reason length, and at stop strings", async () => {
    const s = await start({ policy: { fixed: "one two three four. five" } });
    const cut = (await post(s, "/v1/chat/completions", chat("x", { max_tokens: 2 }))).json();
    expect(cut.choices[0].message.content).toBe("one two");
    expect(cut.choices[0].finish_reason).toBe("length");
    expect(cut.usage.completion_tokens).toBe(2);
    const stopped = (await post(s, "/v1/chat/completions", chat("x", { stop: ["."] }))).json();
    expect(stopped.choices[0].message.content).toBe("one two three four");
    expect(stopped.choices[0].finish_reason).toBe("stop");
    const many = (await post(s, "/v1/chat/completions", chat("x", { n: 3 }))).json();
    expect(many.choices.map((c: { index: number }) => c.index)).toEqual([0, 1, 2]);
  });

  it("returns reasoning_content from a policy, spending max_tokens on it first", async () => {
    const s = await start({ policy: () => ({ content: "42", reasoningContent: "six times seven" }) });
    const full = (await post(s, "/v1/chat/completions", chat("q"))).json();
    expect(full.choices[0].message).toMatchObject({ content: "42", reasoning_content: "six times seven" });
    expect(full.usage.completion_tokens_details.reasoning_tokens).toBe(3);
    expect(full.usage.completion_tokens).toBe(4);
    const short = (await post(s, "/v1/chat/completions", chat("q", { max_tokens: 2 }))).json();
    expect(short.choices[0].message).toMatchObject({ content: "", reasoning_content: "six times" });
    expect(short.choices[0].finish_reason).toBe("length");
  });

  it("gives function policies the whole body, extra fields included, and awaits async ones", async () => {
    const seen: DevServerRequest[] = [];
    const s = await start({
      policy: async (req) => {
        seen.push(req);
        return `got ${req.lastUserText}`;
      },
    });
    const res = (await post(s, "/v1/chat/completions", chat("hi", { chat_template_kwargs: { enable_thinking: true } }))).json();
    expect(res.choices[0].message.content).toBe("got hi");
    expect(seen[0]!.endpoint).toBe("chat");
    expect(seen[0]!.body.chat_template_kwargs).toEqual({ enable_thinking: true });
  });

  it("answers 500 when a policy throws or returns a bad value", async () => {
    const s = await start({ policy: () => ({ nope: 1 }) as never });
    const res = await post(s, "/v1/chat/completions", chat("x"));
    expect(res.status).toBe(500);
    expect(res.json().error.message).toMatch(/policy/);
  });

  it("streams server-sent events that reassemble to the answer", async () => {
    const s = await start({ policy: () => ({ content: "Hello there, friend", reasoningContent: "be nice" }) });
    const client = new Client(s.url);
    try {
      const res = await client.request({
        path: "/v1/chat/completions",
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(chat("x", { stream: true, stream_options: { include_usage: true } })),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/event-stream");
      const raw = await res.body.text();
      const events = raw
        .split("\n\n")
        .filter((e) => e !== "")
        .map((e) => {
          expect(e.startsWith("data: ")).toBe(true);
          return e.slice("data: ".length);
        });
      expect(events.at(-1)).toBe("[DONE]");
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
      expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
      let content = "";
      let reasoning = "";
      let finish: string | null = null;
      for (const c of chunks) {
        for (const choice of c.choices) {
          content += choice.delta.content ?? "";
          reasoning += choice.delta.reasoning_content ?? "";
          finish = choice.finish_reason ?? finish;
        }
      }
      expect(content).toBe("Hello there, friend");
      expect(reasoning).toBe("be nice");
      expect(finish).toBe("stop");
      expect(chunks.at(-1).usage.completion_tokens).toBe(6);
    } finally {
      await client.close();
    }
  });
});

describe("dev server: legacy completions and logprobs", () => {
  it("echoes the prompt with max_tokens 0 and gives deterministic logprobs in the legacy shape", async () => {
    const s = await start({ policy: { fixed: "Paris" } });
    const prompt = "The capital of France is Paris";
    const a = (await post(s, "/v1/completions", { model: "m", prompt, max_tokens: 0, echo: true, logprobs: 1 })).json();
    const b = (await post(s, "/v1/completions", { model: "m", prompt, max_tokens: 0, echo: true, logprobs: 1 })).json();
    const lp = a.choices[0].logprobs;
    expect(a.choices[0].text).toBe(prompt);
    expect(lp).toEqual(b.choices[0].logprobs);
    expect(lp.tokens.join("")).toBe(prompt);
    expect(lp.text_offset).toEqual([0, 3, 11, 14, 21, 24]);
    expect(lp.token_logprobs[0]).toBeNull();
    expect(lp.top_logprobs[0]).toBeNull();
    for (const v of lp.token_logprobs.slice(1)) expect(v).toBeLessThan(0);
    // The answer's token is likely and greedy; the others are not.
    const paris = lp.tokens.indexOf(" Paris");
    expect(lp.token_logprobs[paris]).toBeGreaterThan(-0.5);
    expect(Object.keys(lp.top_logprobs[paris])).toEqual([" Paris"]);
    expect(lp.token_logprobs[1]).toBeLessThan(-2);
    expect(Object.keys(lp.top_logprobs[1])).not.toContain(" capital");
  });

  it("makes the policy's answer the more likely continuation", async () => {
    const s = await start({ policy: { file: fixture("answers.jsonl") } });
    const context = "Question: capital of Japan?\nAnswer:";
    const score = async (continuation: string) => {
      const prompt = context + continuation;
      const res = (await post(s, "/v1/completions", { model: "m", prompt, max_tokens: 0, echo: true, logprobs: 1 })).json();
      const lp = res.choices[0].logprobs;
      let sum = 0;
      lp.text_offset.forEach((o: number, i: number) => {
        if (o >= context.length) sum += lp.token_logprobs[i];
      });
      return sum;
    };
    expect(await score(" Tokyo")).toBeGreaterThan(await score(" Kyoto"));
    expect(await score(" Tokyo")).toBeGreaterThan(await score(" Osaka"));
  });

  it("generates after the prompt: offsets count from the prompt start, default max_tokens is 16", async () => {
    const s = await start({ policy: { fixed: Array.from({ length: 20 }, (_, i) => `w${i}`).join(" ") } });
    const res = (await post(s, "/v1/completions", { model: "m", prompt: "Go:", logprobs: 0 })).json();
    const choice = res.choices[0];
    expect(choice.finish_reason).toBe("length");
    expect(choice.logprobs.tokens).toHaveLength(16);
    expect(choice.logprobs.text_offset[0]).toBe(3);
    expect(choice.logprobs.top_logprobs[0]).toBeNull();
    expect(res.usage).toEqual({ prompt_tokens: 2, completion_tokens: 16, total_tokens: 18 });
  });
});

describe("dev server: policies from files", () => {
  it("looks answers up in JSONL by the last user message, with a fallback", async () => {
    const s = await start({ policy: { file: fixture("answers.jsonl"), fallback: "no idea" } });
    const hit = (await post(s, "/v1/chat/completions", chat("What is the capital of France?"))).json();
    expect(hit.choices[0].message.content).toBe("Paris");
    const reasoned = (await post(s, "/v1/chat/completions", chat("Think first: 2+2?"))).json();
    expect(reasoned.choices[0].message).toMatchObject({ content: "4", reasoning_content: "two plus two is four" });
    const miss = (await post(s, "/v1/chat/completions", chat("unknown"))).json();
    expect(miss.choices[0].message.content).toBe("no idea");
  });

  it("reads a JSON object file and echoes on a miss without fallback", async () => {
    const s = await start({ policy: { file: fixture("answers.json") } });
    expect((await post(s, "/v1/chat/completions", chat("ping"))).json().choices[0].message.content).toBe("pong");
    expect((await post(s, "/v1/chat/completions", chat("other"))).json().choices[0].message.content).toBe("other");
  });

  it("reports a bad answer file as a DataLoadError with the line", async () => {
    const err = await startDevServer({ policy: { file: fixture("bad-answers.jsonl") } }).catch((e: unknown) => e);
    expect(DataLoadError.isInstance(err)).toBe(true);
    expect((err as Error).message).toMatch(/bad-answers\.jsonl:2/);
    await expect(startDevServer({ policy: { file: fixture("missing.json") } })).rejects.toThrow(/cannot read/);
  });
});

describe("dev server: stats", () => {
  it("counts requests per path and per prompt hash, and resets", async () => {
    const s = await start();
    const messages = [
      { role: "system" as const, content: "be brief" },
      { role: "user" as const, content: "hi" },
    ];
    await post(s, "/v1/chat/completions", { model: "m", messages });
    await post(s, "/v1/chat/completions", { model: "m", messages, temperature: 0.5 });
    await post(s, "/v1/completions", { model: "m", prompt: "abc", max_tokens: 1 });
    const res = await request(`${s.url}/stats`);
    const stats = (await res.body.json()) as ReturnType<DevServer["stats"]>;
    expect(stats.requests["/v1/chat/completions"]).toBe(2);
    expect(stats.requests["/v1/completions"]).toBe(1);
    expect(stats.byPromptHash[promptHash(messages)]).toBe(2);
    expect(stats.byPromptHash[promptHash("abc")]).toBe(1);
    expect(promptHash(messages)).not.toBe(promptHash([{ role: "user", content: "hi" }]));
    s.resetStats();
    expect(s.stats()).toEqual({ requests: {}, retries: {}, byPromptHash: {}, faults: {}, batches: { created: 0, requests: 0 } });
  });
});

describe("dev server: faults", () => {
  it("plays a fault script: 429 with Retry-After, 500, malformed JSON, reset, then answers", async () => {
    const s = await start({ faults: { script: ["429", "500", "malformed", "reset", null], retryAfterSeconds: 7 } });
    const r429 = await post(s, "/v1/chat/completions", chat("a"));
    expect(r429.status).toBe(429);
    expect(r429.headers["retry-after"]).toBe("7");
    expect(r429.json().error.code).toBe("rate_limit_exceeded");
    expect((await post(s, "/v1/chat/completions", chat("a"))).status).toBe(500);
    const bad = await post(s, "/v1/chat/completions", chat("a"));
    expect(bad.status).toBe(200);
    expect(() => bad.json()).toThrow();
    await expect(post(s, "/v1/chat/completions", chat("a"))).rejects.toThrow();
    const ok = await post(s, "/v1/chat/completions", chat("a"));
    expect(ok.json().choices[0].message.content).toBe("a");
    expect(s.stats().faults).toEqual({ "429": 1, "500": 1, malformed: 1, reset: 1 });
  });

  it("hangs until the client gives up, and close() drops hung requests", async () => {
    const s = await startDevServer({ faults: { script: ["hang", "hang"] } });
    const timedOut = request(`${s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(chat("a")),
      signal: AbortSignal.timeout(150),
    });
    await expect(timedOut).rejects.toThrow(/timeout|abort/i);
    const dropped = post(s, "/v1/chat/completions", chat("a"));
    await new Promise((r) => setTimeout(r, 50));
    await s.close();
    await expect(dropped).rejects.toThrow();
  });

  it("draws faults at the configured rates from a seeded PRNG", async () => {
    const run = async (seed: number) => {
      const s = await start({ seed, faults: { rate500: 0.3 } });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await post(s, "/v1/chat/completions", chat("a"))).status);
      return statuses;
    };
    const a = await run(1);
    expect(await run(1)).toEqual(a);
    const failures = a.filter((x) => x === 500).length;
    expect(failures).toBeGreaterThan(3);
    expect(failures).toBeLessThan(25);
    expect(a.every((x) => x === 200 || x === 500)).toBe(true);
    expect(await run(2)).not.toEqual(a);
  });
});

describe("dev server: latency", () => {
  it("waits the fixed latency before answering", async () => {
    const s = await start({ latencyMs: 60 });
    const started = performance.now();
    const res = await post(s, "/v1/chat/completions", chat("slow"));
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(res.json().choices[0].message.content).toBe("slow");
  });

  it("counts the latency from the request's arrival, so a slow upload is inside it, not added to it", async () => {
    const s = await start({ latencyMs: 300 });
    const text = JSON.stringify(chat("upload"));
    async function* slowBody() {
      yield Buffer.from(text.slice(0, 10));
      await new Promise((resolve) => setTimeout(resolve, 250));
      yield Buffer.from(text.slice(10));
    }
    const started = performance.now();
    const res = await request(`${s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) },
      body: slowBody(),
    });
    const elapsed = performance.now() - started;
    expect((await res.body.json()) as unknown).toMatchObject({ choices: [{ message: { content: "upload" } }] });
    // Added after the body, the answer would come at 250 + 300 ms.
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(500);
  });
});
