import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "./dev-server.js";
import { parseDevServerArgs } from "./dev-server-args.js";
import type { DevServerOptions } from "./dev-server-options.js";
import type { DevServerRequest } from "./dev-server-policy.js";
import { promptHash } from "./prompt-hash.js";
import { countTokens } from "./tokenizer.js";

const servers: DevServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: DevServerOptions = {}): Promise<DevServer> {
  const s = await startDevServer(options);
  servers.push(s);
  return s;
}

const VERSION = { "anthropic-version": "2023-06-01" };

async function messages(server: DevServer, body: unknown, headers: Record<string, string> = VERSION) {
  const res = await request(`${server.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: JSON.parse(text) as Record<string, unknown> };
}

const ask = (content: unknown, extra: Record<string, unknown> = {}) => ({
  model: "claude-test",
  max_tokens: 64,
  messages: [{ role: "user", content }],
  ...extra,
});

describe("dev server: POST /v1/messages", () => {
  it("answers with a Messages API message: text block, stop reason, usage, request id", async () => {
    const s = await start();
    const r = await messages(s, ask("hello there"));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      id: "msg_dev_1",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [{ type: "text", text: "hello there" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      // BPE counts: 3 per message and 3 to prime the reply around "hello there" (2 tokens).
      usage: { input_tokens: 8, output_tokens: 2 },
    });
    expect(r.headers["request-id"]).toBe("req_dev_1");
    expect(s.stats().requests["/v1/messages"]).toBe(1);
    expect(s.stats().byPromptHash[promptHash([{ role: "user", content: "hello there" }])]).toBe(1);
  });

  it("gives the policy the system prompt first and the image blocks as data URIs", async () => {
    const seen: DevServerRequest[] = [];
    const s = await start({
      policy: (req) => {
        seen.push(req);
        return "ok";
      },
    });
    const r = await messages(
      s,
      ask(
        [
          { type: "text", text: "what is this?" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
        ],
        { system: "Be brief." },
      ),
    );
    expect(r.status).toBe(200);
    expect(seen[0]!.endpoint).toBe("messages");
    expect(seen[0]!.lastUserText).toBe("what is this?");
    expect(seen[0]!.messages).toEqual([
      { role: "system", content: "Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: "what is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
    ]);
    // The system prompt and the 85-token image count as input (3 tokens per message, 3 to prime the reply).
    expect((r.json.usage as { input_tokens: number }).input_tokens).toBe(3 + 2 * 3 + countTokens("Be brief.") + countTokens("what is this?") + 85);
  });

  it("maps max_tokens and stop sequences to the API's stop reasons, and reasoning to a thinking block", async () => {
    const s = await start({ policy: () => ({ content: "one two three END four", reasoningContent: "Hmm" }) });
    const cut = await messages(s, ask("x", { max_tokens: 2 }));
    expect(cut.json.stop_reason).toBe("max_tokens");
    expect(cut.json.content).toEqual([{ type: "thinking", thinking: "Hmm", signature: "dev-server" }, { type: "text", text: "one" }]);
    const stopped = await messages(s, ask("x", { stop_sequences: ["four", "END"] }));
    expect(stopped.json.stop_reason).toBe("stop_sequence");
    expect(stopped.json.stop_sequence).toBe("END");
    expect((stopped.json.content as { text?: string }[])[1]!.text).toBe("one two three ");
  });

  it("checks x-api-key when started with a key, and requires anthropic-version", async () => {
    const s = await start({ apiKey: "sk-dev-secret" });
    const none = await messages(s, ask("hi"));
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ type: "error", error: { type: "authentication_error", message: "x-api-key header is required" } });
    const wrong = await messages(s, ask("hi"), { ...VERSION, "x-api-key": "sk-other" });
    expect(wrong.status).toBe(401);
    expect((wrong.json.error as { message: string }).message).toBe("invalid x-api-key");
    const noVersion = await messages(s, ask("hi"), { "x-api-key": "sk-dev-secret" });
    expect(noVersion.status).toBe(400);
    expect(noVersion.json).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "anthropic-version: header is required" },
      request_id: expect.stringMatching(/^req_dev_\d+$/),
    });
    const ok = await messages(s, ask("hi"), { ...VERSION, "x-api-key": "sk-dev-secret" });
    expect(ok.status).toBe(200);
    // Without a key the server takes any request.
    const open = await start();
    expect((await messages(open, ask("hi"))).status).toBe(200);
  });

  it("rejects what the API rejects: no max_tokens, a system role message, roles in a row, a bad image type", async () => {
    const s = await start();
    const bad = async (body: unknown) => {
      const r = await messages(s, body);
      expect(r.status).toBe(400);
      expect((r.json.error as { type: string }).type).toBe("invalid_request_error");
      return (r.json.error as { message: string }).message;
    };
    expect(await bad({ model: "m", messages: [{ role: "user", content: "hi" }] })).toMatch(/^max_tokens: /);
    expect(await bad(ask("hi", { messages: [{ role: "system", content: "x" }] }))).toMatch(/^messages\.0\.role: /);
    expect(
      await bad(
        ask("hi", {
          messages: [
            { role: "user", content: "a" },
            { role: "user", content: "b" },
          ],
        }),
      ),
    ).toMatch(/roles must alternate between "user" and "assistant", but found multiple "user" roles in a row/);
    expect(await bad(ask([{ type: "image", source: { type: "base64", media_type: "image/bmp", data: "AA==" } }]))).toMatch(/^messages\.0\.content: /);
    expect(await bad(ask("hi", { temperature: 1.5 }))).toMatch(/^temperature: /);
    expect(await bad("{not json")).toMatch(/not valid JSON/);
    const get = await request(`${s.url}/v1/messages`);
    expect(get.statusCode).toBe(405);
    expect(((await get.body.json()) as { type: string }).type).toBe("error");
  });

  it("injects 429 and 529 with retry-after, and 500, in the API's error shape", async () => {
    const s = await start({ faults: { script: ["429", "529", "500", null], retryAfterSeconds: 2 } });
    const limited = await messages(s, ask("hi"));
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("2");
    expect(limited.json.error).toEqual({ type: "rate_limit_error", message: "injected fault: rate limit reached" });
    const overloaded = await messages(s, ask("hi"));
    expect(overloaded.status).toBe(529);
    expect(overloaded.headers["retry-after"]).toBe("2");
    expect(overloaded.json.error).toEqual({ type: "overloaded_error", message: "Overloaded" });
    const broken = await messages(s, ask("hi"));
    expect(broken.status).toBe(500);
    expect((broken.json.error as { type: string }).type).toBe("api_error");
    expect((await messages(s, ask("hi"))).status).toBe(200);
    expect(s.stats().faults).toEqual({ "429": 1, "529": 1, "500": 1 });
    expect(s.stats().requests["/v1/messages"]).toBe(4);
  });

  it("takes --api-key and --fail-rate-529 on the command line", () => {
    expect(parseDevServerArgs(["--api-key", "sk-dev", "--fail-rate-529", "0.5"]).options).toMatchObject({
      apiKey: "sk-dev",
      faults: { rate529: 0.5 },
    });
    expect(() => parseDevServerArgs(["--api-key="])).toThrow(/apiKey/);
  });

  it("a 529 fault on the OpenAI endpoints is a 529 with retry-after too", async () => {
    const s = await start({ faults: { rate529: 1 } });
    const res = await request(`${s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.statusCode).toBe(529);
    expect(res.headers["retry-after"]).toBe("1");
    expect(((await res.body.json()) as { error: { type: string } }).error.type).toBe("overloaded_error");
  });
});
