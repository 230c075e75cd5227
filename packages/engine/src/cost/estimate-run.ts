import { cp, mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { ModelProviderV1, ModelRequest } from "@yardstick/core";
import type { RunManifest } from "@yardstick/run-format";
import { type AnswerOutcome, type AnswerSettings, answerTasks } from "../answer.js";
import type { EvaluationSettings } from "../evaluate.js";
import { judgeTasks } from "../judge-stage.js";
import type { RequestCache } from "../request-cache.js";
import { hashRequest } from "../request-hash.js";
import { RunStore } from "../run-store.js";
import { type WouldSend, createDryRunProvider } from "./dry-run-provider.js";
import { type ModelPrice, type PriceTable, costOf, findPrice } from "./price-table.js";

/** Output tokens assumed for a request that sets no max_tokens, of a task with no recorded answers. */
export const ASSUMED_OUTPUT_TOKENS = 512;

export interface EstimateSettings extends Omit<AnswerSettings, "store" | "cache" | "progress" | "failFastAfter" | "batchApi"> {
  /** The run-store folder the real run would use: copied to a scratch folder, never written. */
  storeDir: string;
  manifest: RunManifest;
  /** Read only: nothing is put into it. */
  cache?: RequestCache;
  prices: PriceTable;
  /** Price with the batch discount (`--batch`). */
  batch?: boolean;
  /** The judge stage, as the real run would have it (its requests are estimated over the placeholder answers). */
  judge?: EvaluationSettings["judge"];
}

/** Where a task's output-token estimate came from. */
export type OutputSource = "recorded" | "max_tokens" | "assumed";

export interface TaskEstimate {
  stage: string;
  task: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  outputSource: OutputSource;
  /** Mean completion tokens recorded for the task (store and cache), when any. */
  recordedMeanOutput?: number;
  /** USD; undefined when the model has no price. */
  costUsd: number | undefined;
}

export interface StageEstimate {
  stage: string;
  model: string;
  /** The model's price; undefined when the price table has none ("no price"). */
  price: ModelPrice | undefined;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | undefined;
  /** Requests per second at the current rate (concurrency / mean recorded latency), when latencies are recorded. */
  requestsPerSecond: number | undefined;
  seconds: number | undefined;
  tasks: TaskEstimate[];
  /** What the run store records this stage has spent already (requests sent, not cache hits); undefined without a price. */
  spentUsd: number | undefined;
}

export interface RunEstimate {
  batch: boolean;
  stages: StageEstimate[];
  /** How each task's answering went in the dry run: what came from the store and the cache. */
  answering: AnswerOutcome[];
  costUsd: number | undefined;
  /** What the run store records the run has spent already, all stages; undefined when a stage that spent has no price. */
  spentUsd: number | undefined;
  /** Requests in batches still in flight (paid for already; a rerun re-attaches to them): not counted above. */
  inFlightRequests: number;
  /** Stages not estimated yet, with why. */
  pending: string[];
}

/**
 * Estimates what a run would send, by running the real answering loop against a stand-in that
 * records each request and sends nothing: resume (a scratch copy of the run store) and the request
 * cache (read only) decide which requests miss, exactly as in the real run.
 */
export async function estimateRun(settings: EstimateSettings): Promise<RunEstimate> {
  const scratchDirs: string[] = [];
  try {
    let wouldSend: WouldSend[] = [];
    // Requests in batches still in flight are paid for: a rerun re-attaches to them.
    const inFlight = await inFlightBatchKeys(settings.storeDir);
    let inFlightRequests = 0;
    const skipInFlight = (identity: string) => (request: ModelRequest) => {
      const hit = inFlight.size > 0 && inFlight.has(hashRequest(identity, request).key);
      if (hit) inFlightRequests++;
      return hit;
    };
    const generateIdentity = settings.modelIdentity ?? settings.model.identity();
    const first = await dryGenerate(settings, scratchDirs, (r) => wouldSend.push(r), () => "", skipInFlight(generateIdentity));
    await first.store.close();
    let recorded = await readRecorded(first.store);
    const pending: string[] = [];
    const judged = settings.tasks.some((t) => t.judge);
    const judging = judged && settings.judge !== undefined;
    const multiTurn = settings.tasks.some((t) => (t.turns ?? 1) > 1);
    if (judged && !settings.judge) pending.push("judge: no judge model given, so the judge stage is not estimated");
    if ((judging || multiTurn) && !first.answered.aborted) {
      // Later turns and judges read the answers, so a second pass over a fresh scratch copy answers
      // with placeholders as long as the answers are expected to be (the task's recorded mean from
      // the first pass, else max_tokens); its requests are the estimate.
      const expected = (task: string, max: number | undefined) => {
        const r = recorded.output.get(`generate\t${task}`);
        return filler(r ? Math.round(r.sum / r.n) : (max ?? ASSUMED_OUTPUT_TOKENS));
      };
      wouldSend = [];
      inFlightRequests = 0;
      const second = await dryGenerate(settings, scratchDirs, (r) => wouldSend.push(r), expected, skipInFlight(generateIdentity));
      if (judging && settings.judge) {
        // The judge stand-in fails each call after recording it: a placeholder reply would not parse,
        // and the judge's one retry of an unparsable reply is not something a real run usually sends.
        await judgeTasks({
          tasks: settings.tasks,
          registry: settings.registry,
          model: createDryRunProvider(settings.judge.model, "judge", (r) => wouldSend.push(r), {
            fail: true,
            skip: skipInFlight(settings.judge.modelIdentity ?? settings.judge.model.identity()),
          }),
          ...(settings.judge.modelIdentity ? { modelIdentity: settings.judge.modelIdentity } : {}),
          ...(settings.judge.baselineStore ? { baselineStore: settings.judge.baselineStore } : {}),
          store: second.store,
          ...(settings.cache ? { cache: readOnlyCache(settings.cache) } : {}),
          ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
          ...(settings.signal ? { signal: settings.signal } : {}),
          failFastAfter: 0,
        });
      }
      await second.store.close();
      // Generate figures stay the first pass's (placeholders carry no usage); the judge's come from here.
      const judgeRecorded = await readRecorded(second.store);
      recorded = {
        output: new Map([...recorded.output, ...[...judgeRecorded.output].filter(([k]) => k.startsWith("judge\t"))]),
        latency: new Map([...recorded.latency, ...[...judgeRecorded.latency].filter(([k]) => k === "judge")]),
        paid: new Map([...recorded.paid, ...[...judgeRecorded.paid].filter(([k]) => k === "judge")]),
      };
    }
    const batch = settings.batch === true;
    const concurrency = settings.concurrency ?? 16;
    const stageOf = (name: string, model: ModelProviderV1) =>
      stageEstimate(name, `${model.id}:${model.modelId}`, wouldSend, recorded, findPrice(settings.prices, model.id, model.modelId), batch, concurrency);
    const stages = [stageOf("generate", settings.model)];
    if (judging && settings.judge) stages.push(stageOf("judge", settings.judge.model));
    const costUsd = stages.some((s) => s.requests > 0 && s.costUsd === undefined) ? undefined : stages.reduce((a, s) => a + (s.costUsd ?? 0), 0);
    const spentUsd = stages.some((s) => s.spentUsd === undefined && recorded.paid.has(s.stage)) ? undefined : stages.reduce((a, s) => a + (s.spentUsd ?? 0), 0);
    return { batch, stages, answering: first.answered.tasks, costUsd, spentUsd, inFlightRequests, pending };
  } finally {
    for (const dir of scratchDirs) await rm(dir, { recursive: true, force: true });
  }
}

/** The generate stage against the stand-in, over a fresh scratch copy of the run store (left open: the caller closes it). */
async function dryGenerate(
  settings: EstimateSettings,
  scratchDirs: string[],
  record: (r: WouldSend) => void,
  placeholder: (task: string, maxOutputTokens: number | undefined) => string,
  skip: (request: ModelRequest) => boolean,
): Promise<{ store: RunStore; answered: Awaited<ReturnType<typeof answerTasks>> }> {
  const scratch = await mkdtemp(join(tmpdir(), "yardstick-dry-run-"));
  scratchDirs.push(scratch);
  if (existsSync(settings.storeDir)) {
    // Not the lock: a run may be writing the real store right now.
    await cp(settings.storeDir, scratch, { recursive: true, filter: (src) => basename(src) !== "run.lock" });
  }
  const store = new RunStore(scratch);
  await store.open(settings.manifest);
  // Never a batch API: the stand-in answers everything online.
  const { batchApi: _online, ...answering } = settings as EstimateSettings & Pick<AnswerSettings, "batchApi">;
  const answered = await answerTasks({
    ...answering,
    model: createDryRunProvider(settings.model, "generate", record, { placeholder, skip }),
    store,
    ...(settings.cache ? { cache: readOnlyCache(settings.cache) } : {}),
    failFastAfter: 0,
  });
  return { store, answered };
}

/** Cache keys of the requests the run store records as pending in a batch, with no answer recorded after. */
async function inFlightBatchKeys(storeDir: string): Promise<Set<string>> {
  const keys = new Set<string>();
  if (!existsSync(storeDir)) return keys;
  for await (const rec of new RunStore(storeDir).readResponses({ request: false })) {
    if (rec.status === "pending") keys.add(rec.key);
    else keys.delete(rec.key);
  }
  return keys;
}

/** Text of `tokens` o200k tokens ("x x x ..."). */
function filler(tokens: number): string {
  return tokens <= 0 ? "" : `x${" x".repeat(tokens - 1)}`;
}

interface Recorded {
  /** Per stage and task: sum and count of recorded completion tokens. */
  output: Map<string, { sum: number; n: number }>;
  /** Per stage: sum and count of recorded latencies (requests that were sent, not cache hits). */
  latency: Map<string, { sum: number; n: number }>;
  /** Per stage: prompt and completion tokens of the requests the run store records as sent (paid). */
  paid: Map<string, { input: number; output: number }>;
}
/** What the store (old records and the dry run's cache hits; placeholders carry no usage) says about answers. */
async function readRecorded(store: RunStore): Promise<Recorded> {
  const output = new Map<string, { sum: number; n: number }>();
  const latency = new Map<string, { sum: number; n: number }>();
  const paid = new Map<string, { input: number; output: number }>();
  const add = (m: Map<string, { sum: number; n: number }>, k: string, v: number) => {
    const e = m.get(k) ?? { sum: 0, n: 0 };
    e.sum += v;
    e.n++;
    m.set(k, e);
  };
  for await (const rec of store.readResponses({ request: false })) {
    if (rec.status !== "ok") continue;
    if (rec.usage) add(output, `${rec.stage}\t${rec.task}`, rec.usage.completionTokens);
    if (!rec.cached && rec.latencyMs !== undefined) add(latency, rec.stage, rec.latencyMs);
    if (!rec.cached && rec.usage) {
      const p = paid.get(rec.stage) ?? { input: 0, output: 0 };
      p.input += rec.usage.promptTokens;
      p.output += rec.usage.completionTokens;
      paid.set(rec.stage, p);
    }
  }
  return { output, latency, paid };
}

/** A stage's estimate: its requests, tokens, cost at its model's price, and time at the recorded rate. */
function stageEstimate(
  stage: string,
  model: string,
  sends: readonly WouldSend[],
  recorded: Recorded,
  price: ModelPrice | undefined,
  batch: boolean,
  concurrency: number,
): StageEstimate {
  const byTask = new Map<string, TaskEstimate>();
  for (const s of sends) {
    if (s.stage !== stage) continue;
    let t = byTask.get(s.task);
    if (!t) {
      const r = recorded.output.get(`${stage}\t${s.task}`);
      t = { stage, task: s.task, requests: 0, inputTokens: 0, outputTokens: 0, outputSource: r ? "recorded" : "max_tokens", costUsd: undefined };
      if (r) t.recordedMeanOutput = r.sum / r.n;
      byTask.set(s.task, t);
    }
    t.requests++;
    t.inputTokens += s.inputTokens;
    if (t.recordedMeanOutput !== undefined) t.outputTokens += t.recordedMeanOutput;
    else if (s.maxOutputTokens !== undefined) t.outputTokens += s.maxOutputTokens;
    else {
      t.outputTokens += ASSUMED_OUTPUT_TOKENS * s.choices;
      t.outputSource = "assumed";
    }
  }
  const tasks = [...byTask.values()];
  for (const t of tasks) {
    t.outputTokens = Math.round(t.outputTokens);
    t.costUsd = price ? costOf(price, t.inputTokens, t.outputTokens, batch) : undefined;
  }
  const requests = tasks.reduce((a, t) => a + t.requests, 0);
  const lat = recorded.latency.get(stage);
  // Requests in flight at once over the mean time each took.
  const requestsPerSecond = lat && lat.sum > 0 ? Math.min(concurrency, Math.max(1, requests)) / (lat.sum / lat.n / 1000) : undefined;
  return {
    stage,
    model,
    price,
    requests,
    inputTokens: tasks.reduce((a, t) => a + t.inputTokens, 0),
    outputTokens: tasks.reduce((a, t) => a + t.outputTokens, 0),
    costUsd: price ? tasks.reduce((a, t) => a + (t.costUsd ?? 0), 0) : undefined,
    requestsPerSecond,
    seconds: requestsPerSecond === undefined ? undefined : requests / requestsPerSecond,
    tasks,
    spentUsd: price ? costOf(price, recorded.paid.get(stage)?.input ?? 0, recorded.paid.get(stage)?.output ?? 0, batch) : undefined,
  };
}

/** The cache as a dry run may use it: answers are read, nothing is written. */
function readOnlyCache(cache: RequestCache): RequestCache {
  return {
    path: cache.path,
    get: (key) => cache.get(key),
    put() {},
    flush() {},
    info: () => cache.info(),
    clear: () => 0,
    prune: () => 0,
    close() {},
  };
}
