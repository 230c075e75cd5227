/**
 * Two answers a run must not take at face value: `content: null` with nothing else (no answer, not an
 * empty one), and an error body echoing an API key shorter than 4 characters (scrubbed all the same).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ModelRequest } from "@yardstick/core";
import { afterEach, describe, expect, it } from "vitest";
import { createScrubber, ModelCallError } from "./model-call-error.js";
import { createOpenAICompatible } from "./openai-compatible.js";
import { fastChatResponse, noContentProblem } from "./wire-format.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server on 127.0.0.1 answering every request with `handle` (replies the dev server never sends). */
async function rawServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const s = createServer((req, res) => {
    req.resume();
    req.on("end", () => handle(req, res));
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`;
}

const json = (status: number, body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

const ask: ModelRequest = { kind: "chat", messages: [{ role: "user", content: "Classify: good film" }], params: { maxTokens: 8 } };
const fast = { maxAttempts: 2, backoff: { baseMs: 1, maxMs: 5 }, timeoutMs: 5_000 };

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

const reply = (message: Record<string, unknown>, finish = "stop") => ({ model: "m", choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }] });

describe("openai-compatible: content: null", () => {
  it("with no tool call and no reasoning is an invalid-response error, not an empty answer", async () => {
    for (const [message, why] of [
      [{ content: null }, /the answer has no content \(content: null, no tool call; finish_reason "stop"\)/],
      [{ content: null, refusal: "I can't help with that." }, /no content .*refusal: "I can't help with that\."/],
      [{}, /the answer has no content/],
    ] as const) {
      const p = createOpenAICompatible({ modelId: "m", baseURL: await rawServer(json(200, reply(message))), ...fast });
      closers.push(() => p.close());
      const e = await failure(p.generate(ask));
      expect(e.kind).toBe("invalid-response");
      expect(e.retryable).toBe(false);
      expect(e.message).toMatch(why);
    }
  });

  it("an empty string, or null beside reasoning that used up the tokens, is still an answer", async () => {
    const empty = createOpenAICompatible({ modelId: "m", baseURL: await rawServer(json(200, reply({ content: "" }))), ...fast });
    closers.push(() => empty.close());
    expect((await empty.generate(ask)).text).toBe("");
    const thinking = createOpenAICompatible({
      modelId: "m",
      baseURL: await rawServer(json(200, reply({ content: null, reasoning_content: "let me think" }, "length"))),
      ...fast,
    });
    closers.push(() => thinking.close());
    const r = await thinking.generate(ask);
    expect(r).toMatchObject({ text: "", reasoningContent: "let me think", finishReason: "length" });
  });
});

describe("noContentProblem (shared by the online provider and the batch client)", () => {
  it("names a reply without content, tool call or reasoning, and lets every other reply through", () => {
    const check = (message: Record<string, unknown>) => {
      const body = reply(message);
      return noContentProblem(body, fastChatResponse(body)!);
    };
    expect(check({ content: null })).toBe('the answer has no content (content: null, no tool call; finish_reason "stop")');
    expect(check({ content: "" })).toBeUndefined();
    expect(check({ content: "Positive" })).toBeUndefined();
    expect(check({ content: null, reasoning: "thinking" })).toBeUndefined();
  });
});

describe("API keys shorter than 4 characters", () => {
  it("are scrubbed from an error body that echoes them, where they stand as a word", async () => {
    for (const key of ["k", "ab", "x9z"]) {
      const url = await rawServer((req, res) =>
        json(401, { error: { message: `Incorrect API key provided: ${key}. Header was ${req.headers.authorization}; about abc.` } })(req, res),
      );
      const p = createOpenAICompatible({ modelId: "m", baseURL: url, apiKey: key, ...fast });
      closers.push(() => p.close());
      const e = await failure(p.generate(ask));
      expect(e.status).toBe(401);
      expect(e.message).toContain("Incorrect API key provided: ***. Header was Bearer ***;");
      expect(e.message.replace(/about abc\./, "")).not.toMatch(new RegExp(`(^|[^\\p{L}\\p{N}_-])${key}([^\\p{L}\\p{N}_-]|$)`, "u"));
    }
  });

  it("leave words that merely contain them alone", () => {
    expect(createScrubber(["ab"])("about ab, tab ab-c (ab)")).toBe("about ***, tab ab-c (***)");
    expect(createScrubber(["a.b"])("a.b axb")).toBe("*** axb");
    expect(createScrubber(["sk-long-key"])("xsk-long-keyx")).toBe("x***x");
  });
});
