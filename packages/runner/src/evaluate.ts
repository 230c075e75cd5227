import { resolve } from "node:path";
import { ConfigError, type ModelProviderV1, type Registry, type TaskSpec, YardstickError } from "@yardstick/core";
import {
  type AnswerOutcome,
  type BatchSettings,
  type JudgeOutcome,
  type ProgressReporter,
  type RequestCache,
  type RunEstimate,
  RunStore,
  type TaskOutcome,
  checkTasksBeforeRequests,
  createRunManifest,
  digestTaskData,
  openRequestCache,
  resolveModelIdentity,
  runEvaluation,
  slug,
} from "@yardstick/engine";
import { lindseaRollup, summarize } from "@yardstick/metrics";
import { RUN_FORMAT_VERSION, type RunManifest, type RunResults, type Shard } from "@yardstick/run-format";
import { builtinSettingsFromEnv, createBuiltinRegistry, dialectsOf, loadPluginPackages } from "./builtins.js";
import { cacheRoot, defaultCachePath } from "./cache-paths.js";
import { type CostOptions, planCost } from "./cost.js";
import { type JudgeOptions, type JudgeSetup, setupJudge } from "./judge-setup.js";
import { createModel, preflight } from "./model-setup.js";
import { tasksTheModelCanScore } from "./loglikelihood-check.js";
import { loadNamedMetricPackages } from "./metric-packages.js";
import { type BatchOptions, createBatchSettings } from "./batch-setup.js";
import { checkTasksRunnable, loadTaskSpecs } from "./tasks.js";
import { packageVersions } from "./versions.js";

export interface EvaluateOptions {
  /** Config files or folders (any registered dialect), or tasks already loaded. */
  tasks: string | readonly string[] | readonly TaskSpec[];
  /** `provider:model` (e.g. "openai-compatible:Qwen/Qwen3-8B", "baseline:majority") or a provider object. */
  model: string | ModelProviderV1;
  /** Base URL(s) of an OpenAI-compatible server (several share the requests: see createBalancer in @yardstick/http). */
  baseURL?: string | readonly string[];
  apiKey?: string;
  /** The run-store folder; the same options resume the same folder. Default runs/<model>-<fingerprint>. */
  out?: string;
  /** Only these task names / languages of the configs. */
  taskNames?: readonly string[];
  languages?: readonly string[];
  limit?: number;
  seed?: number;
  concurrency?: number;
  shard?: Shard;
  /** A checkpoint revision to tell apart models served under one name (enters the cache key). */
  modelRevision?: string;
  /** Path of the SQLite request cache, or false to bypass it. Default: the user's yardstick cache. */
  cache?: string | false;
  /** Plugins; default every built-in. */
  registry?: Registry;
  /** Folder relative config paths and `out` are resolved against (default the current folder). */
  cwd?: string;
  /** Folder relative data paths of tasks given as TaskSpecs are resolved against (default `cwd`). */
  baseDir?: string;
  maxAttempts?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  progress?: ProgressReporter;
  log?: (message: string) => void;
  /** Leave out (and name) the loglikelihood tasks the model cannot score instead of refusing the run. */
  skipUnsupported?: boolean;
  /** Options recorded in run.json for the record (the CLI records its flags); not part of the fingerprint. */
  recordedOptions?: Record<string, unknown>;
  /** Called once the run store is open, before the first request (the CLI says which folder it writes). */
  onStoreOpened?: (dir: string, resumed: boolean) => void;
  /** The judge model and baseline run of tasks with a judge (see `setupJudge`). */
  judge?: JudgeOptions;
  /** Send the requests through the provider's batch API (`--batch`): OpenAI Batch or Anthropic Message Batches. */
  batch?: BatchOptions;
  /** Estimate the run's cost first (`--dry-run`: only that), and/or keep it under a budget (`--max-cost`). */
  cost?: CostOptions;
}

export interface EvaluateReport {
  /** The run store's folder; "" when the run was stopped (`signal`) before it was opened. */
  outDir: string;
  fingerprint: string;
  resumed: boolean;
  aborted: boolean;
  /** results.json as written (undefined when the run was stopped before scoring). */
  results: RunResults | undefined;
  tasks: TaskOutcome[];
  answering: AnswerOutcome[];
  /** How the judge stage went, per judged task (absent for a dry run). */
  judging?: JudgeOutcome[];
  /** The cost estimate, when `cost` was given (a dry run returns only this). */
  estimate?: RunEstimate;
}

/**
 * Runs an evaluation from code, as `yardstick run` does: load the tasks, check them, answer every
 * sample into a run store (resuming one with the same fingerprint), then score the store.
 *
 * ```ts
 * const report = await evaluate({ tasks: "seahelm_tasks/", model: "openai-compatible:Qwen/Qwen3-8B",
 *   baseURL: "http://127.0.0.1:8000/v1", out: "runs/qwen" });
 * console.log(report.results?.total);
 * ```
 */
