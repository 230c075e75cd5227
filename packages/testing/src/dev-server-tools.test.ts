import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "./dev-server.js";
import { devServerToolArguments, toolToCall } from "./dev-server-tools.js";
import { promptHash } from "./prompt-hash.js";
import { countTokens } from "./tokenizer.js";

let server: DevServer;
beforeAll(async () => {
  server = await startDevServer({ policy: { fixed: "plain text" } });
});
afterAll(async () => {
  await server?.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, json: (await res.body.json()) as Record<string, any> };
}
const chat = (body: unknown) => post("/v1/chat/completions", body);
const messages = (body: unknown) => post("/v1/messages", body, { "anthropic-version": "2023-06-01" });

const verdictSchema = {
  type: "object",
  properties: {
    verdict: { type: "string", enum: ["A", "B", "tie"] },
    score: { type: "integer", minimum: 1, maximum: 5 },
    confident: { type: "boolean" },
    reason: { type: "string", minLength: 5 },
  },
  required: ["verdict", "score"],
  additionalProperties: false,
};
const userMessages = [{ role: "user", content: "Which answer is better?" }];
const openAITool = { type: "function", function: { name: "record_verdict", description: "Record the verdict", parameters: verdictSchema } };
const anthropicTool = { name: "record_verdict", description: "Record the verdict", input_schema: verdictSchema };

describe("devServerToolArguments", () => {
  it("satisfies enums, integer bounds, booleans, string lengths and required keys", () => {
    const seen = new Set<unknown>();
    for (let i = 0; i < 40; i++) {
      const args = devServerToolArguments(verdictSchema, `hash-${i}`);
      expect(Object.keys(args).sort()).toEqual(["confident", "reason", "score", "verdict"]);
      expect(["A", "B", "tie"]).toContain(args.verdict);
      expect(Number.isInteger(args.score) && (args.score as number) >= 1 && (args.score as number) <= 5).toBe(true);
      expect(typeof args.confident).toBe("boolean");
      expect((args.reason as string).length).toBeGreaterThanOrEqual(5);
      seen.add(args.verdict);
    }
    // The hash spreads the picks over the enum.
    expect(seen.size).toBe(3);
    expect(devServerToolArguments(verdictSchema, "same")).toEqual(devServerToolArguments(verdictSchema, "same"));
  });

  it("follows $ref into $defs, takes anyOf's non-null branch and honours exclusive bounds", () => {
    const schema = {
      type: "object",
      $defs: { Grade: { type: "string", enum: ["pass", "fail"] } },
      properties: {
        grade: { $ref: "#/$defs/Grade" },
        note: { anyOf: [{ type: "null" }, { type: "integer", exclusiveMinimum: 2, exclusiveMaximum: 4 }] },
        tags: { type: "array", items: { const: "x" }, minItems: 2 },
      },
    };
    const args = devServerToolArguments(schema, "h");
    expect(["pass", "fail"]).toContain(args.grade);
    expect(args.note).toBe(3);
    expect(args.tags).toEqual(["x", "x"]);
  });

  it("calls the forced tool, the first for required, and for auto only a tool with an enum", () => {
    const plain = { name: "plain", parameters: { type: "object", properties: { x: { type: "string" } } } };
    const choice = { name: "choice", parameters: verdictSchema };
    expect(toolToCall([plain, choice], { name: "plain" })).toBe(plain);
    expect(toolToCall([plain, choice], "required")).toBe(plain);
    expect(toolToCall([plain, choice], "auto")).toBe(choice);
    expect(toolToCall([plain, choice], undefined)).toBe(choice);
    expect(toolToCall([plain], "auto")).toBeUndefined();
    expect(toolToCall([plain, choice], "none")).toBeUndefined();
  });
});

