import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ATTEMPT_HEADER, mulberry32 } from "@yardstick/core";
import { createMessagesEndpoint, MESSAGES_PATH, sendAnthropicError } from "./dev-server-anthropic.js";
import { createAnthropicBatchEndpoints, MESSAGE_BATCHES_PATH } from "./dev-server-batch-anthropic.js";
import { createOpenAIBatchEndpoints } from "./dev-server-batch-openai.js";
import { type BatchEndpointParts, type CapturedReply, captureResponse } from "./dev-server-batch-shared.js";
import { chatPromptTokens, lastUserText, shapeAnswer, stopList } from "./dev-server-answers.js";
import {
  type DevServerOptions,
  type FaultKind,
  parseDevServerOptions,
  type ResolvedDevServerOptions,
} from "./dev-server-options.js";
import { type DevServerRequest, normaliseAnswer, resolvePolicy } from "./dev-server-policy.js";
import {
  type ChatCompletionBody,
  type CompletionBody,
  chatCompletionBodySchema,
  chatToolsViolation,
  completionBodySchema,
  describeZodError,
} from "./dev-server-schemas.js";
import { type DevTool, type DevToolChoice, devServerToolArguments, toolArgumentsText, toolToCall } from "./dev-server-tools.js";
import { defaultModelRoot, modelCard } from "./dev-server-model-card.js";
import { createStatsCounter, type DevServerStats } from "./dev-server-stats.js";
import { promptHash } from "./prompt-hash.js";
import { answerTokenSet, type LegacyLogprobs, legacyLogprobs } from "./token-logprobs.js";
import { countWordTokens, tokenize } from "./tokenizer.js";

