import type { CallContext } from "./contracts.js";
import type { ModelErrorRecord, ModelRequest, ModelResponse } from "./messages.js";

/**
 * A provider's batch API (OpenAI Batch, Anthropic Message Batches), as the engine uses it: the
 * clients live in @yardstick/models, the answering stages in @yardstick/engine.
 */

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

