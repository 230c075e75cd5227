import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelRequest, ModelResponse, ToolDefinition } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { openRequestCache } from "./request-cache.js";
import { hashRequest } from "./request-hash.js";

const tool: ToolDefinition = {
  name: "record_verdict",
  parameters: { type: "object", properties: { verdict: { type: "string", enum: ["A", "B"] } }, required: ["verdict"] },
};
const messages = [{ role: "user" as const, content: "Which is better?" }];
const chat = (params: ModelRequest["params"]): ModelRequest => ({ kind: "chat", messages, params });

describe("hashRequest and tools", () => {
  it("tools and the tool choice are part of the cache key, not of the prompt hash", () => {
    const plain = hashRequest("m", chat({ maxTokens: 8 }));
    const withTool = hashRequest("m", chat({ maxTokens: 8, tools: [tool] }));
    const forced = hashRequest("m", chat({ maxTokens: 8, tools: [tool], toolChoice: { name: "record_verdict" } }));
    const required = hashRequest("m", chat({ maxTokens: 8, tools: [tool], toolChoice: "required" }));
    const otherEnum = hashRequest(
      "m",
      chat({ maxTokens: 8, tools: [{ ...tool, parameters: { ...tool.parameters, properties: { verdict: { type: "string", enum: ["A", "B", "tie"] } } } }] }),
    );
    const keys = [plain, withTool, forced, required, otherEnum].map((h) => h.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set([plain, withTool, forced, required, otherEnum].map((h) => h.promptHash)).size).toBe(1);
    expect(JSON.parse(forced.requestJson).params).toEqual({ maxTokens: 8, tools: [tool], toolChoice: { name: "record_verdict" } });
  });

  it("the key does not depend on the key order of a tool's schema", () => {
    const reordered: ToolDefinition = { parameters: { required: ["verdict"], properties: tool.parameters.properties, type: "object" }, name: tool.name };
    expect(hashRequest("m", chat({ tools: [reordered] })).key).toBe(hashRequest("m", chat({ tools: [tool] })).key);
  });

  it("a cached tool-call response comes back with its tool calls", () => {
    const cache = openRequestCache({ path: join(mkdtempSync(join(tmpdir(), "ys-tools-")), "requests.sqlite") });
    const toolCalls = [{ id: "call_1", name: "record_verdict", arguments: { verdict: "B" } }];
    const response: ModelResponse = { text: "", finishReason: "tool_calls", choices: [{ text: "", finishReason: "tool_calls", toolCalls }], toolCalls };
    const { key } = hashRequest("m", chat({ tools: [tool], toolChoice: "required" }));
    cache.put(key, "m", response);
    cache.close();
    const again = openRequestCache({ path: cache.path });
    expect(again.get(key)).toEqual(response);
    again.close();
  });
});