export async function evaluate(options: EvaluateOptions): Promise<EvaluateReport> {
  const cwd = options.cwd ?? process.cwd();
  const seed = options.seed ?? 1234;
  const concurrency = options.concurrency ?? 16;
  const baseURLs = options.baseURL === undefined ? [] : typeof options.baseURL === "string" ? [options.baseURL] : [...options.baseURL];
  let registry = options.registry ?? createBuiltinRegistry(builtinSettingsFromEnv(process.env, cacheRoot(process.env)));

  let tasks: TaskSpec[];
  let baseDir = options.baseDir ?? cwd;
  if (isTaskList(options.tasks)) {
    tasks = options.tasks.map((t) => structuredClone(t));
  } else {
    const paths = typeof options.tasks === "string" ? [options.tasks] : [...options.tasks];
    const loaded = await loadTaskSpecs(
      paths.map((p) => resolve(cwd, p)),
      {
        dialects: dialectsOf(registry),
        ...(options.taskNames ? { tasks: [...options.taskNames] } : {}),
        ...(options.languages ? { languages: [...options.languages] } : {}),
        baseDir: cwd,
      },
    );
    tasks = loaded.tasks;
    baseDir = loaded.baseDir;
    if (loaded.plugins.length > 0) registry = registry.extend(await loadPluginPackages(loaded.plugins, baseDir));
  }
  // Metrics the configs name that are not registered: packages installed under their names (`metric-packages.ts`).
  registry = (await loadNamedMetricPackages(tasks, registry, [cwd])).registry;
  checkTasksRunnable(tasks, registry);

  const model =
    typeof options.model === "string"
      ? createModel(
          options.model,
          {
            baseURLs,
            ...(options.apiKey ? { apiKey: options.apiKey } : {}),
            maxConcurrency: concurrency,
            seed,
            maxAttempts: options.maxAttempts,
            timeoutMs: options.timeoutMs,
          },
          registry,
        )
      : options.model;
  tasks = tasksTheModelCanScore(tasks, model, options.skipUnsupported === true, options.log);
  let cache: RequestCache | undefined;
  let store: RunStore | undefined;
  let judge: JudgeSetup | undefined;
  let batchApi: BatchSettings | undefined;
  let judgeBatchApi: BatchSettings | undefined;
  try {
    if (options.batch) batchApi = createBatchSettings(model, baseURLs, options.apiKey, options.batch);
    // Everything before the run store opens listens to the stop signal too: a server that hangs
    // while the run starts does not hold a Ctrl-C for its timeout, and a step cut by it is no error.
    const stopped: EvaluateReport = { outDir: "", fingerprint: "", resumed: false, aborted: true, results: undefined, tasks: [], answering: [] };
    let resolved: Awaited<ReturnType<typeof resolveModelIdentity>>;
    try {
      await preflight(model, baseURLs, options.apiKey, options.signal, options.log);
      if (options.signal?.aborted) return stopped;
      judge = await setupJudge(
        tasks,
        options.judge ?? {},
        { baseURLs, ...(options.apiKey ? { apiKey: options.apiKey } : {}), maxConcurrency: concurrency, seed, maxAttempts: options.maxAttempts, timeoutMs: options.timeoutMs },
        registry,
        cwd,
        options.log,
        options.signal,
      );
      if (options.batch && judge) {
        judgeBatchApi = createBatchSettings(judge.model, judge.role.baseURLs ?? [], options.judge?.judgeApiKey ?? options.apiKey, options.batch, "the judge model");
      }
      if (options.signal?.aborted) return stopped;
      resolved = await resolveModelIdentity(model, {
        ...(options.modelRevision !== undefined ? { revision: options.modelRevision } : {}),
        ...(options.log ? { log: options.log } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (err) {
      if (options.signal?.aborted) return stopped;
      throw err;
    }
    if (options.signal?.aborted) return stopped;
    const { identity, parts: identityParts } = resolved;
    await digestTaskData(tasks, registry, baseDir);
    // Every row's first request and the labels and main scores its metrics need, checked after the
    // quick server probe and before the run store is made: a row the check refuses leaves no store
    // for the corrected run to collide with.
    await checkTasksBeforeRequests({
      tasks,
      registry,
      baseDir,
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (options.signal?.aborted) return stopped;
    const manifest = createRunManifest({
      tasks,
      model: {
        provider: model.id,
        modelId: model.modelId,
        identity,
        ...(identityParts.served ? { served: identityParts.served } : {}),
        ...(identityParts.revision !== undefined ? { revision: identityParts.revision } : {}),
        ...(baseURLs.length ? { baseURLs } : {}),
      },
      ...(judge ? { judgeModel: judge.role } : {}),
      options: { limit: options.limit ?? null, seed, ...(judge?.baselineFingerprint ? { baseline: judge.baselineFingerprint } : {}) },
      recordedOptions: { concurrency, cache: options.cache !== false, ...options.recordedOptions },
      ...(options.shard ? { shard: options.shard } : {}),
      versions: packageVersions(),
    });
    const { fingerprint } = manifest;
    const shardSuffix = options.shard ? `-shard-${options.shard.index}-of-${options.shard.count}` : "";
    const outDir = resolve(cwd, options.out ?? `runs/${slug(model.modelId)}-${fingerprint.slice(0, 12)}${shardSuffix}`);

    if (options.cache !== false) cache = openCache(options.cache ?? defaultCachePath(process.env));
    let runModel = model;
    let judgeModel = judge?.model;
    let estimate: RunEstimate | undefined;
    if (options.cost) {
      // Batch mode pays the batch price: the estimate and the budget apply the discount.
      const planned = await planCost(options.batch ? { ...options.cost, batch: true } : options.cost, {
        tasks,
        registry,
        model,
        modelIdentity: identity,
        storeDir: outDir,
        manifest,
        tasksChecked: true,
        ...(cache ? { cache } : {}),
        concurrency,
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
        ...(options.shard ? { shard: options.shard } : {}),
        baseDir,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(judge ? { judge: { model: judge.model, modelIdentity: judge.identity, ...(judge.baselineStore ? { baselineStore: judge.baselineStore } : {}) } } : {}),
      });
      estimate = planned.estimate;
      if (options.cost.dryRun) return { outDir, fingerprint, resumed: false, aborted: false, results: undefined, tasks: [], answering: estimate.answering, estimate };
      runModel = planned.model;
      judgeModel = planned.judgeModel;
      // Under --max-cost, batches are paid from the same budget as online requests.
      if (planned.guardBatch && batchApi) batchApi = { ...batchApi, client: planned.guardBatch(batchApi.client, model) };
      if (planned.guardBatch && judgeBatchApi && judge) judgeBatchApi = { ...judgeBatchApi, client: planned.guardBatch(judgeBatchApi.client, judge.model) };
    }
    store = new RunStore(outDir);
    const { resumed, previousFormatVersion } = await openStore(store, manifest);
    options.onStoreOpened?.(outDir, resumed);
    if (previousFormatVersion !== undefined) {
      options.log?.(`run store ${outDir} was in format ${previousFormatVersion}; upgraded to format ${RUN_FORMAT_VERSION} (its records are kept as they are)`);
    }
    const result = await runEvaluation({
      tasks,
      registry,
      model: runModel,
      modelIdentity: identity,
      store,
      ...(cache ? { cache } : {}),
      concurrency,
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      seed,
      baseDir,
      tasksChecked: true,
      ...(options.progress ? { progress: options.progress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      summarize: (scores, s) => summarize(scores, { seed: s }),
      // SEA-HELM scores its linguistic-diagnostics competency with the LINDSEA rule, not a plain mean.
      competencyRollups: { "linguistic-diagnostics": lindseaRollup },
      ...(options.log ? { log: options.log } : {}),
      ...(batchApi ? { batchApi } : {}),
      ...(judge
        ? {
            judge: {
              model: judgeModel ?? judge.model,
              modelIdentity: judge.identity,
              ...(judge.baselineStore ? { baselineStore: judge.baselineStore } : {}),
              ...(judgeBatchApi ? { batchApi: judgeBatchApi } : {}),
            },
          }
        : {}),
    });
    const results = result.aborted ? undefined : await store.readResults();
    return { outDir, fingerprint, resumed, aborted: result.aborted, results, tasks: result.tasks, answering: result.answering, judging: result.judging, ...(estimate ? { estimate } : {}) };
  } finally {
    await store?.close();
    cache?.close();
    await batchApi?.client.close();
    await judgeBatchApi?.client.close();
    if (typeof options.model === "string") await model.close?.();
    if (judge?.owned) await judge.model.close?.();
  }
}

function isTaskList(tasks: EvaluateOptions["tasks"]): tasks is readonly TaskSpec[] {
  return Array.isArray(tasks) && tasks.length > 0 && typeof tasks[0] === "object";
}

/** Opens the run store; a folder yardstick cannot use becomes one clear message naming it. */
async function openStore(store: RunStore, manifest: RunManifest): Promise<{ resumed: boolean; previousFormatVersion?: number }> {
  try {
    return await store.open(manifest);
  } catch (err) {
    if (YardstickError.isInstance(err)) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(`cannot use this as the run folder (${code ?? (err as Error).message}); choose another --out`, {
      file: store.dir,
      cause: err,
    });
  }
}

/** Opens the shared request cache; an unusable one names the file and the way around it. */
function openCache(path: string): RequestCache {
  try {
    return openRequestCache({ path });
  } catch (err) {
    if (YardstickError.isInstance(err)) throw err;
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError(
      `cannot open the request cache (${reason}); set YARDSTICK_CACHE_DIR to another folder, delete the file, or run with --no-cache`,
      { file: path, cause: err },
    );
  }
}
