import {
  ApiCallError,
  ConfigError,
  type LabelSet,
  type LoglikelihoodResult,
  loadSampleBatches,
  type ModelCallContext,
  type ModelRequest,
  type ModelProviderV1,
  type PromptBuilderV1,
  type PromptBuildInput,
  type Registry,
  type RetryNotice,
  type Sample,
  type TaskSpec,
} from "@yardstick/core";
import type { Shard } from "@yardstick/run-format";
import { type AskDeps, type HashedRequest, askModel, createFailFast, followSignal } from "./ask-model.js";
import { type BatchSettings, createBatchAnswers } from "./batch-answers.js";
import { canonicalJson, hashCanonical, sha256 } from "./canonical-json.js";
import { examplesFor, loadExamplePool } from "./fewshot-examples.js";
import { forEachConcurrent } from "./pool.js";
import { checkTasksBeforeRequests } from "./preflight.js";
import { type ProgressReporter, silentProgress } from "./progress.js";
import { endpointReading, limiterReading } from "./progress-stats.js";
import type { RequestCache } from "./request-cache.js";
import { StorageError } from "./storage-error.js";
import { hashRequest } from "./request-hash.js";
import { type RecordPlace, type TurnState, compactTurn, isoNow, sampleRecord, toErrorRecord } from "./response-records.js";
import type { RunStore } from "./run-store.js";
import { inShard } from "./shard.js";
import { FIRST_PASS_CALL, type LoglikelihoodTurnRequest, afterFirstPass, buildLoglikelihoodRequest, buildTurnRequest, firstPassRequest } from "./turn-request.js";
import { withTwoPassGeneration } from "./two-pass-generation.js";
import { countJsonlRows, withLabels } from "./task-data.js";

/** Samples a cached run looks up per query, read ahead of the workers. */
const PREFETCH_AHEAD = 256;

/** A first turn built ahead of its worker (see `withPrefetchedAnswers`). */
interface PreparedTurn {
  input: PromptBuildInput;
  request: ModelRequest;
  hashed: HashedRequest;
}

interface SelectedSample {
  sample: Sample;
  index: number;
  first?: PreparedTurn;
}

export interface AnswerSettings {
  tasks: readonly TaskSpec[];
  registry: Registry;
  model: ModelProviderV1;
  /** The identity that keys the request cache; default `model.identity()` (see `resolveModelIdentity`). */
  modelIdentity?: string;
  store: RunStore;
  /** Omit to bypass the cache. */
  cache?: RequestCache;
  /** Samples in flight at once (default 16); the provider may apply its own adaptive limit. */
  concurrency?: number;
  /** Answer only the first N samples of each task (by dataset position, before sharding). */
  limit?: number;
  /** Answer only the samples of this shard (a deterministic subset by task key and sample id). */
  shard?: Shard;
  /** Relative data paths are resolved against this folder. */
  baseDir?: string;
  progress?: ProgressReporter;
  /**
   * Stop: no new sample is started once it fires; requests in flight finish and are stored, and the
   * result says `aborted`. (A second Ctrl-C is the runner's business.)
   */
  signal?: AbortSignal;
  /**
   * The run stops with an error when this many requests in a row have failed for good before any
   * succeeded: a wrong URL, model name or key fails every request the same way. Default 10; 0 = never.
   */
  failFastAfter?: number;
  /**
   * Send the requests that miss the store and the cache through a batch API (turn by turn for
   * multi-turn samples), recording pending batches so a rerun re-attaches to them (batch-answers.ts).
   */
  batchApi?: BatchSettings;
  /** The caller already ran `checkTasksBeforeRequests` on these tasks (before it opened the store). */
  tasksChecked?: boolean;
  log?: (message: string) => void;
}

/** How a task's answering went: counts for the terminal, not part of the scores. */
export interface AnswerOutcome {
  key: string;
  /** Samples of this store's part of the task (after --limit and --shard). */
  samples: number;
  /** Samples whose final turn failed for good. */
  errors: number;
  /** Samples answered entirely from the run store (resume). */
  fromStore: number;
  fromCache: number;
  sent: number;
}

export interface AnswerResult {
  tasks: AnswerOutcome[];
  aborted: boolean;
}