describe("dev server: tool calls over /v1/chat/completions", () => {
  it("answers a forced tool with a tool call whose arguments are predictable from the prompt hash", async () => {
    const r = await chat({ model: "m", messages: userMessages, tools: [openAITool], tool_choice: { type: "function", function: { name: "record_verdict" } } });
    expect(r.status).toBe(200);
    const choice = r.json.choices[0];
    expect(choice.finish_reason).toBe("stop");
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls[0];
    expect(call).toMatchObject({ type: "function", function: { name: "record_verdict" } });
    expect(typeof call.id).toBe("string");
    const expected = devServerToolArguments(verdictSchema, promptHash(userMessages));
    expect(JSON.parse(call.function.arguments)).toEqual(expected);
    expect(r.json.usage.completion_tokens).toBe(countTokens(JSON.stringify(expected)));
  });

  it("calls a tool with an enum under auto (finish tool_calls) and answers text when no tool has one", async () => {
    const auto = await chat({ model: "m", messages: userMessages, tools: [openAITool], n: 2 });
    expect(auto.json.choices.map((c: any) => c.finish_reason)).toEqual(["tool_calls", "tool_calls"]);
    const free = { type: "function", function: { name: "note", parameters: { type: "object", properties: { text: { type: "string" } } } } };
    const text = await chat({ model: "m", messages: userMessages, tools: [free], tool_choice: "auto" });
    expect(text.json.choices[0].message).toEqual({ role: "assistant", content: "plain text" });
    expect(text.json.choices[0].finish_reason).toBe("stop");
  });

  it("cuts the arguments at max_tokens (finish length), leaving them unparseable like a real server", async () => {
    const r = await chat({ model: "m", messages: userMessages, tools: [openAITool], tool_choice: "required", max_tokens: 3 });
    expect(r.json.choices[0].finish_reason).toBe("length");
    expect(() => JSON.parse(r.json.choices[0].message.tool_calls[0].function.arguments)).toThrow();
    expect(r.json.usage.completion_tokens).toBe(3);
  });

  it("streams a tool call as a chunk with id and name, then one with the arguments", async () => {
    const res = await request(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: userMessages, tools: [openAITool], tool_choice: "required", stream: true }),
    });
    const events = (await res.body.text())
      .split("\n\n")
      .filter((e) => e.startsWith("data: ") && e !== "data: [DONE]")
      .map((e) => JSON.parse(e.slice("data: ".length)));
    const deltas = events.map((e) => e.choices[0].delta);
    expect(deltas[0].tool_calls[0]).toMatchObject({ index: 0, type: "function", function: { name: "record_verdict", arguments: "" } });
    const args = deltas.map((d) => d.tool_calls?.[0]?.function?.arguments ?? "").join("");
    expect(JSON.parse(args)).toEqual(devServerToolArguments(verdictSchema, promptHash(userMessages)));
    expect(events[events.length - 1].choices[0].finish_reason).toBe("tool_calls");
  });

  it("refuses bad tool definitions and choices with the API's 400", async () => {
    const cases: [unknown, string][] = [
      [{ tools: [{ type: "function", function: { name: "has space", parameters: verdictSchema } }] }, "tools.0.function.name"],
      [{ tools: [{ type: "retrieval" }] }, "tools.0.type"],
      [{ tools: [{ type: "function", function: { name: "f", parameters: { type: "string" } } }] }, "tools[0].function.parameters"],
      [{ tool_choice: "required" }, "tool_choice"],
      [{ tools: [openAITool], tool_choice: { type: "function", function: { name: "other" } } }, "tool_choice"],
      [{ tools: [openAITool], tool_choice: "always" }, "tool_choice"],
    ];
    for (const [extra, param] of cases) {
      const r = await chat({ model: "m", messages: userMessages, ...(extra as object) });
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.json.error).toMatchObject({ type: "invalid_request_error", param });
    }
  });
});

describe("dev server: tool use over /v1/messages", () => {
  it("answers tool_choice tool with a tool_use block (the same arguments as over chat completions)", async () => {
    const r = await messages({ model: "c", max_tokens: 200, messages: userMessages, tools: [anthropicTool], tool_choice: { type: "tool", name: "record_verdict" } });
    expect(r.status).toBe(200);
    expect(r.json.stop_reason).toBe("tool_use");
    expect(r.json.content).toEqual([
      { type: "tool_use", id: expect.stringMatching(/^toolu_/), name: "record_verdict", input: devServerToolArguments(verdictSchema, promptHash(userMessages)) },
    ]);
    expect(r.json.usage.output_tokens).toBe(countTokens(JSON.stringify(r.json.content[0].input)));
  });

  it("answers text for auto without an enum tool and for tool_choice none", async () => {
    const free = { name: "note", input_schema: { type: "object", properties: { text: { type: "string" } } } };
    for (const extra of [{ tools: [free] }, { tools: [anthropicTool], tool_choice: { type: "none" } }]) {
      const r = await messages({ model: "c", max_tokens: 50, messages: userMessages, ...extra });
      expect(r.json.content).toEqual([{ type: "text", text: "plain text" }]);
      expect(r.json.stop_reason).toBe("end_turn");
    }
    const any = await messages({ model: "c", max_tokens: 50, messages: userMessages, tools: [free], tool_choice: { type: "any" } });
    expect(any.json.content[0]).toMatchObject({ type: "tool_use", name: "note", input: { text: "dev" } });
  });

  it("refuses bad tool definitions and choices with the API's error shape", async () => {
    const cases: unknown[] = [
      { tools: [{ name: "f", input_schema: { type: "string" } }] },
      { tools: [{ name: "f" }] },
      { tools: [{ name: "bad name!", input_schema: { type: "object" } }] },
      { tools: [anthropicTool, anthropicTool] },
      { tools: [{ type: "web_search_20250305", name: "web_search" }] },
      { tool_choice: { type: "any" } },
      { tools: [anthropicTool], tool_choice: { type: "tool", name: "missing" } },
      { tools: [anthropicTool], tool_choice: { type: "function" } },
    ];
    for (const extra of cases) {
      const r = await messages({ model: "c", max_tokens: 50, messages: userMessages, ...(extra as object) });
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.json).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    }
  });
});
