import type { BatchClient, BatchHandle, BatchResult, BatchStatus, ModelErrorRecord, ModelRequest, ModelResponse } from "@yardstick/core";
import type { Asked, FailFast, HashedRequest } from "./ask-model.js";
import type { RequestCache } from "./request-cache.js";
import { answerLine, isoNow, type RecordPlace, slimResponse, toErrorRecord } from "./response-records.js";
import type { RunStore } from "./run-store.js";

/** How a stage sends its requests through a provider's batch API instead of one by one. */
export interface BatchSettings {
  client: BatchClient;
  /** Longest wait between two status polls of a batch (default 60 s); polls start at 1 s (or this, if less) and back off. */
  pollSeconds?: number;
  /** Times a request without an answer (missing, retryable error, expired) is sent again in a new batch (default 3). */
  maxResubmits?: number;
  /** How long to wait for more requests before sending a batch (default 200 ms). */
  collectMs?: number;
  /** Samples in flight while a batch collects (default 100,000): the stage's concurrency in batch mode. */
  maxInFlight?: number;
}

/** What askModel hands over for a request the cache does not answer. */
export type BatchAsk = (
  at: RecordPlace,
  request: ModelRequest,
  hashed: HashedRequest,
  sentJson: string | undefined,
  judgementOf?: (response: ModelResponse | undefined, error: ModelErrorRecord | undefined) => Record<string, unknown>,
) => Promise<Asked>;

export interface BatchAnswers {
  ask: BatchAsk;
  /** Batches created and re-attached so far (for the terminal and tests). */
  readonly counts: { created: number; reattached: number; resubmitted: number };
}

interface Waiter {
  at: RecordPlace;
  sentJson: string | undefined;
  judgementOf: Parameters<BatchAsk>[4];
  resolve: (asked: Asked) => void;
}

/** One distinct request (by cache key), with every place waiting for its answer. */
interface Entry {
  request: ModelRequest;
  hashed: HashedRequest;
  waiters: Waiter[];
  /** Batches this request was sent in so far (a re-attached one counts). */
  submissions: number;
  batch?: { id: string; customId: string };
}

interface PendingRecord {
  key: string;
  batch: { id: string; customId: string };
}

const placeId = (at: { stage: string; task: string; sample: string; turn: number; call?: string | undefined }) =>
  `${at.stage}\u0000${at.task}\u0000${at.sample}\u0000${at.turn}\u0000${at.call ?? ""}`;

/**
 * Answers requests through a batch API: collects the requests that miss the run store and the
 * cache, sends them as batches (split by the client), writes a `pending` record per request the
 * moment its batch exists, polls with backoff, and maps results back by custom id — appending
 * ok/error records and filling the cache. Requests without an answer (missing, retryable errors,
 * expired) are sent again, up to `maxResubmits` times. On a rerun, `pending` records of batches the
 * provider still knows are re-attached (polled), not sent again.
 */
