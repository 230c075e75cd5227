import {
  ConfigError,
  type Judgement,
  type JudgeRequest,
  type JudgeV2,
  type ModelErrorRecord,
  type ModelProviderV1,
  type ModelRequest,
  type ModelResponse,
  type Registry,
  type Sample,
  type TaskSpec,
  YardstickError,
} from "@yardstick/core";
import { type AskCounts, type AskDeps, askModel, createFailFast, followSignal } from "./ask-model.js";
import { type BatchSettings, createBatchAnswers } from "./batch-answers.js";
import { warnUnreadable } from "./answer.js";
import { forEachConcurrent } from "./pool.js";
import { type ProgressReporter, silentProgress } from "./progress.js";
import { limiterReading } from "./progress-stats.js";
import type { RequestCache } from "./request-cache.js";
import { hashRequest } from "./request-hash.js";
import { isoNow, type RecordPlace } from "./response-records.js";
import type { RunStore } from "./run-store.js";
import { answersOf, readStoredStages, type StoredCall, type StoredStages } from "./stored-answers.js";
import { JUDGE_TURN, REQUEST_INDEX, RETRY_SUFFIX, SAMPLE_CALL } from "./judgement-records.js";

export interface JudgeSettings {
  /** The run's tasks; those without `judge` are passed over. */
  tasks: readonly TaskSpec[];
  registry: Registry;
  /** The judge model (built like the evaluated one, from `--judge-model`). */
  model: ModelProviderV1;
  /** The identity that keys the judge's requests in the cache; default `model.identity()`. */
  modelIdentity?: string;
  /** The judged run's store (open): its generate answers are judged, its judge records resumed. */
  store: RunStore;
  /** A baseline run (pairwise judging): its generate answers of the same task and sample reach the judge with `run: "baseline"`. */
  baselineStore?: RunStore;
  cache?: RequestCache;
  /** Samples in flight at once (default 16); a sample's judge calls go out together. */
  concurrency?: number;
  progress?: ProgressReporter;
  /** Stop: no new sample is judged once it fires; calls in flight finish and are stored. */
  signal?: AbortSignal;
  /** As in `answerTasks`: stop when the first N judge calls all failed for good (default 10; 0 = never). */
  failFastAfter?: number;
  /** Relative data paths are resolved against this folder (as in `answerTasks`). */
  baseDir?: string;
  /** Send the judge calls through the judge model's batch API (batch-answers.ts), as `answerTasks` does. */
  batchApi?: BatchSettings;
  log?: (message: string) => void;
}

/** How a task's judging went: counts for the terminal, not part of the scores (`fromCache`, `sent`: judge calls). */
export interface JudgeOutcome extends AskCounts {
  key: string;
  /** Samples judged (those with a complete, successful answer). */
  samples: number;
  /** Samples with a judgement error: a judge call that failed for good, a reply that did not parse. */
  errors: number;
  /** Judge calls taken from the run store (resume). */
  fromStore: number;
}

export interface JudgeResult {
  tasks: JudgeOutcome[];
  aborted: boolean;
}

/**
 * The "judge" stage: a second answering stage over the stored answers. For each judged task it
 * takes the samples the store answered (as the dataloader gives them, prompt values included) and
 * the latest answer of every turn (with the request as sent), asks the
 * task's `JudgeV2` for its requests, and answers each through the same cache → model → store path as
 * generation (`askModel`), storing the parsed judgement on the record (call = the request id, turn
 * 1, `data.requestIndex` = the request's position). A reply that does not parse gets the judge's
 * `retryRequest` once, under call `<id>#retry`. A stored judge record is reused when its key matches.
 */
