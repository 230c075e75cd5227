import { setMaxListeners } from "node:events";
import { ApiCallError, type ModelCallContext, type ModelErrorRecord, type ModelProviderV1, type ModelRequest, type ModelResponse } from "@yardstick/core";
import type { BatchAsk } from "./batch-answers.js";
import type { ProgressReporter } from "./progress.js";
import type { RequestCache } from "./request-cache.js";
import { StorageError } from "./storage-error.js";
import { type RecordPlace, answerLine, isoNow, slimResponse, toErrorRecord } from "./response-records.js";
import type { RunStore } from "./run-store.js";

/**
 * What every answering stage (generate, judge) shares for one request that the run store does not
 * answer already: the request cache, then the model (its own retries), then the run-store record,
 * and the fail-fast count. Resume (a stored record with the same key) is the caller's business.
 */
export interface AskDeps {
  model: ModelProviderV1;
  /** The identity that keys the request cache (the stage's model). */
  identity: string;
  store: RunStore;
  cache?: RequestCache | undefined;
  failFast: FailFast;
  /** Batch mode: requests the cache misses go to a batch API instead of `model.generate` (batch-answers.ts). */
  batch?: BatchAsk | undefined;
  /** Told of every request's cache hit, sending, retries and outcome (the progress display and run statistics). */
  progress?: ProgressReporter | undefined;
}

/** Where an answer came from, counted per task for the terminal. */
export interface AskCounts {
  fromCache: number;
  sent: number;
}

/** The request's cache key, prompt hash and canonical JSON (`hashRequest`). */
export interface HashedRequest {
  key: string;
  promptHash: string;
  requestJson: string;
}

export type Asked = { response: ModelResponse; cached: boolean; error?: undefined } | { error: ModelErrorRecord; response?: undefined };

/**
 * Answers `request` from the cache or the model and appends its record at `at`. `storeRequest`:
 * whether the record carries the request as sent (the first record of this key). `judgementOf`
 * (judge stage) gives the judgement stored on the record, from the reply or the failure.
 */
export async function askModel(
  deps: AskDeps,
  at: RecordPlace,
  request: ModelRequest,
  hashed: HashedRequest,
  storeRequest: boolean,
  ctx: ModelCallContext,
  counts: AskCounts,
  judgementOf?: (response: ModelResponse | undefined, error: ModelErrorRecord | undefined) => Record<string, unknown>,
): Promise<Asked> {
  const { key, promptHash } = hashed;
  const sentJson = storeRequest ? hashed.requestJson : undefined;
  const cached = deps.cache?.get(key) as ModelResponse | undefined;
  if (cached) {
    counts.fromCache++;
    deps.progress?.cached?.(at);
    deps.store.appendLine(answerLine(at, key, promptHash, sentJson, true, cached, judgementOf?.(cached, undefined)));
    return { response: cached, cached: true };
  }
  counts.sent++;
  const progress = deps.progress;
  progress?.sent?.(at);
  if (deps.batch) return reportOutcome(progress, at, await deps.batch(at, request, hashed, sentJson, judgementOf));
  // The providers retry inside `generate`: their `onRetry` is the only word of the retries of a request that ends well.
  let retries = 0;
  const onRetry: ModelCallContext["onRetry"] = (notice) => {
    retries++;
    progress?.retry?.(at, notice);
    ctx.onRetry?.(notice);
  };
  try {
    // ctx.signal (the generate stage's stop) aborts the request: its error record says so and resume retries it.
    const response = await deps.model.generate(request, progress?.retry ? { ...ctx, onRetry } : ctx);
    progress?.answered?.(at, response.usage);
    deps.cache?.put(key, deps.identity, slimResponse(response));
    deps.store.appendLine(answerLine(at, key, promptHash, sentJson, false, response, judgementOf?.(response, undefined)));
    deps.failFast.note(undefined);
    return { response, cached: false };
  } catch (err) {
    // The cache or the run store could not be written (a full disk): the run stops, this is no model error.
    if (StorageError.isInstance(err)) throw err;
    const error = toErrorRecord(err);
    // Stopped while it waited for a slot (the stage keeps more calls ready than the limiter lets
    // out): it never left, so it is no request and leaves no record; a rerun sends it as any
    // unanswered one. Counted, it made a stop look like twice the concurrency in flight.
    if (error.kind === "interrupted" && error.attempts === 0) {
      counts.sent--;
      progress?.withdrawn?.(at);
      return { error };
    }
    // A provider that does not call `onRetry` still says how many attempts a failed request took.
    for (let attempt = retries + 1; attempt < error.attempts; attempt++) {
      progress?.retry?.(at, { attempt, maxAttempts: error.attempts, kind: error.kind, delayMs: 0 });
    }
    progress?.failed?.(at, error);
    const judgement = judgementOf?.(undefined, error);
    deps.store.append({
      ...at,
      status: "error",
      key,
      promptHash,
      cached: false,
      error,
      ...(judgement ? { judgement } : {}),
      time: isoNow(),
      ...(sentJson !== undefined ? { request: JSON.parse(sentJson) } : {}),
    });
    deps.failFast.note(error);
    return { error };
  }
}

function reportOutcome(progress: ProgressReporter | undefined, at: RecordPlace, asked: Asked): Asked {
  if (asked.error) progress?.failed?.(at, asked.error);
  else progress?.answered?.(at, asked.response.usage);
  return asked;
}

export interface FailFast {
  note(error: ModelErrorRecord | undefined): void;
  /** The error that stopped the run, once it has. */
  fatal: ApiCallError | undefined;
}

/** Stops the run when the first `after` requests all failed for good (a wrong URL, model or key). */
export function createFailFast(after: number, stop: () => void): FailFast {
  let succeeded = 0;
  let failedInARow = 0;
  const state: FailFast = {
    fatal: undefined,
    note(error) {
      // A call the run's own stop cut short says nothing about the model.
      if (error?.kind === "interrupted") return;
      if (!error) {
        succeeded++;
        failedInARow = 0;
        return;
      }
      failedInARow++;
      if (succeeded === 0 && after > 0 && failedInARow >= after && !state.fatal) {
        state.fatal = new ApiCallError(
          `the first ${failedInARow} requests all failed, so the run stopped (rerun to retry them once fixed); the last error: ${error.message}`,
          { retryable: false, ...(error.status !== undefined ? { status: error.status } : {}) },
        );
        stop();
      }
    },
  };
  return state;
}

/** A stop signal that follows the caller's: aborting it stops taking new work, and fail-fast aborts it too. */
export function followSignal(signal: AbortSignal | undefined): AbortController {
  const stop = new AbortController();
  // Requests in flight listen on it (retry sleeps one each): no listener-count warning.
  setMaxListeners(0, stop.signal);
  signal?.addEventListener("abort", () => stop.abort(), { once: true });
  if (signal?.aborted) stop.abort();
  return stop;
}
