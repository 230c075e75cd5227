/** Tool calls through both providers, against the dev server (and a raw server for replies it would never send). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ConfigError, type ChatMessage, type GenerationParams, type ModelRequest, type ToolDefinition } from "@yardstick/core";
import { type DevServer, type DevServerRequest, devServerToolArguments, promptHash, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnthropic } from "./anthropic.js";
import { ModelCallError } from "./model-call-error.js";
import { createOpenAICompatible } from "./openai-compatible.js";

const verdictTool: ToolDefinition = {
  name: "record_verdict",
  description: "Record which answer is better",
  parameters: {
    type: "object",
    properties: { verdict: { type: "string", enum: ["A", "B", "tie"] }, score: { type: "integer", minimum: 1, maximum: 5 } },
    required: ["verdict", "score"],
  },
};
const noteTool: ToolDefinition = { name: "note", parameters: { type: "object", properties: { text: { type: "string" } } } };

const messages: ChatMessage[] = [
  { role: "system", content: "You are a judge." },
  { role: "user", content: "Answer A: Paris. Answer B: Lyon. Which is the capital of France?" },
];
const chat = (params: GenerationParams, m: ChatMessage[] = messages): ModelRequest => ({ kind: "chat", messages: m, params });

let server: DevServer;
const seen: DevServerRequest[] = [];
beforeAll(async () => {
  server = await startDevServer({
    policy: (req) => {
      seen.push(req);
      return "plain answer";
    },
  });
});
afterAll(async () => {
  await server?.close();
});

const fast = { maxAttempts: 2, backoff: { baseMs: 1, maxMs: 5 }, timeoutMs: 5_000 };
const openai = (baseURL = `${server.url}/v1`) => createOpenAICompatible({ modelId: "judge", baseURL, ...fast });
const anthropic = (baseURL = server.url) => createAnthropic({ modelId: "claude-judge", baseURL, defaultMaxTokens: 256, ...fast });

/** The body the dev server received last. */
const lastBody = () => seen[seen.length - 1]!.body;

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe("openai-compatible: tool calls", () => {
  it("sends tools and a forced tool_choice and reads the call back with its arguments parsed", async () => {
    const p = openai();
    try {
      const r = await p.generate(chat({ maxTokens: 200, tools: [verdictTool], toolChoice: { name: "record_verdict" } }));
      expect(lastBody().tools).toEqual([{ type: "function", function: { name: "record_verdict", description: verdictTool.description, parameters: verdictTool.parameters } }]);
      expect(lastBody().tool_choice).toEqual({ type: "function", function: { name: "record_verdict" } });
      const expected = devServerToolArguments(verdictTool.parameters, promptHash(messages));
      expect(["A", "B", "tie"]).toContain(expected.verdict);
      expect(r.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: "record_verdict", arguments: expected }]);
      expect(r.choices[0]!.toolCalls).toEqual(r.toolCalls);
      expect(r.text).toBe("");
      expect(r.usage?.completionTokens).toBeGreaterThan(0);
    } finally {
      await p.close();
    }
  });

  it("the forced choice follows the prompt: different conversations can get different enum values", async () => {
    const p = openai();
    try {
      const verdicts = new Set<unknown>();
      for (let i = 0; i < 12; i++) {
        const m: ChatMessage[] = [{ role: "user", content: `Compare the answers of item ${i}.` }];
        const r = await p.generate(chat({ tools: [verdictTool], toolChoice: "required" }, m));
        expect(r.finishReason).toBe("tool_calls");
        expect(r.toolCalls?.[0]?.arguments).toEqual(devServerToolArguments(verdictTool.parameters, promptHash(m)));
        verdicts.add(r.toolCalls?.[0]?.arguments.verdict);
      }
      expect(verdicts.size).toBeGreaterThan(1);
      expect(lastBody().tool_choice).toBe("required");
    } finally {
      await p.close();
    }
  });

  it("auto with no tool worth calling gives plain text and no toolCalls", async () => {
    const p = openai();
    try {
      const r = await p.generate(chat({ tools: [noteTool], toolChoice: "auto" }));
      expect(lastBody().tool_choice).toBe("auto");
      expect(r.text).toBe("plain answer");
      expect(r.toolCalls).toBeUndefined();
      expect(r.choices[0]!.toolCalls).toBeUndefined();
      expect(r.finishReason).toBe("stop");
    } finally {
      await p.close();
    }
  });

  it("arguments cut short by max_tokens are an invalid-response error naming the tool call, not retried", async () => {
    const p = openai();
    try {
      const before = server.stats().requests["/v1/chat/completions"] ?? 0;
      const error = await failure(p.generate(chat({ maxTokens: 3, tools: [verdictTool], toolChoice: { name: "record_verdict" } })));
      expect(error.kind).toBe("invalid-response");
      expect(error.retryable).toBe(false);
      expect(error.attempts).toBe(1);
      expect(error.message).toMatch(/malformed tool call \(choices\.0\.message\.tool_calls\.0\.function\.arguments: not valid JSON/);
      expect(server.stats().requests["/v1/chat/completions"]).toBe(before + 1);
    } finally {
      await p.close();
    }
  });

  it("refuses a tool choice without tools and a forced tool that is not offered, before sending", async () => {
    const p = openai();
    try {
      const count = seen.length;
      await expect(p.generate(chat({ toolChoice: "required" }))).rejects.toThrow(ConfigError);
      await expect(p.generate(chat({ tools: [noteTool], toolChoice: { name: "record_verdict" } }))).rejects.toThrow(/"record_verdict", which is not in params.tools/);
      await expect(p.generate({ kind: "completion", prompt: "x", params: { tools: [noteTool] } })).rejects.toThrow(/tools need a chat request/);
      expect(seen.length).toBe(count);
    } finally {
      await p.close();
    }
  });
});

