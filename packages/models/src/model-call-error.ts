import { ApiCallError, type ModelErrorRecord } from "@yardstick/core";

/**
 * The ApiCallError a provider throws when a request failed for good. Besides status and retryable it
 * carries what the engine's error record needs: the failure kind and the number of attempts made.
 * `ApiCallError.isInstance` recognises it.
 */
export class ModelCallError extends ApiCallError {
  readonly kind: ModelErrorRecord["kind"];
  readonly attempts: number;

  constructor(
    message: string,
    details: {
      kind: ModelErrorRecord["kind"];
      attempts: number;
      status?: number;
      retryable: boolean;
      url?: string;
      retryAfterSeconds?: number;
      cause?: unknown;
    },
  ) {
    super(message, details);
    this.kind = details.kind;
    this.attempts = details.attempts;
  }

  /** The record the engine stores for a failed request. */
  toRecord(): ModelErrorRecord {
    const record: ModelErrorRecord = { message: this.message, kind: this.kind, attempts: this.attempts };
    if (this.status !== undefined) record.status = this.status;
    return record;
  }
}