export async function judgeTasks(settings: JudgeSettings): Promise<JudgeResult> {
  const { registry, model, store } = settings;
  const judged = settings.tasks.filter((t) => t.judge);
  if (judged.length === 0) return { tasks: [], aborted: false };
  const progress = settings.progress ?? silentProgress;
  const identity = settings.modelIdentity ?? model.identity();
  const stop = followSignal(settings.signal);
  const failFast = createFailFast(settings.failFastAfter ?? 10, () => stop.abort());
  const asker: AskDeps = { model, identity, store, cache: settings.cache, failFast, progress };
  progress.plan?.(judged.length);
  // In batch mode the provider's limiter sees no request: the display counts the requests waiting in batches.
  progress.watchConcurrency?.(settings.batchApi ? undefined : limiterReading(model));
  if (settings.batchApi) {
    const batch = { batch: settings.batchApi, store, cache: settings.cache, identity, failFast, signal: stop.signal, stage: "judge" as const, log: settings.log };
    asker.batch = (await createBatchAnswers(batch)).ask;
  }

  const keys = new Set(judged.map((t) => t.key));
  const stored = await readStoredStages(store, keys, true);
  warnUnreadable(store, settings.log);
  const baseline: StoredStages | undefined = settings.baselineStore ? await readStoredStages(settings.baselineStore, keys, false) : undefined;

  const outcomes: JudgeOutcome[] = [];
  for (const task of judged) {
    if (stop.signal.aborted) break;
    outcomes.push(await judgeTask(task));
  }
  if (failFast.fatal) throw failFast.fatal;
  return { tasks: outcomes, aborted: stop.signal.aborted };

  async function judgeTask(task: TaskSpec): Promise<JudgeOutcome> {
    const spec = task.judge!;
    const options = spec.options ?? {};
    const judge = registry.get("judges", spec.id, options);
    const turnCount = Math.max(1, task.turns ?? 1);
    const turns = stored.turns.get(task.key) ?? new Map();
    const calls = stored.calls.get(task.key) ?? new Map<string, Map<string, StoredCall>>();
    const baselineTurns = baseline?.turns.get(task.key);
    const outcome: JudgeOutcome = { key: task.key, samples: 0, errors: 0, fromStore: 0, fromCache: 0, sent: 0 };
    // The config's judge sampling parameters apply on top of what the judge asks for.
    const params = spec.generation;
    const withParams = (r: ModelRequest): ModelRequest => (params ? { ...r, params: { ...r.params, ...params } } : r);

    // The samples this store answered (its part of the task: --limit, --shard), judged as the
    // dataloader gives them: judges see the whole sample, prompt values included (sample records
    // leave those out), streamed in dataset order.
    const pending = new Set<string>();
    for await (const rec of store.readSamples(task.key)) pending.add(rec.sample);
    progress.startTask(`${task.key} (judge)`, pending.size);
    const loader = registry.get("dataloaders", task.data.id);
    const dataCtx = { ...(settings.baseDir !== undefined ? { baseDir: settings.baseDir } : {}), task, signal: stop.signal };
    async function* storedSamples(): AsyncGenerator<Sample> {
      if (pending.size === 0) return;
      for await (const sample of loader.load(task.data.options ?? {}, dataCtx)) {
        if (!pending.delete(sample.id)) continue;
        yield sample;
        if (pending.size === 0) return;
      }
    }
    await forEachConcurrent(
      storedSamples(),
      // Batch mode keeps every sample's calls in flight while a batch collects them.
      settings.batchApi ? (settings.batchApi.maxInFlight ?? 100_000) : (settings.concurrency ?? 16),
      async (sample) => {
        const judged = await judgeSample(sample);
        // A sample the run's stop cut short is not done (nor failed): a rerun judges it.
        if (judged !== "interrupted") progress.advance(1, judged === "stored");
        await store.written();
      },
      stop.signal,
    );
    progress.endTask(stop.signal.aborted);
    return outcome;

    /** Judges one sample: "stored" when every judgement came from the store, "interrupted" when the run's stop cut a call short. */
    async function judgeSample(sample: Sample): Promise<"stored" | "judged" | "interrupted"> {
      const answers = answersOf(turns.get(sample.id), turnCount);
      if (!answers) return "stored"; // unanswered or failed: no judge call
      const baselineAnswers = answersOf(baselineTurns?.get(sample.id), turnCount, "baseline");
      if (baselineAnswers) answers.push(...baselineAnswers);
      const kept = calls.get(sample.id);
      let requests: JudgeRequest[];
      try {
        requests = judge.buildRequests(sample, answers, options, { task });
      } catch (err) {
        if (YardstickError.isInstance(err)) throw err;
        recordSampleCall(sample, `the judge could not build its requests: ${err instanceof Error ? err.message : String(err)}`);
        outcome.samples++;
        outcome.errors++;
        return "judged";
      }
      // Call "" stands for the sample itself: a build failure of an earlier run is superseded, and a
      // sample the judge asks nothing about is marked judged (else it would stay unanswered).
      const sampleCall = kept?.get(SAMPLE_CALL);
      if (sampleCall?.error || (requests.length === 0 && !sampleCall)) recordSampleCall(sample, undefined);
      // A sample's calls are independent (a criterion each, an order each): they go out together,
      // so a batch collects them at once; the provider's own limiter caps what is in flight.
      const results = await Promise.all(requests.map((first, index) => judgeWithRetry(sample, first, index, kept)));
      if (results.some((r) => r.interrupted)) return "interrupted";
      outcome.samples++;
      if (results.some((r) => r.judgement.error !== undefined)) outcome.errors++;
      return results.every((r) => r.fromStore) ? "stored" : "judged";
    }

    /** One judge request, and the judge's one retry of a reply that did not parse. */
    async function judgeWithRetry(
      sample: Sample,
      first: JudgeRequest,
      index: number,
      kept: Map<string, StoredCall> | undefined,
    ): Promise<{ judgement: Judgement; fromStore: boolean; interrupted: boolean }> {
      const call = await judgeCall(sample, first, first.id, index, kept?.get(first.id));
      const retry = call.judgement.error && call.response && judge.retryRequest?.(first, call.response, call.judgement, options);
      if (!retry) return call;
      const id = `${first.id}${RETRY_SUFFIX}`;
      const second = await judgeCall(sample, retry, id, index, kept?.get(id));
      return { judgement: second.judgement, fromStore: call.fromStore && second.fromStore, interrupted: second.interrupted };
    }

    async function judgeCall(
      sample: Sample,
      jr: JudgeRequest,
      call: string,
      index: number,
      kept: StoredCall | undefined,
    ): Promise<{ judgement: Judgement; response?: ModelResponse; fromStore: boolean; interrupted: boolean }> {
      const request = withParams(jr.request);
      const hashed = hashRequest(identity, request);
      if (kept && !kept.error && kept.key === hashed.key && kept.judgement) {
        outcome.fromStore++;
        return { judgement: kept.judgement, ...(kept.response ? { response: kept.response } : {}), fromStore: true, interrupted: false };
      }
      const at: RecordPlace = { task: task.key, sample: sample.id, turn: JUDGE_TURN, stage: "judge", call };
      let judgement: Judgement = {};
      const judgementOf = (response: ModelResponse | undefined, error: ModelErrorRecord | undefined): Record<string, unknown> => {
        judgement = response ? parseSafely(judge, response, options, { sample, task, request: jr }) : { error: `the judge call failed: ${error?.message}` };
        judgement = { ...judgement, data: { ...judgement.data, [REQUEST_INDEX]: index } };
        return judgement as Record<string, unknown>;
      };
      // The stage's stop aborts a judge call in flight too (Ctrl-C must not wait for a slow judge): its
      // record says interrupted and a rerun asks again.
      const asked = await askModel(asker, at, request, hashed, kept?.key !== hashed.key, { sample, task, signal: stop.signal }, outcome, judgementOf);
      if (asked.error?.kind === "interrupted") return { judgement: { error: asked.error.message }, fromStore: false, interrupted: true };
      return { judgement, ...(asked.response ? { response: asked.response } : {}), fromStore: false, interrupted: false };
    }

    /**
     * The sample's own judge record (call ""): an error when the judge cannot build its requests (a
     * baseline answer missing, say), else an empty judgement saying the sample was judged.
     */
    function recordSampleCall(sample: Sample, error: string | undefined): void {
      const at = { task: task.key, sample: sample.id, turn: JUDGE_TURN, stage: "judge" as const, call: SAMPLE_CALL, key: "", promptHash: "", cached: false };
      if (error === undefined) store.append({ ...at, status: "ok", judgement: {}, time: isoNow() });
      else store.append({ ...at, status: "error", error: { kind: "other", attempts: 1, message: error }, judgement: { error }, time: isoNow() });
    }
  }
}

/** `judge.parse`, which must not throw for a bad reply; a judge bug becomes the call's error rather than the run's end. */
function parseSafely(judge: JudgeV2, response: ModelResponse, options: Record<string, unknown>, ctx: Parameters<JudgeV2["parse"]>[2]): Judgement {
  try {
    return judge.parse(response, options, ctx);
  } catch (err) {
    if (YardstickError.isInstance(err) && ConfigError.isInstance(err)) throw err;
    return { error: `the judge could not parse the reply: ${err instanceof Error ? err.message : String(err)}` };
  }
}
