import type { IncomingHttpHeaders } from "node:http";
import { ApiCallError, type ModelErrorRecord } from "@yardstick/core";
import { isRetryableStatus, parseRetryAfter } from "@yardstick/http";

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

/** Why one attempt of a call failed; `retryable` decides whether another attempt is made. */
export interface CallFailure {
  kind: "api" | "timeout" | "network" | "invalid-response";
  message: string;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  cause?: unknown;
}

/** The failure of a non-2xx reply (`errorText`: the body's message, already shortened and scrubbed): retried as the shared policy says, after the server's Retry-After. */
export function statusFailure(status: number, headers: IncomingHttpHeaders, errorText: string): CallFailure {
  const retryAfterMs = parseRetryAfter(headers["retry-after"]);
  return {
    kind: "api",
    status,
    retryable: isRetryableStatus(status),
    message: `HTTP ${status}: ${errorText}`,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/**
 * Replaces every secret (API key, header values) in a text by `***`: wherever it occurs when it has 4
 * or more characters; a shorter one (a 3-character test key) where it stands as a word of its own,
 * so that it is hidden without turning every "ab" inside other words into `***`.
 */
export function createScrubber(secrets: readonly (string | undefined)[]): (text: string) => string {
  const values = secrets.filter((v): v is string => typeof v === "string" && v.trim() !== "");
  const long = values.filter((v) => v.length >= 4);
  const short = values.filter((v) => v.length < 4).map((v) => new RegExp(`(?<![\\p{L}\\p{N}_-])${escapeRegExp(v)}(?![\\p{L}\\p{N}_-])`, "gu"));
  return (text) => short.reduce((t, word) => t.replace(word, "***"), long.reduce((t, secret) => t.split(secret).join("***"), text));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const MAX_ERROR_TEXT = 300;

/** An error body's message on one line, at most 300 characters, scrubbed. */
export function shortErrorText(message: string, scrub: (text: string) => string): string {
  let text = message.replace(/\s+/g, " ").trim();
  if (text.length > MAX_ERROR_TEXT) text = `${text.slice(0, MAX_ERROR_TEXT)}…`;
  return scrub(text === "" ? "(empty body)" : text);
}

/** The wait before the next attempt: the server's Retry-After (capped), else jittered backoff. */
export function retryDelay(
  failure: CallFailure,
  attempt: number,
  s: { maxRetryAfterMs: number; backoff: { baseMs: number; maxMs: number } },
  backoffDelay: (attempt: number, baseMs: number, maxMs: number) => number,
): number {
  return failure.retryAfterMs !== undefined ? Math.min(failure.retryAfterMs, s.maxRetryAfterMs) : backoffDelay(attempt, s.backoff.baseMs, s.backoff.maxMs);
}

/** The error a provider throws once a call failed for good. */
export function failedCallError(who: string, method: string, url: string, failure: CallFailure, attempts: number, scrub: (t: string) => string): ModelCallError {
  const why = failure.retryable ? "giving up" : "not retryable";
  return new ModelCallError(`${who}: ${method} ${url} failed after ${attempts} attempt${attempts === 1 ? "" : "s"} (${why}): ${scrub(failure.message)}`, {
    kind: failure.kind,
    attempts,
    retryable: failure.retryable,
    url,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    ...(failure.retryAfterMs !== undefined ? { retryAfterSeconds: failure.retryAfterMs / 1000 } : {}),
    ...(failure.cause !== undefined ? { cause: failure.cause } : {}),
  });
}

/** The error a provider throws when the caller's signal stopped a call. */
export function abortedCallError(who: string, method: string, url: string, attempts: number, cause: unknown): ModelCallError {
  return new ModelCallError(`${who}: ${method} ${url} interrupted (the run was stopped) after ${attempts} attempt(s); a rerun sends it again`, {
    kind: "interrupted",
    attempts,
    retryable: false,
    url,
    cause,
  });
}