/**
 * The "generate" stage: streams each task's samples, builds each turn's request, and answers it from
 * the run store (resume), the request cache, or the model — appending every outcome and each
 * sample's record to the store. It scores nothing: scoring reads the store afterwards.
 */
export async function answerTasks(settings: AnswerSettings): Promise<AnswerResult> {
  const { registry, model, store } = settings;
  const progress = settings.progress ?? silentProgress;
  const identity = settings.modelIdentity ?? model.identity();
  const stop = followSignal(settings.signal);
  const failFast = createFailFast(settings.failFastAfter ?? 10, () => stop.abort());
  // Set once a loglikelihood request has been scored: until then an unusable reply stops the run.
  let loglikelihoodScored = false;
  // Requests with `stopAtFirst` (SEA-HELM base models) are answered in two passes, stored as one answer.
  const asker: AskDeps = { model: withTwoPassGeneration(model), identity, store, cache: settings.cache, failFast, progress };
  // Every first-turn request is built, and labels and main scores are checked, before the first
  // request is sent, not met halfway or found by scoring after the last.
  if (!settings.tasksChecked) await checkTasksBeforeRequests({
    tasks: settings.tasks,
    registry,
    ...(settings.baseDir !== undefined ? { baseDir: settings.baseDir } : {}),
    ...(settings.limit !== undefined ? { limit: settings.limit } : {}),
    ...(settings.shard ? { shard: settings.shard } : {}),
    signal: stop.signal,
  });
  progress.plan?.(settings.tasks.length);
  // In batch mode the provider's limiter sees no request: the display counts the requests waiting in batches.
  progress.watchConcurrency?.(settings.batchApi ? undefined : limiterReading(model));
  progress.watchEndpoints?.(settings.batchApi ? undefined : endpointReading(model));
  if (settings.batchApi) {
    const twoPass = settings.tasks.find((t) => t.generation.stopAtFirst !== undefined);
    if (twoPass) throw new ConfigError(`task ${twoPass.key} generates in two passes (up to the answer tag first, then from that text), which a batch API cannot do: run it without --batch`);
    const batch = { batch: settings.batchApi, store, cache: settings.cache, identity, failFast, signal: stop.signal, stage: "generate" as const, log: settings.log };
    asker.batch = (await createBatchAnswers(batch)).ask;
  }

  // Resume: the latest stored record of each (task, sample, turn) wins; errors are retried.
  const stored = new Map<string, Map<string, TurnState[]>>();
  for await (const rec of store.readResponses({ request: false })) {
    // A loglikelihood row's first pass is asked again when its row is (its cache entry answers it).
    if (rec.stage !== "generate" || rec.status === "pending" || rec.call === FIRST_PASS_CALL) continue;
    let byTask = stored.get(rec.task);
    if (!byTask) stored.set(rec.task, (byTask = new Map()));
    const turns = byTask.get(rec.sample);
    // A literal of one for the common first turn: an empty array grown by assignment reserves 16 slots.
    if (!turns) byTask.set(rec.sample, rec.turn === 1 ? [compactTurn(rec)] : Object.assign([], { [rec.turn - 1]: compactTurn(rec) }));
    else turns[rec.turn - 1] = compactTurn(rec);
  }
  warnUnreadable(store, settings.log);

  const outcomes: AnswerOutcome[] = [];
  for (const task of settings.tasks) {
    if (stop.signal.aborted) break;
    outcomes.push(await answerTask(task, stored.get(task.key) ?? new Map()));
    stored.delete(task.key);
  }
  if (failFast.fatal) throw failFast.fatal;
  return { tasks: outcomes, aborted: stop.signal.aborted };

  async function answerTask(task: TaskSpec, previous: Map<string, TurnState[]>): Promise<AnswerOutcome> {
    const loader = registry.get("dataloaders", task.data.id);
    const builder = registry.get("promptBuilders", task.prompt.id);
    const dataCtx = { baseDir: settings.baseDir, task, signal: stop.signal };
    const dataOptions = task.data.options ?? {};
    const { limit, shard } = settings;
    const selected = (s: Sample, index: number): boolean => (limit === undefined || index < limit) && (!shard || inShard(task.key, s.id, shard));

    // Providers that answer from the label set (the baselines) get it before their first answer,
    // from a first pass over the data; the progress total otherwise comes from a fast line count.
    let labelSet: LabelSet | undefined;
    let total: number | undefined;
    if (model.needsLabelSet) {
      const counts = new Map<string, number>();
      total = 0;
      let index = 0;
      count: for await (const batch of loadSampleBatches(loader, dataOptions, dataCtx)) {
        for (const s of batch) {
          if (limit !== undefined && index >= limit) break count;
          if (selected(s, index++)) total++;
          if (typeof s.label === "string") counts.set(s.label, (counts.get(s.label) ?? 0) + 1);
        }
      }
      const labels = withLabels(task, counts).labels ?? [];
      labelSet = { labels, counts: Object.fromEntries(counts) };
    } else {
      const rows = await countJsonlRows(dataOptions.path, settings.baseDir);
      if (rows !== undefined) {
        const capped = limit === undefined ? rows : Math.min(rows, limit);
        total = shard ? Math.round(capped / shard.count) : capped;
      }
    }
    const examplePool = await loadExamplePool(registry, task, settings.baseDir);
    const storedSamples = new Set<string>();
    for await (const rec of store.readSamples(task.key)) storedSamples.add(rec.sample);

    const outcome: AnswerOutcome = { key: task.key, samples: 0, errors: 0, fromStore: 0, fromCache: 0, sent: 0 };
    const turnsPerSample = Math.max(1, task.turns ?? 1);
    progress.startTask(task.key, total ?? 0);

    // Metrics that read prompt variables (MetricX's source text) need them in the sample records.
    const keepPrompts = task.metrics.some((ref) => registry.has("metrics", ref.id) && registry.get("metrics", ref.id).readsPrompts === true);

    async function* selectedSamples(): AsyncGenerator<SelectedSample> {
      let index = 0;
      for await (const sample of loader.load(dataOptions, dataCtx)) {
        if (limit !== undefined && index >= limit) return;
        if (selected(sample, index)) yield { sample, index };
        index++;
      }
    }

    // With a request cache, the first turn's requests are built a batch ahead and their answers
    // looked up in one query per batch (a cached re-run is mostly these lookups).
    const cache = settings.cache;
    const prefetching = cache?.prefetch !== undefined && task.mode !== "loglikelihood" && !settings.batchApi;
    const prepare = (item: SelectedSample): SelectedSample => {
      const input: PromptBuildInput = { sample: item.sample, task, examples: examplesFor(item.sample, examplePool, task), turn: 1, previousResponses: [] };
      try {
        const request = buildTurnRequest(task, builder, input);
        return { ...item, first: { input, request, hashed: hashRequest(identity, request) } };
      } catch {
        return item; // the worker builds it again and reports the error where it always has
      }
    };
    async function* withPrefetchedAnswers(items: AsyncIterable<SelectedSample>): AsyncGenerator<SelectedSample> {
      let batch: SelectedSample[] = [];
      const lookUp = (): SelectedSample[] => {
        const keys: string[] = [];
        for (const item of batch) if (item.first) keys.push(item.first.hashed.key);
        cache!.prefetch!(keys);
        const ready = batch;
        batch = [];
        return ready;
      };
      for await (const item of items) {
        batch.push(prepare(item));
        if (batch.length >= PREFETCH_AHEAD) yield* lookUp();
      }
      yield* lookUp();
    }

    await forEachConcurrent(
      prefetching ? withPrefetchedAnswers(selectedSamples()) : selectedSamples(),
      // Batch mode keeps every sample's request in flight while a batch collects them.
      settings.batchApi ? (settings.batchApi.maxInFlight ?? 100_000) : onlineWorkers(model, settings.concurrency ?? 16),
      async ({ sample, index, first }) => {
        if (!storedSamples.has(sample.id)) store.appendSample(sampleRecord(task.key, index, sample, keepPrompts));
        const prior = previous.get(sample.id) ?? [];
        const sentBefore = outcome.sent;
        const responses: string[] = [];
        let last: TurnState = {};
        let allStored = true;
        for (let turn = 1; turn <= turnsPerSample; turn++) {
          // A stored answer is kept only for the very request that would be sent now (same key).
          const kept = prior[turn - 1];
          const prepared = turn === 1 ? first : undefined;
          const input: PromptBuildInput = prepared?.input ?? { sample, task, examples: examplesFor(sample, examplePool, task), turn, previousResponses: responses };
          const at: RecordPlace = { task: task.key, sample: sample.id, turn, stage: "generate" };
          last =
            task.mode === "loglikelihood"
              ? await answerLoglikelihood(task, builder, input, at, kept)
              : await answerTurn(task, builder, input, at, kept, prepared);
          if (last !== kept) allStored = false;
          if (last.error) break;
          responses.push(last.text ?? "");
        }
        // A sample the run's stop cut short is not done (nor failed): a rerun answers it.
        if (last.error?.kind !== "interrupted") {
          outcome.samples++;
          if (last.error) outcome.errors++;
          if (allStored) outcome.fromStore++;
          progress.advance(1, allStored);
        }
        // Hold this worker's slot until its records reach the OS: a kill then loses at most the
        // answers of the samples in flight. A sample that sent nothing (answered by the store or
        // the cache) need not wait: what a kill loses of it is answered again without a request,
        // and waiting would cap a cached re-run at one write per `concurrency` samples. (The count
        // is the task's, so a request another worker sent meanwhile makes this one wait too: safe.)
        if (outcome.sent !== sentBefore) await store.written();
      },
      stop.signal,
    );
    // Samples answered without a request did not wait for their records: the next stage reads them.
    await store.written();
    progress.endTask(stop.signal.aborted);
    return outcome;

    async function answerTurn(
      t: TaskSpec,
      b: PromptBuilderV1,
      input: PromptBuildInput,
      at: RecordPlace,
      kept: TurnState | undefined,
      prepared?: PreparedTurn,
    ): Promise<TurnState> {
      const request = prepared?.request ?? buildTurnRequest(t, b, input);
      const hashed = prepared?.hashed ?? hashRequest(identity, request);
      if (kept && kept.error === undefined && kept.key === hashed.key) return kept;
      // The stop signal reaches the request: a Ctrl-C aborts it at once, recorded as interrupted (retried on resume).
      const ctx = labelSet ? { sample: input.sample, task: t, labelSet, signal: stop.signal } : { sample: input.sample, task: t, signal: stop.signal };
      const asked = await askModel(asker, at, request, hashed, kept?.key !== hashed.key, ctx, outcome);
      return asked.error ? { error: asked.error, key: hashed.key } : { text: asked.response.text };
    }

    async function answerLoglikelihood(
      t: TaskSpec,
      b: PromptBuilderV1,
      input: PromptBuildInput,
      at: RecordPlace,
      kept: TurnState | undefined,
    ): Promise<TurnState> {
      if (!model.loglikelihood) throw new ConfigError(`model provider "${model.id}" cannot score loglikelihoods`, { keyPath: [t.key, "mode"] });
      const request = buildLoglikelihoodRequest(t, b, input);
      const first = firstPassRequest(t, request);
      const firstHashed = first ? hashRequest(identity, first) : undefined;
      // With a first pass the row's key names the first request too (resume needs no first answer to match it).
      const key = hashCanonical(firstHashed ? { model: identity, request, firstPass: firstHashed.key } : { model: identity, request });
      if (kept && kept.error === undefined && kept.key === key) return kept;
      const ctx: ModelCallContext = { sample: input.sample, task: t, signal: stop.signal };
      let scored: LoglikelihoodTurnRequest = request;
      if (first && firstHashed) {
        // SEA-HELM's first pass: the model writes up to the answer tag (through the run store and the cache).
        const asked = await askModel(asker, { ...at, call: FIRST_PASS_CALL }, first, firstHashed, true, ctx, outcome);
        if (asked.error) {
          store.append({ ...at, key, promptHash: sha256(canonicalJson({ prompt: request.context })), status: "error", cached: false, error: asked.error, time: isoNow(), request });
          return { error: asked.error, key };
        }
        if (asked.response.finishReason !== "stop") {
          // No answer tag within the tokens: upstream skips the row, and its metric reads a null. The row's
          // answer is an empty text, which a logprob metric reads as null (the first-pass record keeps the text).
          const choices = [{ text: "", finishReason: asked.response.finishReason }];
          store.append({ ...at, key, promptHash: sha256(canonicalJson({ prompt: request.context })), status: "ok", cached: asked.cached, choices, time: isoNow(), request });
          return { text: "", key };
        }
        scored = afterFirstPass(t, request, asked.response.text);
      }
      const { context, continuations } = scored;
      // Without a first pass the echo request is the row's request, keyed alike; with one it has its own cache key.
      const cacheKey = first ? hashCanonical({ model: identity, request: scored }) : key;
      const base = { ...at, key, promptHash: sha256(canonicalJson({ prompt: context })) };
      // The request goes last in the record (see parseResponseLine).
      const sent = kept?.key === key ? {} : { request: scored };
      const cached = loglikelihoodFromCache(settings.cache?.get(cacheKey));
      if (cached) {
        outcome.fromCache++;
        progress.cached?.(at);
        store.append({ ...base, status: "ok", cached: true, ...cached, time: isoNow(), ...sent });
        return { ...cached, key };
      }
      outcome.sent++;
      progress.sent?.(at);
      try {
        const onRetry = progress.retry ? { onRetry: (n: RetryNotice) => progress.retry?.(at, n) } : {};
        const results = await scoreContinuations(model, context, continuations, { ...ctx, ...onRetry });
        const answer = { choiceLogprobs: results.map((r) => r.logprob), choiceTokenCounts: results.map((r) => r.tokenCount) };
        settings.cache?.put(cacheKey, identity, answer);
        store.append({ ...base, status: "ok", cached: false, ...answer, time: isoNow(), ...sent });
        progress.answered?.(at, undefined);
        failFast.note(undefined);
        loglikelihoodScored = true;
        return { ...answer, key };
      } catch (err) {
        if (StorageError.isInstance(err)) throw err; // a full disk stops the run; it is no model error
        const error = toErrorRecord(err);
        store.append({ ...base, status: "error", cached: false, error, time: isoNow(), ...sent });
        progress.failed?.(at, error);
        failFast.note(error);
        // A server that does not echo prompt logprobs cannot score any row: say so at its first reply.
        if (error.kind === "invalid-response" && !loglikelihoodScored && !failFast.fatal) {
          failFast.fatal = new ApiCallError(`${error.message}; the run stopped at the first loglikelihood request (rerun to retry once the server can score it)`, {
            retryable: false,
          });
          stop.abort();
        }
        return { error, key };
      }
    }
  }
}

