import {
  ATTEMPT_HEADER,
  type CallContext,
  ConfigError,
  type GenerationParams,
  type LoglikelihoodRequest,
  type LoglikelihoodResult,
  type ModelCallContext,
  type ModelProviderV1,
  type ModelRequest,
  type ModelResponse,
  type ServedModelInfo,
} from "@yardstick/core";
import {
  type AdaptiveLimiter,
  type AttemptOutcome,
  createAdaptiveLimiter,
  createBalancer,
  createAttemptTimeout,
  createRecentFailures,
  createTransport,
  type Endpoint,
  type EndpointStats,
  type Lane,
  type LimiterOutcome,
  type LimiterTicket,
  OutageError,
  sleep,
  TransportError,
} from "@yardstick/http";
import type { z } from "zod";
import { parseSettings } from "./config-error.js";
import { choicesInPromptOrder, type EchoedCompletion, fastEchoedCompletion, scoreEchoedChoice } from "./loglikelihood.js";
import { abortedCallError, type CallFailure, createScrubber, failedCallError, ModelCallError, retryDelay, shortErrorText, statusFailure } from "./model-call-error.js";
import { type OpenAICompatibleSettings, openAICompatibleSettingsSchema } from "./openai-settings.js";
import { agreedServedModel, modelListSchema, sameServedModel, type ServedModelReport, servedModelInfo } from "./served-model.js";
import { openAIChatFields, openAISamplingFields } from "./openai-request-body.js";
import { MalformedToolCall } from "./tool-params.js";
import { chatResponseSchema, completionResponseSchema, fastChatResponse, noContentProblem, toChatResponse, toCompletionResponse } from "./wire-format.js";

export interface OpenAICompatibleProvider extends ModelProviderV1 {
  readonly id: "openai-compatible";
  /** The in-flight limiter (its `limit` is the current adaptive concurrency). */
  readonly limiter: AdaptiveLimiter;
  /** The configured base URLs. */
  readonly baseURLs: readonly string[];
  /** What went to each base URL so far (attempts, failed attempts, mean latency, times set aside). */
  endpointStats(): EndpointStats[];
  /**
   * Sets a base URL aside that a start-up check found unreachable: it gets no request until a probe
   * finds it answering (and, once `describeServedModel` has run, serving the same checkpoint).
   */
  setBaseURLAside(baseURL: string, why: string): void;
  loglikelihood(request: LoglikelihoodRequest, ctx?: ModelCallContext): Promise<LoglikelihoodResult>;
  loglikelihoodBatch(requests: readonly LoglikelihoodRequest[], ctx?: ModelCallContext): Promise<LoglikelihoodResult[]>;
  describeServedModel(ctx?: CallContext): Promise<ServedModelInfo | undefined>;
  close(): Promise<void>;
}

/** A failed attempt, before deciding whether to try again. */
interface Failure extends CallFailure {
  parsed?: false;
}

interface Parsed<T> {
  parsed: true;
  value: T;
}


/** Turns a parsed 2xx body into the caller's value, or says why the shape is wrong. */
type Decode<V> = (json: unknown) => Parsed<V> | Failure;

/** Valid JSON of the wrong shape will not change on a retry: a server or configuration mismatch. */
function shapeFailure(issue: z.core.$ZodIssue | undefined): Failure {
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return {
    kind: "invalid-response",
    retryable: false,
    message: `response does not have the expected shape (${where}${issue?.message ?? "invalid"})`,
  };
}

/**
 * A tool call whose arguments are not a JSON object: the model's output, which the same request would
 * most likely produce again, so (like a wrong shape) not retried.
 */
function toolCallFailure(error: MalformedToolCall): Failure {
  return { kind: "invalid-response", retryable: false, message: `response has a malformed tool call (${error.message})` };
}

/** A decoder that checks the body with `schema` and converts it. */
function withSchema<T extends z.ZodType, V>(schema: T, convert: (body: z.output<T>) => V): Decode<V> {
  return (json) => {
    const parsed = schema.safeParse(json);
    if (!parsed.success) return shapeFailure(parsed.error.issues[0]);
    try {
      return { parsed: true, value: convert(parsed.data) };
    } catch (error) {
      if (error instanceof MalformedToolCall) return toolCallFailure(error);
      throw error;
    }
  };
}

