import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { type MessagesBody, asChatMessages, messagesBodySchema, messagesRuleViolation, messagesTools } from "./dev-server-anthropic-schemas.js";
import { chatPromptTokens, lastUserText, shapeAnswer } from "./dev-server-answers.js";
import type { FaultKind } from "./dev-server-options.js";
import type { DevServerAnswer, DevServerRequest } from "./dev-server-policy.js";
import { describeZodError } from "./dev-server-schemas.js";
import type { StatsCounter } from "./dev-server-stats.js";
import { type DevTool, devServerToolArguments, toolArgumentsText, toolToCall } from "./dev-server-tools.js";
import { promptHash } from "./prompt-hash.js";

export const MESSAGES_PATH = "/v1/messages";

/** What the Anthropic endpoint shares with the rest of the dev server. */
export interface MessagesEndpointParts {
  /** When set, requests must carry it as `x-api-key`. */
  apiKey: string | undefined;
  answer: (request: DevServerRequest) => Promise<DevServerAnswer>;
  stats: StatsCounter;
  drawFault: () => FaultKind | null;
  latency: () => number;
  retryAfterSeconds: number;
  nextId: () => number;
}

/**
 * `POST /v1/messages` of Anthropic's Messages API: `x-api-key` (when the server has a key) and
 * `anthropic-version` checked, errors as `{type: "error", error: {type, message}}` with the API's
 * status codes, faults (429 and 529 with retry-after, 500, reset, malformed, hang) from the shared
 * fault drawer.
 */
export function createMessagesEndpoint(parts: MessagesEndpointParts) {
  /** `arrivedAt`: when the request arrived (performance.now()); the latency counts from there. */
  return async function answerMessages(raw: Buffer, headers: IncomingHttpHeaders, res: ServerResponse, arrivedAt = performance.now()): Promise<void> {
    const requestId = `req_dev_${parts.nextId()}`;
    const fail = (status: number, type: string, message: string, extra: Record<string, string> = {}) =>
      sendAnthropicError(res, status, type, message, requestId, extra);
    const key = headers["x-api-key"];
    if (parts.apiKey !== undefined) {
      if (key === undefined || key === "") return fail(401, "authentication_error", "x-api-key header is required");
      if (key !== parts.apiKey) return fail(401, "authentication_error", "invalid x-api-key");
    }
    if (headers["anthropic-version"] === undefined || headers["anthropic-version"] === "") {
      return fail(400, "invalid_request_error", "anthropic-version: header is required");
    }
    let json: unknown;
    try {
      json = JSON.parse(raw.toString("utf8"));
    } catch (error) {
      return fail(400, "invalid_request_error", `request body is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = messagesBodySchema.safeParse(json);
    if (!parsed.success) return fail(400, "invalid_request_error", describeZodError(parsed.error).message);
    const body = parsed.data;
    const rule = messagesRuleViolation(body);
    if (rule !== undefined) return fail(400, "invalid_request_error", rule);
    const messages = asChatMessages(body);
    parts.stats.prompt(promptHash(messages));

    const fault = parts.drawFault();
    const delay = parts.latency() - (performance.now() - arrivedAt);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay).unref());
    if (fault !== null) {
      parts.stats.fault(fault);
      return injectFault(fault, res, fail, String(parts.retryAfterSeconds));
    }
    const answer = await parts.answer({
      endpoint: "messages",
      body,
      headers,
      model: body.model,
      messages,
      lastUserText: lastUserText(messages),
    });
    const id = `msg_dev_${requestId.slice("req_dev_".length)}`;
    const { tools, choice } = messagesTools(body);
    const tool = toolToCall(tools, choice);
    const reply =
      tool !== undefined
        ? toolUseBody(body, tool, promptHash(messages), chatPromptTokens(messages, body.tools), id)
        : messageBody(body, answer, chatPromptTokens(messages, body.tools), id);
    sendJson(res, 200, reply, { "request-id": requestId });
  };
}

/** The response: thinking (when the answer has reasoning) and text blocks, the stop reason and usage. */
function messageBody(body: MessagesBody, answer: DevServerAnswer, inputTokens: number, id: string): Record<string, unknown> {
  const stops = body.stop_sequences ?? [];
  const shaped = shapeAnswer(answer, body.max_tokens, stops);
  const matched = shaped.finishReason === "stop" ? earliestStop(answer.content, stops) : undefined;
  const content: Record<string, unknown>[] = [];
  if (shaped.reasoningContent !== undefined) content.push({ type: "thinking", thinking: shaped.reasoningContent, signature: "dev-server" });
  // The API sends no text block for an empty answer.
  if (shaped.content !== "") content.push({ type: "text", text: shaped.content });
  return {
    id,
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: shaped.finishReason === "length" ? "max_tokens" : matched !== undefined ? "stop_sequence" : "end_turn",
    stop_sequence: matched ?? null,
    usage: { input_tokens: inputTokens, output_tokens: shaped.contentTokens + shaped.reasoningTokens },
  };
}

/**
 * A response that calls `tool`: one tool_use block (no text before it, as when the API forces a tool),
 * stop_reason tool_use. Input that max_tokens cuts short is dropped with the block (stop_reason max_tokens).
 */
function toolUseBody(body: MessagesBody, tool: DevTool, hash: string, inputTokens: number, id: string): Record<string, unknown> {
  const input = devServerToolArguments(tool.parameters, hash);
  const sized = toolArgumentsText(input, body.max_tokens);
  return {
    id,
    type: "message",
    role: "assistant",
    model: body.model,
    content: sized.cut ? [] : [{ type: "tool_use", id: `toolu_dev_${id.slice("msg_dev_".length)}`, name: tool.name, input }],
    stop_reason: sized.cut ? "max_tokens" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: sized.tokens },
  };
}

/** The stop sequence the answer was cut at (the one found first in the text), if any. */
function earliestStop(text: string, stops: readonly string[]): string | undefined {
  let best: string | undefined;
  let at = Number.POSITIVE_INFINITY;
  for (const s of stops) {
    const i = s === "" ? -1 : text.indexOf(s);
    if (i >= 0 && i < at) {
      at = i;
      best = s;
    }
  }
  return best;
}

function injectFault(
  fault: FaultKind,
  res: ServerResponse,
  fail: (status: number, type: string, message: string, extra?: Record<string, string>) => void,
  retryAfter: string,
): void {
  switch (fault) {
    case "429":
      fail(429, "rate_limit_error", "injected fault: rate limit reached", { "retry-after": retryAfter });
      return;
    case "529":
      fail(529, "overloaded_error", "Overloaded", { "retry-after": retryAfter });
      return;
    case "500":
      fail(500, "api_error", "injected fault: internal server error");
      return;
    case "reset":
      res.socket?.destroy();
      return;
    case "malformed": {
      const broken = '{"id":"msg_broken","type":"message","role":"assistant","content":[{"type":"text","text":"tru';
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(broken) });
      res.end(broken);
      return;
    }
    case "hang":
      return; // never answered: the client times out or close() drops the socket
  }
}

export function sendAnthropicError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { type: "error", error: { type, message }, request_id: requestId }, { "request-id": requestId, ...headers });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
