import { type CallContext, ConfigError, type ModelErrorRecord, type ModelRequest, type ModelResponse } from "@yardstick/core";

/** One request of a batch, named by an id unique within the batch (letters, digits, "_" and "-", at most 64). */
export interface BatchItem {
  customId: string;
  request: ModelRequest;
}

/** A batch the provider created, and the requests it holds. */
export interface BatchHandle {
  id: string;
  customIds: string[];
}

/** Where a batch stands: still running, or ended and how. */
export interface BatchStatus {
  id: string;
  state: "running" | "ended";
  /** How an ended batch ended: every request has a result or error (completed), or some never ran. */
  outcome?: "completed" | "failed" | "expired" | "cancelled";
  /** Why a batch failed, expired or was cancelled, in the provider's words. */
  reason?: string;
  /** The provider's own status name (e.g. "in_progress", "finalizing", "ended"). */
  providerStatus: string;
}

/** The result of one request of an ended batch. */
export type BatchResult =
  | { ok: true; response: ModelResponse }
  /** `retryable`: worth sending again in a new batch (a server error, an expired or cancelled request). */
  | { ok: false; error: ModelErrorRecord; retryable: boolean };

export interface BatchSubmitContext extends CallContext {
  /** Called as each batch is created, before the next one is sent (a caller records it at once). */
  onCreated?: (handle: BatchHandle) => void | Promise<void>;
}

/**
 * A provider's batch API behind one interface (OpenAI Batch, Anthropic Message Batches): submit
 * requests (split by the provider's count and size limits), ask a batch's status, read its results.
 */
export interface BatchClient {
  readonly api: "openai" | "anthropic";
  /** What one batch may hold: requests, and bytes of the serialised batch. */
  readonly limits: { maxRequests: number; maxBytes: number };
  submit(items: readonly BatchItem[], ctx?: BatchSubmitContext): Promise<BatchHandle[]>;
  /** Undefined when the provider does not know the batch (deleted, another account, another server). */
  status(batchId: string, ctx?: CallContext): Promise<BatchStatus | undefined>;
  /** The results of an ended batch by custom id; requests that never ran are absent. */
  results(batchId: string, ctx?: CallContext): Promise<Map<string, BatchResult>>;
  cancel(batchId: string, ctx?: CallContext): Promise<void>;
  close(): Promise<void>;
}

/** Limits a client may be given (lower than the API's, for tests or a proxy with its own). */
export interface BatchLimitOptions {
  maxRequests?: number;
  maxBytes?: number;
}

const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Splits serialised batch lines into groups within the limits, in order. `sizeOf` is each line's
 * size in bytes; `overhead` what the batch adds around them. A line over the size limit alone is a
 * ConfigError naming it.
 */
export function splitByLimits<T>(
  lines: readonly T[],
  sizeOf: (line: T) => number,
  limits: { maxRequests: number; maxBytes: number },
  overhead = 0,
  nameOf: (line: T) => string = () => "a request",
): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let bytes = overhead;
  for (const line of lines) {
    const size = sizeOf(line);
    if (size + overhead > limits.maxBytes) {
      throw new ConfigError(`${nameOf(line)} is ${size} bytes, more than a batch may hold (${limits.maxBytes} bytes)`);
    }
    if (current.length >= limits.maxRequests || bytes + size > limits.maxBytes) {
      groups.push(current);
      current = [];
      bytes = overhead;
    }
    current.push(line);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Custom ids must be unique within a submission and fit both APIs' rules. */
export function checkCustomIds(items: readonly BatchItem[]): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (!CUSTOM_ID.test(item.customId)) {
      throw new ConfigError(`batch custom id ${JSON.stringify(item.customId)} must be 1 to 64 letters, digits, "_" or "-"`);
    }
    if (seen.has(item.customId)) throw new ConfigError(`batch custom id ${JSON.stringify(item.customId)} is used twice`);
    seen.add(item.customId);
  }
}