/**
 * Samples answered at once. A provider that bounds its own requests in flight (an adaptive `limiter`,
 * sized by the same concurrency) gets twice as many workers: a sample waiting out a Retry-After or a
 * backoff then does not hold a slot another sample could send in, while the requests in flight
 * stay within the limit.
 */
function onlineWorkers(model: ModelProviderV1, concurrency: number): number {
  return "limiter" in model ? concurrency * 2 : concurrency;
}

/** The options of one context: one batched call when the provider offers it (they share a context), else one call each. */
async function scoreContinuations(
  model: ModelProviderV1,
  context: string,
  continuations: readonly string[],
  ctx: ModelCallContext,
): Promise<LoglikelihoodResult[]> {
  const requests = continuations.map((continuation) => ({ context, continuation }));
  if (model.loglikelihoodBatch) return model.loglikelihoodBatch(requests, ctx);
  const results: LoglikelihoodResult[] = [];
  for (const request of requests) results.push(await model.loglikelihood!(request, ctx));
  return results;
}

/**
 * A cached loglikelihood answer: `{ choiceLogprobs, choiceTokenCounts }`, or (caches written before
 * token counts were kept) the bare list of logprobs.
 */
function loglikelihoodFromCache(value: unknown): { choiceLogprobs: number[]; choiceTokenCounts?: number[] } | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return { choiceLogprobs: value as number[] };
  return value as { choiceLogprobs: number[]; choiceTokenCounts?: number[] };
}

export function warnUnreadable(store: RunStore, log: ((m: string) => void) | undefined): void {
  const lines = store.unreadableLines;
  if (lines.length === 0) return;
  const first = lines[0]!;
  log?.(
    `warning: ${first.file}: ${lines.length} line(s) are not valid records and were skipped (line ${lines
      .slice(0, 5)
      .map((l) => l.line)
      .join(", ")}${lines.length > 5 ? ", ..." : ""}; line ${first.line}: ${first.problem}); their samples are asked again`,
  );
}
