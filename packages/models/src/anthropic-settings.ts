import { z } from "zod";
import { baseUrlSchema } from "./base-url.js";

export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
/** The API version sent as `anthropic-version` unless the settings name another. */
export const ANTHROPIC_VERSION = "2023-06-01";

const baseUrl = baseUrlSchema(ANTHROPIC_BASE_URL);

/** Settings of `createAnthropic`. */
export const anthropicSettingsSchema = z
  .strictObject({
    /** The model name sent in every request, e.g. "claude-sonnet-4-5". */
    modelId: z.string().min(1),
    /** Where `/v1/messages` lives (a base URL already ending in `/v1` is used as is). */
    baseURL: baseUrl.default(ANTHROPIC_BASE_URL),
    /** Sent only as `x-api-key`; never part of identity() or error messages. */
    apiKey: z.string().optional(),
    anthropicVersion: z.string().min(1).default(ANTHROPIC_VERSION),
    /** Upper bound of requests in flight (and of connections). */
    maxConcurrency: z.number().int().min(1).default(8),
    minConcurrency: z.number().int().min(1).default(1),
    concurrencyIncreaseEvery: z.number().int().min(1).default(10),
    /** Attempts per request, the first included. */
    maxAttempts: z.number().int().min(1).default(6),
    /**
     * Time limit of one attempt, from sending to the last byte of the answer. Once 20 answers are known
     * an attempt is cut sooner, after max(attemptTimeoutFloorMs, 4 × p99 of recent latencies), doubled
     * per earlier timeout of the same request: a hung request does not hold its slot for this long.
     */
    timeoutMs: z.number().int().min(1).default(600_000),
    /** Shortest adaptive attempt time limit (see timeoutMs). */
    attemptTimeoutFloorMs: z.number().int().min(1).default(1000),
    backoff: z
      .strictObject({ baseMs: z.number().min(0).default(500), maxMs: z.number().min(0).default(30_000) })
      .default({ baseMs: 500, maxMs: 30_000 }),
    /**
     * How long the server may be unreachable (set aside after failing) before the requests waiting for
     * it fail with a network error; meanwhile requests wait for it instead of spending their attempts.
     */
    maxOutageMs: z.number().int().min(0).default(180_000),
    /** Longest Retry-After honoured; longer requests wait this long (default 60 s). */
    maxRetryAfterMs: z.number().min(0).default(60_000),
    /** `max_tokens` of requests whose params set none (the API requires one). */
    defaultMaxTokens: z.number().int().min(1).optional(),
    /** Extra HTTP headers for every request (e.g. `anthropic-beta`). */
    headers: z.record(z.string(), z.string()).default({}),
  })
  .refine((s) => s.minConcurrency <= s.maxConcurrency, {
    message: "minConcurrency must not exceed maxConcurrency",
    path: ["minConcurrency"],
  });

export type AnthropicSettings = z.input<typeof anthropicSettingsSchema>;
export type ResolvedAnthropicSettings = z.output<typeof anthropicSettingsSchema>;

/** The headers of every Messages API call (online and batch): JSON, the API version, the key, and the user's own. */
export function anthropicHeaders(s: ResolvedAnthropicSettings): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
    "anthropic-version": s.anthropicVersion,
    ...s.headers,
  };
  if (s.apiKey !== undefined && s.apiKey !== "") headers["x-api-key"] = s.apiKey;
  return headers;
}
