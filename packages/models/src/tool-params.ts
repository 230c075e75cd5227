import { ConfigError, type GenerationParams, type ToolCall, type ToolDefinition } from "@yardstick/core";

/**
 * Tool fields of a request checked before anything is sent: a tool choice needs tools, and a forced
 * tool must be one of them. Both APIs would answer 400 for these, after a round trip and with a
 * message that does not name the task's params.
 */
export function checkedTools(params: GenerationParams, who: string): { tools: ToolDefinition[]; choice: GenerationParams["toolChoice"] } | undefined {
  const tools = params.tools;
  const choice = params.toolChoice;
  if (tools === undefined || tools.length === 0) {
    if (choice !== undefined && choice !== "auto") {
      throw new ConfigError(`${who}: params.toolChoice ${JSON.stringify(choice)} needs params.tools (no tools were given)`, {
        keyPath: ["params", "toolChoice"],
      });
    }
    return undefined;
  }
  tools.forEach((tool, i) => {
    if (typeof tool.name !== "string" || tool.name === "") {
      throw new ConfigError(`${who}: params.tools[${i}] has no name`, { keyPath: ["params", "tools", i, "name"], expected: "a non-empty string" });
    }
    if (typeof tool.parameters !== "object" || tool.parameters === null || Array.isArray(tool.parameters)) {
      throw new ConfigError(`${who}: params.tools[${i}] ("${tool.name}") has no parameters schema`, {
        keyPath: ["params", "tools", i, "parameters"],
        expected: 'a JSON Schema object, e.g. {"type": "object", "properties": {...}}',
      });
    }
  });
  if (typeof choice === "object" && !tools.some((t) => t.name === choice.name)) {
    throw new ConfigError(`${who}: params.toolChoice forces tool "${choice.name}", which is not in params.tools`, {
      keyPath: ["params", "toolChoice", "name"],
      expected: tools.map((t) => JSON.stringify(t.name)).join(", "),
    });
  }
  return { tools, choice };
}

/** Why a reply's tool call cannot be read; the provider turns it into an invalid-response failure. */
export class MalformedToolCall extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = "MalformedToolCall";
  }
}

/**
 * A tool call's `arguments` as the OpenAI wire format sends them (a JSON string of an object) read
 * into an object. Some servers already send an object; an empty string is a call without arguments.
 */
export function parseToolArguments(raw: unknown, path: string): ToolCall["arguments"] {
  if (isPlainObject(raw)) return raw;
  if (typeof raw !== "string") throw new MalformedToolCall(path, `expected a JSON string, got ${raw === null ? "null" : typeof raw}`);
  if (raw.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (cause) {
    throw new MalformedToolCall(path, `not valid JSON (${(cause as Error).message}): ${abbreviate(raw)}`);
  }
  if (!isPlainObject(value)) throw new MalformedToolCall(path, `expected a JSON object, got ${abbreviate(raw)}`);
  return value;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function abbreviate(text: string): string {
  const one = text.replace(/\s+/g, " ");
  return JSON.stringify(one.length > 80 ? `${one.slice(0, 80)}…` : one);
}