const decodeCompletion = withSchema(completionResponseSchema, toCompletionResponse);
const decodeCompletionBody = withSchema(completionResponseSchema, (body) => body);
/** Loglikelihood replies: the common shape checked by hand, anything else by zod (which explains a bad one). */
const decodeEchoedCompletion: Decode<EchoedCompletion> = (json) => {
  const value = fastEchoedCompletion(json);
  return value !== undefined ? { parsed: true, value } : decodeCompletionBody(json);
};
const decodeModelList = withSchema(modelListSchema, (body) => body);
const decodeChatWithZod = withSchema(chatResponseSchema, toChatResponse);
/** The common chat body is checked by hand (see fastChatResponse); anything else goes through zod. */
const decodeChat: Decode<ModelResponse> = (json) => {
  const value = fastChatResponse(json);
  const decoded: Parsed<ModelResponse> | Failure = value !== undefined ? { parsed: true, value } : decodeChatWithZod(json);
  const problem = decoded.parsed === true ? noContentProblem(json, decoded.value) : undefined;
  // No answer at all: what the same request would most likely produce again, so (like a wrong shape) not retried.
  if (problem !== undefined) return { kind: "invalid-response", retryable: false, message: problem };
  return decoded;
};

/** A 2xx body: valid JSON of the expected shape, or the failure it is. */
function parseBody<V>(text: string, decode: Decode<V>): Parsed<V> | Failure {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    // A truncated or garbled body is usually a proxy or server hiccup: worth another attempt.
    return { kind: "invalid-response", retryable: true, message: `response is not valid JSON (${(cause as Error).message})`, cause };
  }
  return decode(json);
}

/**
 * A provider for any OpenAI-compatible server (vLLM, SGLang, llama.cpp, OpenAI, ...): chat over
 * `/chat/completions`, completions and loglikelihood over `/completions` with echo + logprobs. Retries
 * with backoff, honours Retry-After and adapts its concurrency to 429s (see the package README).
 */
/** Time limit of a probe (GET /models) of a base URL set aside. */
const PROBE_TIMEOUT_MS = 5000;

