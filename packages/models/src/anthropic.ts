import {
  ATTEMPT_HEADER,
  ConfigError,
  type GenerationParams,
  type ModelCallContext,
  type ModelProviderV1,
  type ModelRequest,
  type ModelResponse,
  type TokenUsage,
} from "@yardstick/core";
import {
  type AdaptiveLimiter,
  type AttemptOutcome,
  createAdaptiveLimiter,
  createBalancer,
  createAttemptTimeout,
  createRecentFailures,
  createTransport,
  type LimiterOutcome,
  OutageError,
  sleep,
  TransportError,
} from "@yardstick/http";
import { anthropicBodyFields } from "./anthropic-request-body.js";
import { type AnthropicSettings, anthropicHeaders, anthropicSettingsSchema } from "./anthropic-settings.js";
import {
  errorBodySchema,
  type MessageResponseBody,
  messageResponseSchema,
  toAnthropicMessages,
  toChoice,
  toUsage,
} from "./anthropic-wire.js";
import { parseSettings } from "./config-error.js";
import { abortedCallError, type CallFailure, createScrubber, failedCallError, ModelCallError, retryDelay, shortErrorText, statusFailure } from "./model-call-error.js";

export interface AnthropicProvider extends ModelProviderV1 {
  readonly id: "anthropic";
  /** The in-flight limiter (its `limit` is the current adaptive concurrency). */
  readonly limiter: AdaptiveLimiter;
  /** Where requests go, e.g. `https://api.anthropic.com/v1/messages`. */
  readonly messagesURL: string;
  close(): Promise<void>;
}

/** Time limit of a probe (GET /v1/models) of the server once it is set aside. */
const PROBE_TIMEOUT_MS = 5000;

/** 529 is Anthropic's "overloaded": like a 429, a reason to send less, not only to wait. */
const OVERLOADED = 529;

/**
 * A provider for the Anthropic Messages API (`POST /v1/messages`): chat requests only. Shares the
 * transport, retry policy and adaptive limiter of `@yardstick/http` with the OpenAI-compatible
 * provider; retries 408/409/429/5xx/529 honouring `retry-after` (see the package README).
 */
