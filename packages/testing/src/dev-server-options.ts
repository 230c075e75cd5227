import { ConfigError } from "@yardstick/core";
import { z } from "zod";
import type { DevServerPolicy } from "./dev-server-policy.js";

export const FAULT_KINDS = ["429", "500", "529", "reset", "malformed", "hang"] as const;
/** A fault the server can inject instead of answering. */
export type FaultKind = (typeof FAULT_KINDS)[number];

const rate = z.number().min(0).max(1).optional();
export const devServerFaultsSchema = z
  .strictObject({
    rate429: rate,
    rate500: rate,
    /** Anthropic's "overloaded" status (sent with Retry-After, as the 429s). */
    rate529: rate,
    rateReset: rate,
    rateMalformed: rate,
    rateHang: rate,
    /** Value of the Retry-After header sent with injected 429s and 529s (default 1). */
    retryAfterSeconds: z.number().min(0).optional(),
    /**
     * Faults for the first requests, in order (`null` = answer normally); the rates apply after the
     * script runs out. Lets a test fail exactly the first N attempts.
     */
    script: z.array(z.enum(FAULT_KINDS).nullable()).optional(),
  })
  .refine((f) => (f.rate429 ?? 0) + (f.rate500 ?? 0) + (f.rate529 ?? 0) + (f.rateReset ?? 0) + (f.rateMalformed ?? 0) + (f.rateHang ?? 0) <= 1, {
    message: "the fault rates must add up to at most 1",
  });

export type DevServerFaults = z.input<typeof devServerFaultsSchema>;

const latencySchema = z.union([
  z.number().min(0),
  z.strictObject({ min: z.number().min(0), max: z.number().min(0) }).refine((l) => l.min <= l.max, {
    message: "latency min must not exceed max",
  }),
]);

/** How the batch APIs (OpenAI Batch, Anthropic Message Batches) behave. */
export const devServerBatchSchema = z.strictObject({
  /** Time a batch spends in progress before it ends (default 0: ends right after validation). */
  processingMs: z.number().min(0).default(0),
  /** Share of a batch's requests that fail (a 500 in OpenAI's error file, an `errored` Anthropic result), drawn with the seed. */
  failRate: z.number().min(0).max(1).default(0),
  /**
   * Share of a batch's requests still unfinished when it expires (the last ones of the batch,
   * rounded up): 0 (default) = batches never expire.
   */
  expireRate: z.number().min(0).max(1).default(0),
  /** Requests allowed in one batch (default the APIs' own: OpenAI 50,000, Anthropic 100,000). */
  maxRequests: z.number().int().min(1).optional(),
});

export type DevServerBatch = z.input<typeof devServerBatchSchema>;

const policySchema = z.custom<DevServerPolicy>(
  (p) =>
    p === "echo" ||
    typeof p === "function" ||
    (typeof p === "object" &&
      p !== null &&
      (typeof (p as { fixed?: unknown }).fixed === "string" || typeof (p as { file?: unknown }).file === "string")),
  { message: 'expected "echo", {fixed: string}, {file: string, fallback?: string} or a function' },
);

export const devServerOptionsSchema = z.strictObject({
  /** 0 (default) picks a free port. */
  port: z.number().int().min(0).max(65535).default(0),
  host: z.string().min(1).default("127.0.0.1"),
  policy: policySchema.default("echo"),
  /** Time from a request's arrival to its answer (parsing the body inside it): fixed, or a seeded uniform draw in [min, max]. */
  latencyMs: latencySchema.default(0),
  faults: devServerFaultsSchema.optional(),
  /** Seed of the fault and latency draws. */
  seed: z.number().int().default(0),
  /** Model ids listed by GET /v1/models (requests may name any model). */
  models: z.array(z.string().min(1)).min(1).default(["yardstick-dev"]),
  /** The checkpoint `GET /v1/models` reports as `root` (vLLM's field); default derived from `policy`. */
  root: z.string().min(1).optional(),
  /** When set, `POST /v1/messages` requires it as `x-api-key` (401 otherwise); the OpenAI endpoints stay open. */
  apiKey: z.string().min(1).optional(),
  /** Batch API behaviour: processing delay, partial failures, expiry. */
  batch: devServerBatchSchema.default({ processingMs: 0, failRate: 0, expireRate: 0 }),
  /** The context length `GET /v1/models` reports as `max_model_len`. */
  maxModelLen: z.number().int().min(1).default(32768),
});

export type DevServerOptions = z.input<typeof devServerOptionsSchema>;
export type ResolvedDevServerOptions = z.output<typeof devServerOptionsSchema>;

export function parseDevServerOptions(options: unknown): ResolvedDevServerOptions {
  const parsed = devServerOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid dev server options: ${issue?.message ?? "invalid"}`, {
      keyPath: (issue?.path ?? []).map((k) => (typeof k === "symbol" ? String(k) : k)),
    });
  }
  return parsed.data;
}