export function createOpenAICompatible(settings: OpenAICompatibleSettings): OpenAICompatibleProvider {
  const s = parseSettings(openAICompatibleSettingsSchema, settings, "openai-compatible");
  const baseURLs = s.baseURLs ?? [s.baseURL!];
  const attemptTimeout = createAttemptTimeout({ capMs: s.timeoutMs, floorMs: s.attemptTimeoutFloorMs });
  const transport = createTransport(baseURLs, s.maxConcurrency, { attemptTimeout });
  // Backoff in proportion to how many recent attempts failed (see createRecentFailures), from a base
  // of at most the p99 latency: a fast server's one-off failure is retried after about a response time.
  const failures = createRecentFailures();
  const backoff = (attempt: number, baseMs: number, maxMs: number): number =>
    failures.backoff(attempt, Math.min(baseMs, attemptTimeout.p99 ?? baseMs), maxMs);
  const limiter = createAdaptiveLimiter({
    min: s.minConcurrency,
    max: s.maxConcurrency,
    increaseEvery: s.concurrencyIncreaseEvery,
  });
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
    ...s.headers,
  };
  if (s.apiKey !== undefined && s.apiKey !== "") headers.authorization = `Bearer ${s.apiKey}`;
  const scrub = createScrubber([s.apiKey, ...Object.values(s.headers)]);
  // What the base URLs agreed they serve (describeServedModel), once asked.
  let agreed: { info: ServedModelInfo | undefined } | undefined;
  const balancer = createBalancer(transport.endpoints, {
    maxOutageMs: s.maxOutageMs,
    // Any HTTP answer but a 5xx means the server is back (a 404: it has no /models, but it answers).
    probe: (endpoint) => transport.get(endpoint, "/models", headers, PROBE_TIMEOUT_MS).then((r) => r.status < 500 && servesAgreedModel(r), () => false),
  });
  /** A base URL back with another checkpoint (a replica restarted on another model) would mix answers in one run: it stays aside. */
  function servesAgreedModel(reply: { status: number; text: string }): boolean {
    if (agreed === undefined || reply.status !== 200) return true;
    const list = parseBody(reply.text, decodeModelList);
    return !list.parsed || sameServedModel(servedModelInfo(list.value, s.modelId), agreed.info);
  }
  const who = `openai-compatible model "${s.modelId}"`;
  let closed = false;

  async function call<V>(
    path: string,
    body: Record<string, unknown> | string,
    decode: Decode<V>,
    ctx: ModelCallContext | undefined,
    /** A GET to this one endpoint (no body), instead of a POST to the base URL the balancer picks. */
    getFrom?: Endpoint,
  ): Promise<{ value: V; latencyMs: number; attempts: number; url: string }> {
    const method = getFrom ? "GET" : "POST";
    if (closed) throw new ModelCallError(`${who}: the provider is closed`, { kind: "other", attempts: 0, retryable: false });
    const payload = typeof body === "string" ? body : JSON.stringify(body);
    const signal = ctx?.signal;
    let timeouts = 0;
    // The base URL the last attempt failed on: a retry goes elsewhere when another one is up.
    let lastLane: Lane | undefined;
    for (let attempt = 1; ; attempt++) {
      let ticket: LimiterTicket | undefined;
      let lane: Lane | undefined;
      // Take a slot, then a base URL; when every base URL is set aside (down), give the slot back and
      // wait for one to answer again: the wait spends no attempt.
      for (;;) {
        // A free slot is taken without a promise and an await (the common case at steady state).
        ticket = signal?.aborted ? undefined : limiter.tryAcquire();
        if (ticket === undefined) {
          try {
            ticket = await limiter.acquire(signal);
          } catch (cause) {
            throw abortedCallError(who, method, (getFrom ?? lastLane?.endpoint ?? transport.endpoints[0]!).url + path, attempt - 1, cause);
          }
        }
        if (getFrom) break;
        lane = balancer.pick(lastLane);
        if (lane !== undefined) break;
        limiter.release(ticket, "other");
        try {
          await balancer.whenAvailable(signal);
        } catch (cause) {
          const url = (lastLane?.endpoint ?? transport.endpoints[0]!).url + path;
          if (!(cause instanceof OutageError)) throw abortedCallError(who, method, url, attempt - 1, cause);
          throw outageCallError(method, url, cause, attempt - 1);
        }
      }
      const endpoint: Endpoint = getFrom ?? lane!.endpoint;
      const url = endpoint.url + path;
      let outcome: LimiterOutcome = "other";
      let ended: AttemptOutcome = "cancelled";
      let result: Failure | Parsed<V> | undefined;
      let latencyMs = 0;
      const limitMs = attemptTimeout.timeoutMs(timeouts);
      // A retry says which attempt it is (ATTEMPT_HEADER).
      const sent = attempt === 1 ? headers : { ...headers, [ATTEMPT_HEADER]: String(attempt) };
      try {
        const reply = getFrom
          ? await transport.get(endpoint, path, sent, limitMs, signal, timeouts)
          : await transport.post(endpoint, path, payload, sent, limitMs, signal, timeouts);
        latencyMs = reply.latencyMs;
        if (reply.status >= 200 && reply.status < 300) {
          result = parseBody(reply.text, decode);
          if (result.parsed) {
            outcome = "success";
            ended = "ok";
            attemptTimeout.record(reply.latencyMs);
            failures.note(false);
            return { value: result.value, latencyMs: reply.latencyMs, attempts: attempt, url };
          }
          ended = "failed";
        } else {
          if (reply.status === 429) outcome = "rate-limited";
          ended = reply.status < 500 ? "failed" : "down";
          result = statusFailure(reply.status, reply.headers, errorText(reply.text));
        }
      } catch (cause) {
        if (!(cause instanceof TransportError)) throw cause;
        if (cause.kind === "aborted") {
          ended = "cancelled";
          throw abortedCallError(who, method, url, attempt, cause);
        }
        if (cause.kind === "timeout") timeouts++;
        ended = cause.unreachable ? "unreachable" : "down";
        result = { kind: cause.kind, retryable: true, message: cause.message, cause: cause.cause };
      } finally {
        limiter.release(ticket, outcome, { retryAfterMs: result && !result.parsed ? result.retryAfterMs : undefined });
        if (lane) balancer.end(lane, ended, latencyMs, ended === "down" || ended === "unreachable" ? (result as Failure).message : undefined);
      }
      lastLane = lane;
      if (result.parsed) throw new TypeError("unreachable: a parsed reply has returned");
      const failure: Failure = result;
      failures.note(true);
      if (!failure.retryable || attempt >= s.maxAttempts) throw failedCallError(who, method, url, failure, attempt, scrub);
      const delay = retryDelay(failure, attempt, s, backoff);
      ctx?.log?.(`${who}: attempt ${attempt}/${s.maxAttempts} failed (${scrub(failure.message)}); retrying in ${Math.round(delay)} ms`);
      ctx?.onRetry?.({ attempt, maxAttempts: s.maxAttempts, kind: failure.kind, ...(failure.status !== undefined ? { status: failure.status } : {}), delayMs: delay });
      try {
        await sleep(delay, signal);
      } catch (cause) {
        throw abortedCallError(who, method, url, attempt, cause);
      }
    }
  }

  /**
   * A request that found every base URL down for longer than maxOutageMs: a network error. Finding
   * no server counts as an attempt when the request had made none (a record has at least one).
   */
  function outageCallError(method: string, url: string, cause: OutageError, attempts: number): ModelCallError {
    return new ModelCallError(`${who}: ${method} ${url} failed: ${scrub(cause.message)}`, {
      kind: "network",
      attempts: Math.max(1, attempts),
      retryable: false,
      url,
      cause,
    });
  }

  function errorText(text: string): string {
    let message = text;
    try {
      const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
      const candidate =
        typeof json.error === "object" && json.error !== null ? json.error.message : (json.error ?? json.message ?? json.detail);
      if (typeof candidate === "string") message = candidate;
      else if (candidate !== undefined) message = JSON.stringify(candidate);
    } catch {
      // not JSON: keep the raw text
    }
    return shortErrorText(message, scrub);
  }

  const chatFields = (params: GenerationParams) => openAIChatFields(params, who);
  const samplingFields = openAISamplingFields;

  /**
   * The start of a chat body for the given params, `{<sampling fields>,"model":...,"messages":`, so
   * a request only stringifies its messages: equal to JSON.stringify of
   * `{ ...chatFields(params), model, messages }`. Null when extraBody names model or messages
   * (their key position would then differ): such params take the general path.
   */
  const chatPrefixes = new WeakMap<GenerationParams, string | null>();
  function chatPrefix(params: GenerationParams): string | null {
    let prefix = chatPrefixes.get(params);
    if (prefix === undefined) {
      const sampling = chatFields(params);
      if ("model" in sampling || "messages" in sampling) prefix = null;
      else {
        const inner = JSON.stringify(sampling).slice(1, -1);
        prefix = `{${inner}${inner === "" ? "" : ","}"model":${JSON.stringify(s.modelId)},"messages":`;
      }
      chatPrefixes.set(params, prefix);
    }
    return prefix;
  }

  async function generate(request: ModelRequest, ctx?: ModelCallContext): Promise<ModelResponse> {
    if (request.kind === "chat") {
      const prefix = chatPrefix(request.params);
      const body =
        prefix === null
          ? { ...chatFields(request.params), model: s.modelId, messages: request.messages }
          : `${prefix}${JSON.stringify(request.messages)}}`;
      const r = await call("/chat/completions", body, decodeChat, ctx);
      // The decoded response is ours alone: add the latency in place (same key order as a spread).
      r.value.latencyMs = r.latencyMs;
      return r.value;
    }
    if (request.params.tools !== undefined && request.params.tools.length > 0) {
      throw new ConfigError(`${who}: tools need a chat request; /completions has no tool calls`, { keyPath: ["params", "tools"] });
    }
    const body: Record<string, unknown> = { ...samplingFields(request.params), model: s.modelId, prompt: request.prompt };
    if (request.echo !== undefined) body.echo = request.echo;
    if (request.logprobs !== undefined) body.logprobs = request.logprobs;
    const r = await call("/completions", body, decodeCompletion, ctx);
    r.value.latencyMs = r.latencyMs;
    return r.value;
  }

  async function loglikelihood(request: LoglikelihoodRequest, ctx?: ModelCallContext): Promise<LoglikelihoodResult> {
    requireContext(request);
    const prompt = request.context + request.continuation;
    const body = { model: s.modelId, prompt, max_tokens: 0, echo: true, logprobs: 1 };
    const r = await call("/completions", body, decodeEchoedCompletion, ctx);
    const scored = scoreEchoedChoice(r.value.choices[0]?.logprobs, request.context, request.continuation);
    if (!scored) throw noEchoedLogprobs(r);
    return scored;
  }

  // Cleared once a server refuses a prompt array that it then answers prompt by prompt.
  let promptArrays = true;

  /** The requests as one `/completions` call with a prompt array (OpenAI, vLLM, SGLang accept one). */
  async function loglikelihoodBatch(requests: readonly LoglikelihoodRequest[], ctx?: ModelCallContext): Promise<LoglikelihoodResult[]> {
    for (const request of requests) requireContext(request);
    if (requests.length <= 1 || !promptArrays) return oneByOne(requests, ctx);
    const prompt = requests.map((q) => q.context + q.continuation);
    const body = { model: s.modelId, prompt, max_tokens: 0, echo: true, logprobs: 1 };
    const r = await call("/completions", body, decodeEchoedCompletion, ctx).catch((error: unknown) => {
      if (error instanceof ModelCallError && (error.status === 400 || error.status === 422)) return undefined;
      throw error;
    });
    if (r === undefined) {
      // Maybe only the array was refused: if the prompts pass one by one, stop sending arrays.
      const results = await oneByOne(requests, ctx);
      promptArrays = false;
      ctx?.log?.(`${who}: the server refused a prompt array on /completions; loglikelihoods go one prompt per request`);
      return results;
    }
    const choices = choicesInPromptOrder(r.value.choices, requests.length);
    if (!choices) {
      throw new ModelCallError(`${who}: POST ${r.url} returned ${r.value.choices.length} choices for ${requests.length} prompts`, {
        kind: "invalid-response",
        attempts: r.attempts,
        retryable: false,
        url: r.url,
      });
    }
    return requests.map((q, i) => {
      const scored = scoreEchoedChoice(choices[i]!.logprobs, q.context, q.continuation);
      if (!scored) throw noEchoedLogprobs(r);
      return scored;
    });
  }

  async function oneByOne(requests: readonly LoglikelihoodRequest[], ctx?: ModelCallContext): Promise<LoglikelihoodResult[]> {
    const results: LoglikelihoodResult[] = [];
    for (const request of requests) results.push(await loglikelihood(request, ctx));
    return results;
  }

  function requireContext(request: LoglikelihoodRequest): void {
    if (request.context === "") {
      throw new ConfigError(`${who}: loglikelihood needs a non-empty context (the first prompt token has no logprob)`);
    }
  }

  function noEchoedLogprobs(r: { url: string; attempts: number }): ModelCallError {
    return new ModelCallError(
      `${who}: POST ${r.url} returned no usable echoed logprobs for the continuation (does the server support echo with logprobs on /completions?)`,
      { kind: "invalid-response", attempts: r.attempts, retryable: false, url: r.url },
    );
  }

  /**
   * Asks every base URL's `GET /models` what it serves as this model (vLLM/SGLang: root and
   * max_model_len), all at once (start-up does not grow with the fleet). A server without the
   * endpoint (404, 405) says nothing; base URLs that disagree are a ConfigError (see
   * agreedServedModel). Errors and warnings come in base-URL order, whatever answered first.
   */
  async function describeServedModel(ctx?: CallContext): Promise<ServedModelInfo | undefined> {
    // A base URL set aside (down at start) is not asked: its probe checks it against what the others agreed.
    const up = new Set(balancer.lanes.filter((l) => !l.setAside).map((l) => l.endpoint));
    const endpoints = transport.endpoints.filter((e, i, all) => up.has(e) && all.findIndex((o) => o.url === e.url) === i);
    const asked = endpoints.map((endpoint) => askServedModel(endpoint, ctx));
    for (const a of asked) a.catch(() => {}); // failures after the one reported are dropped, not left unhandled
    const reports: ServedModelReport[] = [];
    for (const a of asked) {
      const { report, warning } = await a;
      if (warning) ctx?.log?.(warning);
      reports.push(report);
    }
    const info = agreedServedModel(s.modelId, reports);
    agreed = { info };
    return info;
  }

  async function askServedModel(endpoint: Endpoint, ctx?: CallContext): Promise<{ report: ServedModelReport; warning?: string }> {
    try {
      const r = await call("/models", "", decodeModelList, ctx, endpoint);
      const report = { url: endpoint.url, info: servedModelInfo(r.value, s.modelId) };
      if (r.value.data.some((m) => m.id === s.modelId)) return { report };
      return {
        report,
        warning: `warning: ${who}: ${endpoint.url}/models does not list the model (it lists ${r.value.data.map((m) => JSON.stringify(m.id)).join(", ") || "none"}), so its checkpoint cannot be told apart from another's under this name; pass --model-revision to keep their cached answers apart`,
      };
    } catch (error) {
      if (!(error instanceof ModelCallError && (error.status === 404 || error.status === 405))) throw error;
      return { report: { url: endpoint.url, info: undefined } };
    }
  }

  return {
    specVersion: "v1",
    id: "openai-compatible",
    modelId: s.modelId,
    limiter,
    baseURLs: transport.endpoints.map((e) => e.url),
    endpointStats: () => balancer.stats(),
    setBaseURLAside(baseURL, why) {
      const lane = balancer.lanes[baseURLs.indexOf(baseURL)];
      if (lane === undefined) throw new TypeError(`${who}: ${baseURL} is not one of its base URLs`);
      balancer.setAside(lane, why);
    },
    // Base URLs stay out on purpose: the cache survives moving the model to another server.
    identity: () => `openai-compatible:${s.modelId}`,
    generate,
    loglikelihood,
    loglikelihoodBatch,
    describeServedModel,
    async close() {
      if (closed) return;
      closed = true;
      balancer.close();
      await transport.close();
    },
  };
}