export async function createBatchAnswers(settings: {
  batch: BatchSettings;
  store: RunStore;
  cache?: RequestCache | undefined;
  identity: string;
  failFast: FailFast;
  signal: AbortSignal;
  /** Which stage's pending records to re-attach. */
  stage: RecordPlace["stage"];
  log?: ((message: string) => void) | undefined;
}): Promise<BatchAnswers> {
  const { client } = settings.batch;
  const { store, signal } = settings;
  const pollMs = (settings.batch.pollSeconds ?? 60) * 1000;
  const maxResubmits = settings.batch.maxResubmits ?? 3;
  const collectMs = settings.batch.collectMs ?? 200;
  const counts = { created: 0, reattached: 0, resubmitted: 0 };

  // Pending records not yet followed by an ok/error record of the same place.
  const pending = new Map<string, PendingRecord>();
  for await (const rec of store.readResponses({ request: false })) {
    if (rec.stage !== settings.stage) continue;
    if (rec.status === "pending" && rec.batch) pending.set(placeId(rec), { key: rec.key, batch: rec.batch });
    else pending.delete(placeId(rec));
  }

  const entries = new Map<string, Entry>();
  let queue: Entry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let firstQueuedAt = 0;
  const pollers = new Map<string, Promise<void>>();
  let nextCustomId = 1;

  signal.addEventListener("abort", () => stopAll(), { once: true });

  function ask(
    at: RecordPlace,
    request: ModelRequest,
    hashed: HashedRequest,
    sentJson: string | undefined,
    judgementOf?: Parameters<BatchAsk>[4],
  ): Promise<Asked> {
    return new Promise<Asked>((resolve) => {
      const waiter: Waiter = { at, sentJson, judgementOf, resolve };
      if (signal.aborted) return resolve({ error: stoppedError() });
      const prior = pending.get(placeId(at));
      const sentBefore = prior !== undefined && prior.key === hashed.key ? prior : undefined;
      const known = entries.get(hashed.key);
      if (known) {
        known.waiters.push(waiter);
        // The same request already sits in a batch: this place is pending on it too.
        if (known.batch) appendPending(waiter, known.hashed, known.batch);
        else if (sentBefore && queue.includes(known)) {
          // Queued for another place, but an earlier run already sent it: follow that batch.
          queue = queue.filter((e) => e !== known);
          reattach(known, sentBefore);
        }
        return;
      }
      const entry: Entry = { request, hashed, waiters: [waiter], submissions: 0 };
      entries.set(hashed.key, entry);
      // Sent by an earlier run: follow that batch instead of paying for the request again.
      if (sentBefore) reattach(entry, sentBefore);
      else enqueue(entry);
    });
  }

  function reattach(entry: Entry, prior: PendingRecord): void {
    entry.batch = prior.batch;
    entry.submissions = 1;
    counts.reattached++;
    follow(prior.batch.id);
  }

  function enqueue(entry: Entry): void {
    entry.batch = undefined;
    if (queue.length === 0) firstQueuedAt = Date.now();
    queue.push(entry);
    if (timer) clearTimeout(timer);
    // Wait for more requests, but not for ever (a steady trickle would postpone the batch).
    const full = queue.length >= client.limits.maxRequests;
    const wait = full ? 0 : Math.max(0, Math.min(collectMs, firstQueuedAt + collectMs * 10 - Date.now()));
    timer = setTimeout(() => void flush(), wait);
  }

  async function flush(): Promise<void> {
    timer = undefined;
    const sending = queue;
    queue = [];
    if (sending.length === 0 || signal.aborted) {
      for (const e of sending) settleStopped(e);
      return;
    }
    const byCustomId = new Map<string, Entry>();
    const items = sending.map((entry) => {
      const customId = `y${nextCustomId++}`;
      byCustomId.set(customId, entry);
      entry.submissions++;
      if (entry.submissions > 1) counts.resubmitted++;
      return { customId, request: entry.request };
    });
    const sent = new Set<Entry>();
    try {
      // No signal: a stop while a batch is being created lets the creation finish, so its pending
      // records are written and a rerun re-attaches instead of paying for it again.
      await client.submit(items, {
        ...(settings.log ? { log: settings.log } : {}),
        onCreated: async (handle: BatchHandle) => {
          counts.created++;
          for (const customId of handle.customIds) {
            const entry = byCustomId.get(customId)!;
            entry.batch = { id: handle.id, customId };
            sent.add(entry);
            for (const w of entry.waiters) appendPending(w, entry.hashed, entry.batch);
          }
          // The batch is paid for from here on: its pending records must survive a kill.
          await store.written();
          settings.log?.(`batch ${handle.id} created with ${handle.customIds.length} request(s): ${describeBatch(handle.customIds.map((c) => byCustomId.get(c)!))}`);
          follow(handle.id);
        },
      });
    } catch (err) {
      // Creating the batch failed for good (after the client's retries): the unsent requests fail with the reason.
      let error: ModelErrorRecord;
      try {
        error = toErrorRecord(err);
      } catch (config) {
        error = { kind: "other", attempts: 1, message: config instanceof Error ? config.message : String(config) };
      }
      for (const entry of sending) {
        if (sent.has(entry)) continue;
        if (signal.aborted) settleStopped(entry);
        else settleError(entry, { ...error, message: `sending the batch failed: ${error.message}` });
      }
    }
  }

  function appendPending(w: Waiter, hashed: HashedRequest, batch: { id: string; customId: string }): void {
    // The request as sent is stored with the record that answers it, not with the pending one.
    store.append({ ...w.at, status: "pending", key: hashed.key, promptHash: hashed.promptHash, cached: false, batch, time: isoNow() });
  }

  /** Polls a batch until it ends (once per batch, however many requests wait on it), then settles its requests. */
  function follow(batchId: string): void {
    if (pollers.has(batchId)) return;
    const run = (async () => {
      let delay = Math.min(1000, pollMs);
      for (;;) {
        if (signal.aborted) return;
        let status: BatchStatus | undefined;
        try {
          status = await client.status(batchId, { signal });
        } catch (err) {
          if (signal.aborted) return;
          settings.log?.(`warning: batch ${batchId}: status check failed (${(err as Error).message}); trying again`);
          status = { id: batchId, state: "running", providerStatus: "unknown" };
        }
        if (status === undefined) return settleBatch(batchId, undefined, new Map());
        if (status.state === "ended") {
          let results: Map<string, BatchResult>;
          try {
            results = await client.results(batchId, { signal });
          } catch (err) {
            if (signal.aborted) return;
            settings.log?.(`warning: batch ${batchId}: reading its results failed (${(err as Error).message}); trying again`);
            await wait(delay);
            continue;
          }
          return settleBatch(batchId, status, results);
        }
        await wait(delay);
        delay = Math.min(pollMs, delay * 2);
      }
    })();
    pollers.set(batchId, run);
  }

  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal.removeEventListener("abort", done);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** Settles every request waiting on `batchId` from its results; `status` undefined = the provider does not know the batch. */
  function settleBatch(batchId: string, status: BatchStatus | undefined, results: Map<string, BatchResult>): void {
    pollers.delete(batchId);
    for (const entry of [...entries.values()]) {
      if (entry.batch?.id !== batchId) continue;
      const result = results.get(entry.batch.customId);
      if (result?.ok) {
        settleOk(entry, result.response);
        continue;
      }
      // No result: the batch failed validation (final), or never ran the request (expired, cancelled, unknown).
      const retryable = result ? result.retryable : status?.outcome !== "failed";
      const error: ModelErrorRecord = result
        ? result.error
        : {
            kind: "other",
            attempts: 1,
            message:
              status === undefined
                ? `batch ${batchId} is not known to the provider any more`
                : `batch ${batchId} ended (${status.providerStatus}) without a result for this request${status.reason ? `: ${status.reason}` : ""}`,
          };
      if (retryable && entry.submissions <= maxResubmits && !signal.aborted) {
        settings.log?.(`batch ${batchId}: request ${entry.batch.customId} had no answer (${error.message}); sending it again`);
        enqueue(entry);
        continue;
      }
      settleError(entry, {
        ...error,
        attempts: entry.submissions,
        message: `${error.message} (after ${entry.submissions} batch submission${entry.submissions === 1 ? "" : "s"})`,
      });
    }
  }

  function settleOk(entry: Entry, response: ModelResponse): void {
    entries.delete(entry.hashed.key);
    settings.cache?.put(entry.hashed.key, settings.identity, slimResponse(response));
    for (const w of entry.waiters) {
      store.appendLine(answerLine(w.at, entry.hashed.key, entry.hashed.promptHash, w.sentJson, false, response, w.judgementOf?.(response, undefined)));
      settings.failFast.note(undefined);
      w.resolve({ response, cached: false });
    }
  }

  function settleError(entry: Entry, error: ModelErrorRecord): void {
    entries.delete(entry.hashed.key);
    for (const w of entry.waiters) {
      const judgement = w.judgementOf?.(undefined, error);
      store.append({
        ...w.at,
        status: "error",
        key: entry.hashed.key,
        promptHash: entry.hashed.promptHash,
        cached: false,
        error,
        ...(judgement ? { judgement } : {}),
        time: isoNow(),
        ...(w.sentJson !== undefined ? { request: JSON.parse(w.sentJson) } : {}),
      });
      settings.failFast.note(error);
      w.resolve({ error });
    }
  }

  /** A stop: the request's batch (if any) stays pending in the store for the next run; nothing is recorded now. */
  function settleStopped(entry: Entry): void {
    entries.delete(entry.hashed.key);
    for (const w of entry.waiters) w.resolve({ error: stoppedError() });
  }

  function stopAll(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const waiting = queue;
    queue = [];
    for (const e of waiting) settleStopped(e);
    for (const e of [...entries.values()]) settleStopped(e);
  }

  return { ask, counts };
}

function stoppedError(): ModelErrorRecord {
  return { kind: "other", attempts: 0, message: "stopped before the batch ended; its requests stay pending in the run store and a rerun re-attaches to it" };
}

/** What a batch holds, for the log: stage, tasks and turns, e.g. "judge, mt-bench/en turn 2 (4)". */
function describeBatch(entries: readonly Entry[]): string {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    for (const { at } of entry.waiters) {
      const key = `${at.stage}, ${at.task}${at.turn > 1 ? ` turn ${at.turn}` : ""}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const parts = [...counts].map(([key, n]) => `${key} (${n})`);
  return parts.length > 4 ? `${parts.slice(0, 4).join("; ")}; and ${parts.length - 4} more` : parts.join("; ");
}