export interface DevServer {
  /** e.g. `http://127.0.0.1:41234`; clients use `${url}/v1` as their base URL. */
  readonly url: string;
  readonly port: number;
  /** The same object `GET /stats` returns. */
  stats(): DevServerStats;
  resetStats(): void;
  /** Stops listening and drops every open connection (hung requests included). */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** The largest batch the APIs take (Anthropic's 256 MB), plus room for the multipart framing. */
const BATCH_MAX_BODY_BYTES = 257 * 1024 * 1024;
const CHAT_PATH = "/v1/chat/completions";
const COMPLETIONS_PATH = "/v1/completions";

/** Starts a local OpenAI-compatible server. See the package README for the protocol details. */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const opts = parseDevServerOptions(options);
  const policy = await resolvePolicy(opts.policy);
  const root = opts.root ?? (await defaultModelRoot(opts.policy));
  const stats = createStatsCounter();
  const faults = createFaultDrawer(opts);
  const latency = createLatency(opts);
  let nextId = 1;
  const created = () => Math.floor(Date.now() / 1000);
  const answerMessages = createMessagesEndpoint({
    apiKey: opts.apiKey,
    answer: callPolicy,
    stats,
    drawFault: faults,
    latency,
    retryAfterSeconds: opts.faults?.retryAfterSeconds ?? 1,
    nextId: () => nextId++,
  });
  // Batch lines are answered by the online endpoints' code, without injected faults or latency.
  const answerMessagesOffline = createMessagesEndpoint({
    apiKey: undefined,
    answer: callPolicy,
    stats,
    drawFault: () => null,
    latency: () => 0,
    retryAfterSeconds: 0,
    nextId: () => nextId++,
  });
  async function answerOffline(path: string, body: Buffer, headers: IncomingHttpHeaders): Promise<CapturedReply> {
    const { res, reply } = captureResponse();
    if (path === MESSAGES_PATH) await answerMessagesOffline(body, headers, res);
    else await answerPost(path === CHAT_PATH ? "chat" : "completion", body, headers, res, null);
    return reply;
  }
  const batchParts: BatchEndpointParts = {
    options: opts.batch,
    answerOffline,
    stats,
    random: mulberry32(opts.seed ^ 0xba7c),
    timers: new Set(),
  };
  const openAIBatches = createOpenAIBatchEndpoints(batchParts);
  const anthropicBatches = createAnthropicBatchEndpoints({ ...batchParts, apiKey: opts.apiKey });

  const server = createServer((req, res) => {
    // Latency counts from the request's arrival, as a client sees it: parsing the body and answering are inside it.
    const arrivedAt = performance.now();
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    stats.request(path, Number(req.headers[ATTEMPT_HEADER] ?? 1) >= 2);
    if (path === CHAT_PATH || path === COMPLETIONS_PATH) {
      if (req.method !== "POST") return sendError(res, 405, `${req.method} not allowed on ${path}; use POST`, "invalid_request_error");
      readBody(req, res, (body) => {
        void answerPost(path === CHAT_PATH ? "chat" : "completion", body, req.headers, res, arrivedAt).catch((error: unknown) => {
          if (!res.headersSent) sendError(res, 500, `dev server policy failed: ${(error as Error).message}`, "server_error");
          else res.destroy();
        });
      });
      return;
    }
    if (path === MESSAGES_PATH) {
      if (req.method !== "POST") {
        req.resume();
        return sendAnthropicError(res, 405, "invalid_request_error", `${req.method} not allowed on ${path}; use POST`, "req_dev_0");
      }
      readBody(req, res, (body) => {
        void answerMessages(body, req.headers, res, arrivedAt).catch((error: unknown) => {
          if (!res.headersSent) sendAnthropicError(res, 500, "api_error", `dev server policy failed: ${(error as Error).message}`, "req_dev_0");
          else res.destroy();
        });
      });
      return;
    }
    if (path.startsWith("/v1/files") || path.startsWith("/v1/batches") || path.startsWith(MESSAGE_BATCHES_PATH)) {
      const method = req.method ?? "GET";
      // Batch input files and Message Batches may be larger than online requests (200 MB, 256 MB).
      readBody(
        req,
        res,
        (body) => {
        const done = path.startsWith(MESSAGE_BATCHES_PATH)
          ? anthropicBatches(method, path, req.headers, body, res, `http://${req.headers.host ?? "127.0.0.1"}`)
          : openAIBatches(method, path, req.headers, body, res);
        void done.catch((error: unknown) => {
          if (!res.headersSent) sendError(res, 500, `dev server batch endpoint failed: ${(error as Error).message}`, "server_error");
          else res.destroy();
        });
        },
        BATCH_MAX_BODY_BYTES,
      );
      return;
    }
    if (req.method === "GET" && path === "/v1/models") {
      return sendJson(res, 200, {
        object: "list",
        data: opts.models.map((id) => modelCard(id, root, opts.maxModelLen)),
      });
    }
    if (req.method === "GET" && path === "/stats") return sendJson(res, 200, stats.snapshot());
    req.resume();
    sendError(res, 404, `unknown endpoint ${req.method} ${path}`, "invalid_request_error");
  });
  server.keepAliveTimeout = 30_000;

  async function answerPost(
    endpoint: "chat" | "completion",
    raw: Buffer,
    headers: IncomingHttpHeaders,
    res: ServerResponse,
    /** When the online request arrived; null for batch lines (no injected faults or latency). */
    arrivedAt: number | null,
  ): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw.toString("utf8"));
    } catch (error) {
      return sendError(res, 400, `request body is not valid JSON: ${(error as Error).message}`, "invalid_request_error");
    }
    const schema = endpoint === "chat" ? chatCompletionBodySchema : completionBodySchema;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const { message, param } = describeZodError(parsed.error);
      return sendError(res, 400, message, "invalid_request_error", param);
    }
    const body = parsed.data;
    if (endpoint === "chat") {
      const violation = chatToolsViolation(body as ChatCompletionBody);
      if (violation) return sendError(res, 400, violation.message, "invalid_request_error", violation.param);
    }
    if (endpoint === "chat") stats.prompt(promptHash((body as ChatCompletionBody).messages));
    else for (const p of promptList((body as CompletionBody).prompt)) stats.prompt(promptHash(p));

    if (arrivedAt !== null) {
      const fault = faults();
      const delay = latency() - (performance.now() - arrivedAt);
      if (delay > 0) await sleep(delay);
      if (fault !== null) return injectFault(fault, res);
    }

    const id = nextId++;
    if (endpoint === "chat") return answerChat(body as ChatCompletionBody, headers, id, res);
    return answerCompletion(body as CompletionBody, headers, id, res);
  }

  function injectFault(fault: FaultKind, res: ServerResponse): void {
    stats.fault(fault);
    switch (fault) {
      case "429":
        sendError(res, 429, "injected fault: rate limit reached", "rate_limit_error", null, "rate_limit_exceeded", {
          "retry-after": String(opts.faults?.retryAfterSeconds ?? 1),
        });
        return;
      case "500":
        sendError(res, 500, "injected fault: internal server error", "server_error");
        return;
      case "529":
        sendError(res, 529, "injected fault: overloaded", "overloaded_error", null, null, {
          "retry-after": String(opts.faults?.retryAfterSeconds ?? 1),
        });
        return;
      case "reset":
        res.socket?.destroy();
        return;
      case "malformed": {
        const broken = '{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,"message":{"content":"tru';
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(broken) });
        res.end(broken);
        return;
      }
      case "hang":
        return; // never answered: the client times out or close() drops the socket
    }
  }

  async function callPolicy(request: DevServerRequest) {
    return normaliseAnswer(await policy(request));
  }

  async function answerChat(body: ChatCompletionBody, headers: IncomingHttpHeaders, id: number, res: ServerResponse): Promise<void> {
    const answer = await callPolicy({
      endpoint: "chat",
      body,
      headers,
      model: body.model,
      messages: body.messages,
      lastUserText: lastUserText(body.messages),
    });
    const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
    const n = body.n ?? 1;
    const tool = toolToCall(chatTools(body), chatToolChoice(body));
    if (tool !== undefined) return answerChatWithTool(body, tool, maxTokens, n, id, res);
    const shaped = shapeAnswer(answer, maxTokens, stopList(body.stop));
    const promptTokens = chatPromptTokens(body.messages, body.tools);
    const completionTokens = n * (shaped.contentTokens + shaped.reasoningTokens);
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      ...(shaped.reasoningContent !== undefined
        ? { completion_tokens_details: { reasoning_tokens: n * shaped.reasoningTokens } }
        : {}),
    };
    const chatId = `chatcmpl-${id}`;
    if (body.stream) {
      return streamChat(res, chatId, body.model, n, shaped, body.stream_options?.include_usage === true ? usage : undefined);
    }
    const message: Record<string, unknown> = { role: "assistant", content: shaped.content };
    if (shaped.reasoningContent !== undefined) message.reasoning_content = shaped.reasoningContent;
    const choices = [];
    for (let i = 0; i < n; i++) choices.push({ index: i, message, logprobs: null, finish_reason: shaped.finishReason });
    sendJson(res, 200, {
      id: chatId,
      object: "chat.completion",
      created: created(),
      model: body.model,
      system_fingerprint: "yardstick-dev",
      choices,
      usage,
    });
  }

  /**
   * A reply that calls `tool` (content null), arguments from `devServerToolArguments`. Like OpenAI, a
   * call forced by name finishes with "stop", one the model chose with "tool_calls"; arguments cut at
   * max_tokens finish with "length" and are not valid JSON.
   */
  function answerChatWithTool(body: ChatCompletionBody, tool: DevTool, maxTokens: number | undefined, n: number, id: number, res: ServerResponse): void {
    const args = toolArgumentsText(devServerToolArguments(tool.parameters, promptHash(body.messages)), maxTokens);
    const forced = typeof body.tool_choice === "object" && body.tool_choice !== null;
    const finishReason = args.cut ? "length" : forced ? "stop" : "tool_calls";
    const promptTokens = chatPromptTokens(body.messages, body.tools);
    const usage = { prompt_tokens: promptTokens, completion_tokens: n * args.tokens, total_tokens: promptTokens + n * args.tokens };
    const chatId = `chatcmpl-${id}`;
    const call = (i: number) => ({ id: `call_dev_${id}_${i}`, type: "function", function: { name: tool.name, arguments: args.text } });
    if (body.stream) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const base = { id: chatId, object: "chat.completion.chunk", created: created(), model: body.model };
      const chunk = (index: number, delta: Record<string, unknown>, finish: string | null) =>
        `data: ${JSON.stringify({ ...base, choices: [{ index, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
      for (let i = 0; i < n; i++) {
        const { function: fn, ...head } = call(i);
        res.write(chunk(i, { role: "assistant", content: null, tool_calls: [{ index: 0, ...head, function: { name: fn.name, arguments: "" } }] }, null));
        res.write(chunk(i, { tool_calls: [{ index: 0, function: { arguments: fn.arguments } }] }, null));
        res.write(chunk(i, {}, finishReason));
      }
      if (body.stream_options?.include_usage === true) res.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
      res.end("data: [DONE]\n\n");
      return;
    }
    const choices = [];
    for (let i = 0; i < n; i++) {
      choices.push({ index: i, message: { role: "assistant", content: null, tool_calls: [call(i)] }, logprobs: null, finish_reason: finishReason });
    }
    sendJson(res, 200, { id: chatId, object: "chat.completion", created: created(), model: body.model, system_fingerprint: "yardstick-dev", choices, usage });
  }

  function streamChat(
    res: ServerResponse,
    chatId: string,
    model: string,
    n: number,
    shaped: ReturnType<typeof shapeAnswer>,
    usage: Record<string, unknown> | undefined,
  ): void {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const base = { id: chatId, object: "chat.completion.chunk", created: created(), model };
    const chunk = (index: number, delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ ...base, choices: [{ index, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
    for (let i = 0; i < n; i++) {
      res.write(chunk(i, { role: "assistant", content: "" }, null));
      if (shaped.reasoningContent !== undefined) {
        for (const t of tokenize(shaped.reasoningContent).tokens) res.write(chunk(i, { reasoning_content: t }, null));
      }
      for (const t of tokenize(shaped.content).tokens) res.write(chunk(i, { content: t }, null));
      res.write(chunk(i, {}, shaped.finishReason));
    }
    if (usage) res.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
    res.end("data: [DONE]\n\n");
  }

  async function answerCompletion(body: CompletionBody, headers: IncomingHttpHeaders, id: number, res: ServerResponse): Promise<void> {
    const n = body.n ?? 1;
    const cmplId = `cmpl-${id}`;
    if (Array.isArray(body.prompt)) {
      if (body.stream) return sendError(res, 400, "the dev server streams only a single prompt, not a prompt array", "invalid_request_error", "prompt");
      // Each prompt is answered as if alone; its n choices follow the previous prompt's (index = prompt × n + i).
      const choices = [];
      let promptTokens = 0;
      let completionTokens = 0;
      for (const [j, prompt] of body.prompt.entries()) {
        const one = await completeOne({ ...body, prompt }, headers);
        for (let i = 0; i < n; i++) choices.push({ index: j * n + i, text: one.text, logprobs: one.logprobs, finish_reason: one.finishReason });
        promptTokens += one.promptTokens;
        completionTokens += n * one.contentTokens;
      }
      return sendCompletion(res, cmplId, body.model, choices, promptTokens, completionTokens);
    }
    const prompt = body.prompt;
    const one = await completeOne({ ...body, prompt }, headers);
    if (body.stream) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const base = { id: cmplId, object: "text_completion", created: created(), model: body.model };
      for (let i = 0; i < n; i++) {
        const pieces = body.echo === true ? [prompt, ...tokenize(one.content).tokens] : tokenize(one.content).tokens;
        for (const t of pieces) {
          res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: i, text: t, logprobs: null, finish_reason: null }] })}\n\n`);
        }
        res.write(
          `data: ${JSON.stringify({ ...base, choices: [{ index: i, text: "", logprobs: null, finish_reason: one.finishReason }] })}\n\n`,
        );
      }
      res.end("data: [DONE]\n\n");
      return;
    }
    const choices = [];
    for (let i = 0; i < n; i++) choices.push({ index: i, text: one.text, logprobs: one.logprobs, finish_reason: one.finishReason });
    sendCompletion(res, cmplId, body.model, choices, one.promptTokens, n * one.contentTokens);
  }

  /** One prompt's completion: the policy's answer shaped by max_tokens and stop, echoed and with logprobs as asked. */
  async function completeOne(body: CompletionBody & { prompt: string }, headers: IncomingHttpHeaders) {
    const answer = await callPolicy({
      endpoint: "completion",
      body,
      headers,
      model: body.model,
      prompt: body.prompt,
      lastUserText: body.prompt,
    });
    // The legacy endpoint's default max_tokens is 16.
    const shaped = shapeAnswer({ content: answer.content }, body.max_tokens ?? 16, stopList(body.stop), "word");
    const echo = body.echo === true;
    let logprobs: LegacyLogprobs | null = null;
    if (body.logprobs !== null && body.logprobs !== undefined) {
      logprobs = completionLogprobs(body.prompt, shaped.content, answer.content, body.logprobs, echo);
    }
    return {
      content: shaped.content,
      text: echo ? body.prompt + shaped.content : shaped.content,
      logprobs,
      finishReason: shaped.finishReason,
      promptTokens: countWordTokens(body.prompt),
      contentTokens: shaped.contentTokens,
    };
  }

  function sendCompletion(res: ServerResponse, id: string, model: string, choices: unknown[], promptTokens: number, completionTokens: number): void {
    sendJson(res, 200, {
      id,
      object: "text_completion",
      created: created(),
      model,
      system_fingerprint: "yardstick-dev",
      choices,
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    close() {
      for (const timer of batchParts.timers) clearTimeout(timer);
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function chatTools(body: ChatCompletionBody): DevTool[] | undefined {
  return body.tools?.map((t) => ({ name: t.function.name, parameters: t.function.parameters ?? {} }));
}

function chatToolChoice(body: ChatCompletionBody): DevToolChoice | undefined {
  const c = body.tool_choice;
  if (c === null || c === undefined) return undefined;
  return typeof c === "string" ? c : { name: c.function.name };
}

/**
 * Logprobs in the legacy shape. Offsets index into prompt + completion (as OpenAI's legacy API), so
 * without `echo` the first offset is the prompt's length. Generated tokens are always "likely".
 */
function completionLogprobs(prompt: string, generated: string, answer: string, topK: number, echo: boolean): LegacyLogprobs {
  const likely = answerTokenSet(answer);
  const promptPart = tokenize(prompt);
  const lastPromptToken = promptPart.tokens[promptPart.tokens.length - 1] ?? "";
  const gen = legacyLogprobs(generated, likely, topK, {
    firstHasContext: prompt !== "",
    previous: lastPromptToken,
    offsetBase: prompt.length,
    allLikely: true,
  });
  if (!echo) return gen;
  const head = legacyLogprobs(prompt, likely, topK, { firstHasContext: false });
  return {
    tokens: [...head.tokens, ...gen.tokens],
    token_logprobs: [...head.token_logprobs, ...gen.token_logprobs],
    top_logprobs: [...head.top_logprobs, ...gen.top_logprobs],
    text_offset: [...head.text_offset, ...gen.text_offset],
  };
}

function createFaultDrawer(opts: ResolvedDevServerOptions): () => FaultKind | null {
  const f = opts.faults;
  if (!f) return () => null;
  const script = f.script ?? [];
  let scriptIndex = 0;
  const bands: [number, FaultKind][] = [];
  let total = 0;
  for (const [r, kind] of [
    [f.rate429, "429"],
    [f.rate500, "500"],
    [f.rate529, "529"],
    [f.rateReset, "reset"],
    [f.rateMalformed, "malformed"],
    [f.rateHang, "hang"],
  ] as const) {
    if (r !== undefined && r > 0) bands.push([(total += r), kind]);
  }
  const random = mulberry32(opts.seed ^ 0x5eed);
  return () => {
    if (scriptIndex < script.length) return script[scriptIndex++] ?? null;
    if (bands.length === 0) return null;
    const u = random();
    for (const [edge, kind] of bands) if (u < edge) return kind;
    return null;
  };
}

function createLatency(opts: ResolvedDevServerOptions): () => number {
  const l = opts.latencyMs;
  if (typeof l === "number") return () => l;
  const random = mulberry32(opts.seed ^ 0x1a7e);
  return () => l.min + random() * (l.max - l.min);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function readBody(req: IncomingMessage, res: ServerResponse, done: (body: Buffer) => void, limit = MAX_BODY_BYTES): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size > limit) {
      req.removeAllListeners("data");
      req.resume();
      sendError(res, 413, `request body larger than ${limit} bytes`, "invalid_request_error");
      return;
    }
    chunks.push(c);
  });
  req.on("end", () => {
    if (size <= limit) done(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, type, param, code } }, headers);
}

function promptList(prompt: string | string[]): string[] {
  return Array.isArray(prompt) ? prompt : [prompt];
}
