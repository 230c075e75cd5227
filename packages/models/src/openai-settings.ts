import { z } from "zod";
import { baseUrlSchema } from "./base-url.js";

const baseUrl = baseUrlSchema("http://127.0.0.1:8000/v1");

/** Settings of `createOpenAICompatible`. */
export const openAICompatibleSettingsSchema = z
  .strictObject({
    /** The model name sent in every request, e.g. "Qwen/Qwen3-8B". */
    modelId: z.string().min(1),
    /** One or more base URLs (each like http://host:port/v1); requests are shared by their latency and load, a failing one set aside. */
    baseURLs: z.array(baseUrl).min(1).optional(),
    /** Shorthand for a single base URL. */
    baseURL: baseUrl.optional(),
    /** Sent only as `Authorization: Bearer <apiKey>`; never part of identity() or error messages. */
    apiKey: z.string().optional(),
    /** Upper bound of requests in flight (and of connections per origin). */
    maxConcurrency: z.number().int().min(1).default(32),
    /** Lower bound the adaptive limit never goes below. */
    minConcurrency: z.number().int().min(1).default(1),
    /** Successes per +1 of the adaptive limit after a 429 halved it. */
    concurrencyIncreaseEvery: z.number().int().min(1).default(10),
    /** Attempts per request, the first included. */
    maxAttempts: z.number().int().min(1).default(6),
    /**
     * Time limit of one attempt, from sending to the last byte of the answer. Once 20 answers are known
     * an attempt is cut sooner, after max(attemptTimeoutFloorMs, 4 × p99 of recent latencies), doubled
     * per earlier timeout of the same request: a hung request does not hold its slot for this long.
     */
    timeoutMs: z.number().int().min(1).default(120_000),
    /** Shortest adaptive attempt time limit (see timeoutMs). */
    attemptTimeoutFloorMs: z.number().int().min(1).default(1000),
    backoff: z
      .strictObject({ baseMs: z.number().min(0).default(500), maxMs: z.number().min(0).default(30_000) })
      .default({ baseMs: 500, maxMs: 30_000 }),
    /**
     * How long every base URL may be unreachable (set aside after failing) before the requests waiting
     * for one fail with a network error; requests wait for a base URL to answer again instead of
     * spending their attempts while it is down.
     */
    maxOutageMs: z.number().int().min(0).default(180_000),
    /** Longest Retry-After honoured; longer requests wait this long (default 60 s). */
    maxRetryAfterMs: z.number().min(0).default(60_000),
    /** Extra HTTP headers for every request. */
    headers: z.record(z.string(), z.string()).default({}),
  })
  .refine((s) => s.baseURLs !== undefined || s.baseURL !== undefined, {
    message: "give baseURLs (a list of base URLs) or baseURL",
    path: ["baseURLs"],
  })
  .refine((s) => s.minConcurrency <= s.maxConcurrency, {
    message: "minConcurrency must not exceed maxConcurrency",
    path: ["minConcurrency"],
  });

export type OpenAICompatibleSettings = z.input<typeof openAICompatibleSettingsSchema>;
export type ResolvedOpenAICompatibleSettings = z.output<typeof openAICompatibleSettingsSchema>;
