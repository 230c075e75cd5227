import { readFile } from "node:fs/promises";
import { DataLoadError } from "@yardstick/core";
import { z } from "zod";
import { judgeReply } from "./dev-server-judge-replies.js";
import type { DevChatMessage } from "./dev-server-schemas.js";

/** What a function policy sees of a request. */
export interface DevServerRequest {
  /** "messages" is Anthropic's `/v1/messages`; its `messages` then hold the system prompt first, OpenAI-style. */
  endpoint: "chat" | "completion" | "messages";
  /** The parsed JSON body, unknown fields included (e.g. `chat_template_kwargs`). */
  body: Record<string, unknown>;
  model: string;
  /** Chat requests: the messages as sent. */
  messages?: DevChatMessage[];
  /** Completion requests: the prompt as sent. */
  prompt?: string;
  /** The request's HTTP headers (lower-case names), e.g. to check what a client authenticates with. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Text of the last user message (its text parts joined by "\n"), or the completion prompt. */
  lastUserText: string;
}

export interface DevServerAnswer {
  content: string;
  reasoningContent?: string;
}

export type DevServerPolicyFunction = (
  request: DevServerRequest,
) => string | DevServerAnswer | Promise<string | DevServerAnswer>;

/**
 * How the dev server answers:
 * - `"echo"`: the last user message's text (or the completion prompt); a judge prompt of the built-in
 *   judges gets a plausible judge reply instead (dev-server-judge-replies.ts);
 * - `{ fixed }`: always the same text;
 * - `{ file, fallback? }`: a JSON object `{prompt: answer}`, a JSON array or JSONL lines of
 *   `{prompt, answer}` (answer a string or `{content, reasoningContent}`), looked up by the last user
 *   message; completion prompts that miss fall back to the longest key that is a prefix of the prompt
 *   (so loglikelihood requests, whose prompt is context + continuation, find their context); then to
 *   `fallback`, or echo when there is none;
 * - a function of the request, sync or async.
 */
export type DevServerPolicy = "echo" | { fixed: string } | { file: string; fallback?: string } | DevServerPolicyFunction;

/** A policy made ready to answer: files are read once at start-up. */
export type ResolvedPolicy = (request: DevServerRequest) => string | DevServerAnswer | Promise<string | DevServerAnswer>;

const answerSchema = z.union([
  z.string(),
  z.object({ content: z.string(), reasoningContent: z.string().optional() }),
]);
const entrySchema = z.object({ prompt: z.string(), answer: answerSchema });
const objectFileSchema = z.record(z.string(), answerSchema);
const arrayFileSchema = z.array(entrySchema);

export async function resolvePolicy(policy: DevServerPolicy): Promise<ResolvedPolicy> {
  if (typeof policy === "function") return policy;
  if (policy === "echo") return (req) => judgeReply(req.messages) ?? req.lastUserText;
  if ("fixed" in policy) {
    const text = policy.fixed;
    return () => text;
  }
  const table = await loadAnswerFile(policy.file);
  const fallback = policy.fallback;
  return (req) => {
    const hit = table.get(req.lastUserText);
    if (hit !== undefined) return hit;
    if (req.endpoint === "completion") {
      let best: string | undefined;
      for (const key of table.keys()) {
        if (req.lastUserText.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
      }
      if (best !== undefined) return table.get(best)!;
    }
    return fallback ?? req.lastUserText;
  };
}

async function loadAnswerFile(file: string): Promise<Map<string, string | DevServerAnswer>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (cause) {
    throw new DataLoadError(`cannot read the dev server answer file: ${(cause as Error).message}`, { file, cause });
  }
  const table = new Map<string, string | DevServerAnswer>();
  const trimmed = text.trimStart();
  if (file.endsWith(".jsonl") || (!trimmed.startsWith("{") && !trimmed.startsWith("["))) {
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (line === "") continue;
      const entry = parseWith(entrySchema, line, file, i + 1, "a JSON object {prompt, answer}");
      table.set(entry.prompt, entry.answer);
    }
    return table;
  }
  if (trimmed.startsWith("[")) {
    for (const entry of parseWith(arrayFileSchema, text, file, undefined, "an array of {prompt, answer}")) {
      table.set(entry.prompt, entry.answer);
    }
    return table;
  }
  const obj = parseWith(objectFileSchema, text, file, undefined, "an object mapping prompt to answer");
  for (const [k, v] of Object.entries(obj)) table.set(k, v);
  return table;
}

function parseWith<T>(schema: z.ZodType<T>, text: string, file: string, line: number | undefined, expected: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new DataLoadError(`invalid JSON (expected ${expected}): ${(cause as Error).message}`, { file, line, cause });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw new DataLoadError(`expected ${expected}${where}: ${issue?.message ?? "invalid"}`, { file, line });
  }
  return parsed.data;
}

/** Checks a policy's result; a bad one becomes a 500 from the server. */
export function normaliseAnswer(value: unknown): DevServerAnswer {
  if (typeof value === "string") return { content: value };
  const parsed = answerSchema.safeParse(value);
  if (parsed.success && typeof parsed.data !== "string") return parsed.data;
  throw new TypeError("dev server policy must return a string or {content: string, reasoningContent?: string}");
}