describe("anthropic: tool use", () => {
  it("sends tools with input_schema and tool_choice tool, and maps tool_use blocks to toolCalls", async () => {
    const p = anthropic();
    try {
      const r = await p.generate(chat({ tools: [verdictTool], toolChoice: { name: "record_verdict" } }));
      expect(lastBody().tools).toEqual([{ name: "record_verdict", description: verdictTool.description, input_schema: verdictTool.parameters }]);
      expect(lastBody().tool_choice).toEqual({ type: "tool", name: "record_verdict" });
      // The system prompt travels apart, yet the conversation hashes as over chat completions.
      expect(r.toolCalls).toEqual([{ id: expect.stringMatching(/^toolu_/), name: "record_verdict", arguments: devServerToolArguments(verdictTool.parameters, promptHash(messages)) }]);
      expect(r.choices[0]!.toolCalls).toEqual(r.toolCalls);
      expect(r.finishReason).toBe("tool_calls");
      expect(r.text).toBe("");
    } finally {
      await p.close();
    }
  });

  it('"required" is tool_choice any; auto without an enum tool answers text', async () => {
    const p = anthropic();
    try {
      const forced = await p.generate(chat({ tools: [noteTool], toolChoice: "required" }));
      expect(lastBody().tool_choice).toEqual({ type: "any" });
      expect(forced.toolCalls).toEqual([{ id: expect.any(String), name: "note", arguments: { text: "dev" } }]);
      const text = await p.generate(chat({ tools: [noteTool], toolChoice: "auto" }));
      expect(lastBody().tool_choice).toEqual({ type: "auto" });
      expect(text.text).toBe("plain answer");
      expect(text.toolCalls).toBeUndefined();
      expect(text.finishReason).toBe("stop");
    } finally {
      await p.close();
    }
  });

  it("n > 1 gives every choice its tool call", async () => {
    const p = anthropic();
    try {
      const r = await p.generate(chat({ n: 2, tools: [verdictTool], toolChoice: "required" }));
      expect(r.choices.map((c) => c.toolCalls?.[0]?.name)).toEqual(["record_verdict", "record_verdict"]);
    } finally {
      await p.close();
    }
  });
});

/** A server that answers every POST with `body` (status 200), for replies the dev server never sends. */
async function rawServer(body: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const s: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const text = JSON.stringify(body);
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      }),
  };
}

const openAIReply = (toolCalls: unknown) => ({
  model: "judge",
  choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: toolCalls }, finish_reason: "tool_calls" }],
  usage: { prompt_tokens: 5, completion_tokens: 3 },
});

describe("malformed tool calls from a server", () => {
  it("openai-compatible: arguments that are not JSON, or not an object, are a clear invalid-response error", async () => {
    for (const [args, why] of [
      ['{"verdict": "A"', /arguments: not valid JSON .*"\{\\"verdict\\": \\"A\\""/],
      ["[1, 2]", /arguments: expected a JSON object, got "\[1, 2\]"/],
    ] as const) {
      const raw = await rawServer(openAIReply([{ id: "call_1", type: "function", function: { name: "record_verdict", arguments: args } }]));
      const p = openai(`${raw.url}/v1`);
      try {
        const error = await failure(p.generate(chat({ tools: [verdictTool], toolChoice: "required" })));
        expect(error.kind).toBe("invalid-response");
        expect(error.message).toMatch(/openai-compatible model "judge": POST .* malformed tool call \(choices\.0\.message\.tool_calls\.0\.function\./);
        expect(error.message).toMatch(why);
      } finally {
        await p.close();
        await raw.close();
      }
    }
  });

  it("openai-compatible: an empty tool_calls list is a plain answer, an object arguments field is taken as is", async () => {
    const raw = await rawServer({
      choices: [
        { index: 0, message: { content: "text", tool_calls: [] }, finish_reason: "stop" },
        { index: 1, message: { content: null, tool_calls: [{ function: { name: "f", arguments: { a: 1 } } }] }, finish_reason: "tool_calls" },
      ],
    });
    const p = openai(`${raw.url}/v1`);
    try {
      const r = await p.generate(chat({ tools: [verdictTool] }));
      expect(r.toolCalls).toBeUndefined();
      expect(r.choices[1]!.toolCalls).toEqual([{ name: "f", arguments: { a: 1 } }]);
    } finally {
      await p.close();
      await raw.close();
    }
  });

  it("anthropic: a tool_use block without an object input is a clear invalid-response error", async () => {
    const raw = await rawServer({
      type: "message",
      role: "assistant",
      model: "claude-judge",
      content: [{ type: "tool_use", id: "toolu_1", name: "record_verdict", input: '{"verdict": "A"}' }],
      stop_reason: "tool_use",
      usage: { input_tokens: 5, output_tokens: 3 },
    });
    const p = anthropic(raw.url);
    try {
      const error = await failure(p.generate(chat({ tools: [verdictTool], toolChoice: "required" })));
      expect(error.kind).toBe("invalid-response");
      expect(error.retryable).toBe(false);
      expect(error.message).toMatch(/not a Messages API message \(content\.0\.input: a tool_use block's input must be a JSON object/);
    } finally {
      await p.close();
      await raw.close();
    }
  });
});