export function createAnthropic(settings: AnthropicSettings): AnthropicProvider {
  const s = parseSettings(anthropicSettingsSchema, settings, "anthropic");
  const attemptTimeout = createAttemptTimeout({ capMs: s.timeoutMs, floorMs: s.attemptTimeoutFloorMs });
  const transport = createTransport([s.baseURL], s.maxConcurrency, { attemptTimeout });
  // Backoff in proportion to how many recent attempts failed (see createRecentFailures), from a base
  // of at most the p99 latency: a fast server's one-off failure is retried after about a response time.
  const failures = createRecentFailures();
  const backoff = (attempt: number, baseMs: number, maxMs: number): number =>
    failures.backoff(attempt, Math.min(baseMs, attemptTimeout.p99 ?? baseMs), maxMs);
  const endpoint = transport.endpoints[0]!;
  // The SDKs' base URL has no /v1; one that has it (as OpenAI-style base URLs do) is taken as is.
  const path = /\/v1$/.test(endpoint.basePath) ? "/messages" : "/v1/messages";
  const url = endpoint.url + path;
  const limiter = createAdaptiveLimiter({ min: s.minConcurrency, max: s.maxConcurrency, increaseEvery: s.concurrencyIncreaseEvery });
  const headers = anthropicHeaders(s);
  const scrub = createScrubber([s.apiKey, ...Object.values(s.headers)]);
  const who = `anthropic model "${s.modelId}"`;
  // One endpoint: the balancer only sets it aside when it is down, so requests wait for it to come back.
  const modelsPath = path === "/messages" ? "/models" : "/v1/models";
  const balancer = createBalancer(transport.endpoints, {
    maxOutageMs: s.maxOutageMs,
    probe: (e) => transport.get(e, modelsPath, headers, PROBE_TIMEOUT_MS).then((r) => r.status < 500, () => false),
  });
  let closed = false;

  /** One POST, retried until it gives a message body or a final error. */
  async function post(payload: string, ctx: ModelCallContext | undefined): Promise<{ body: MessageResponseBody; latencyMs: number }> {
    if (closed) throw new ModelCallError(`${who}: the provider is closed`, { kind: "other", attempts: 0, retryable: false });
    const signal = ctx?.signal;
    let timeouts = 0;
    for (let attempt = 1; ; attempt++) {
      // While the server is set aside (down) the request waits for it to answer again, spending no attempt.
      let lane = balancer.pick();
      while (lane === undefined) {
        try {
          await balancer.whenAvailable(signal);
        } catch (cause) {
          if (!(cause instanceof OutageError)) throw abortedCallError(who, "POST", url, attempt - 1, cause);
          throw new ModelCallError(`${who}: POST ${url} failed: ${scrub(cause.message)}`, { kind: "network", attempts: Math.max(1, attempt - 1), retryable: false, url, cause });
        }
        lane = balancer.pick();
      }
      let ticket: Awaited<ReturnType<AdaptiveLimiter["acquire"]>>;
      try {
        ticket = await limiter.acquire(signal);
      } catch (cause) {
        balancer.end(lane, "cancelled", 0);
        throw abortedCallError(who, "POST", url, attempt - 1, cause);
      }
      let outcome: LimiterOutcome = "other";
      let ended: AttemptOutcome = "cancelled";
      let latencyMs = 0;
      let failure: CallFailure | undefined;
      try {
        const sent = attempt === 1 ? headers : { ...headers, [ATTEMPT_HEADER]: String(attempt) };
        const reply = await transport.post(endpoint, path, payload, sent, attemptTimeout.timeoutMs(timeouts), signal, timeouts);
        latencyMs = reply.latencyMs;
        if (reply.status >= 200 && reply.status < 300) {
          const read = readMessage(reply.text);
          if ("body" in read) {
            outcome = "success";
            ended = "ok";
            attemptTimeout.record(reply.latencyMs);
            failures.note(false);
            return { body: read.body, latencyMs: reply.latencyMs };
          }
          ended = "failed";
          failure = read;
        } else {
          if (reply.status === 429 || reply.status === OVERLOADED) outcome = "rate-limited";
          // 529 (overloaded) is the API's way to say "send less": it is up.
          ended = reply.status < 500 || reply.status === OVERLOADED ? "failed" : "down";
          failure = statusFailure(reply.status, reply.headers, errorText(reply.text));
        }
      } catch (cause) {
        if (!(cause instanceof TransportError)) throw cause;
        if (cause.kind === "aborted") throw abortedCallError(who, "POST", url, attempt, cause);
        if (cause.kind === "timeout") timeouts++;
        ended = cause.unreachable ? "unreachable" : "down";
        failure = { kind: cause.kind, retryable: true, message: cause.message, cause: cause.cause };
      } finally {
        limiter.release(ticket, outcome, { retryAfterMs: failure?.retryAfterMs });
        balancer.end(lane, ended, latencyMs, ended === "down" || ended === "unreachable" ? failure?.message : undefined);
      }
      failures.note(true);
      if (!failure.retryable || attempt >= s.maxAttempts) throw failedCallError(who, "POST", url, failure, attempt, scrub);
      const delay = retryDelay(failure, attempt, s, backoff);
      ctx?.log?.(`${who}: attempt ${attempt}/${s.maxAttempts} failed (${scrub(failure.message)}); retrying in ${Math.round(delay)} ms`);
      ctx?.onRetry?.({ attempt, maxAttempts: s.maxAttempts, kind: failure.kind, ...(failure.status !== undefined ? { status: failure.status } : {}), delayMs: delay });
      try {
        await sleep(delay, signal);
      } catch (cause) {
        throw abortedCallError(who, "POST", url, attempt, cause);
      }
    }
  }

  /** A 2xx body: a message, or why not (garbled JSON is retried: usually a proxy hiccup; a wrong shape is not). */
  function readMessage(text: string): { body: MessageResponseBody } | CallFailure {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      return { kind: "invalid-response", retryable: true, message: `response is not valid JSON (${(cause as Error).message})`, cause };
    }
    const parsed = messageResponseSchema.safeParse(json);
    if (parsed.success) return { body: parsed.data };
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    return {
      kind: "invalid-response",
      retryable: false,
      message: `response is not a Messages API message (${where}${issue?.message ?? "invalid"})`,
    };
  }

  /** "rate_limit_error: Number of requests ..." from an error body, else the raw text, shortened and scrubbed. */
  function errorText(text: string): string {
    let message = text;
    try {
      const parsed = errorBodySchema.safeParse(JSON.parse(text));
      if (parsed.success) message = `${parsed.data.error.type}: ${parsed.data.error.message}`;
    } catch {
      // not JSON: keep the raw text
    }
    return shortErrorText(message, scrub);
  }

  const bodyFields = (params: GenerationParams) => anthropicBodyFields(params, s.modelId, s.defaultMaxTokens, who);

  async function generate(request: ModelRequest, ctx?: ModelCallContext): Promise<ModelResponse> {
    if (request.kind !== "chat") {
      throw new ConfigError(`${who}: the Anthropic Messages API has no completion endpoint; use a chat prompt for this task`, {
        expected: "a chat task (messages), not a completion prompt",
      });
    }
    const { system, messages } = toAnthropicMessages(request.messages);
    const payload = JSON.stringify({ ...bodyFields(request.params), ...(system !== undefined ? { system } : {}), messages });
    const n = Math.max(1, request.params.n ?? 1);
    const replies = await Promise.all(Array.from({ length: n }, () => post(payload, ctx)));
    const choices = replies.map((r) => toChoice(r.body));
    const first = choices[0]!;
    const out: ModelResponse = { text: first.text, finishReason: first.finishReason, choices };
    if (first.reasoningContent !== undefined) out.reasoningContent = first.reasoningContent;
    if (first.toolCalls !== undefined) out.toolCalls = first.toolCalls;
    const usage = sumUsage(replies.map((r) => toUsage(r.body)));
    if (usage) out.usage = usage;
    const model = replies[0]!.body.model;
    if (model !== undefined) out.model = model;
    out.latencyMs = Math.max(...replies.map((r) => r.latencyMs));
    return out;
  }

  return {
    specVersion: "v1",
    id: "anthropic",
    modelId: s.modelId,
    limiter,
    messagesURL: url,
    // The base URL stays out on purpose: the cache survives a proxy in front of the API.
    identity: () => `anthropic:${s.modelId}`,
    generate,
    async close() {
      if (closed) return;
      closed = true;
      balancer.close();
      await transport.close();
    },
  };
}

/** The usage of n repeated requests: the sum (each one paid for its prompt). */
function sumUsage(list: (TokenUsage | undefined)[]): TokenUsage | undefined {
  // A reply without usage makes the sum unknown, not smaller.
  if (list.some((u) => u === undefined)) return undefined;
  return list.reduce<TokenUsage>(
    (sum, u) => ({
      promptTokens: sum.promptTokens + u!.promptTokens,
      completionTokens: sum.completionTokens + u!.completionTokens,
      totalTokens: sum.totalTokens + u!.totalTokens,
    }),
    { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  );
}
