import {
  ApiCallError,
  type ChatMessage,
  ConfigError,
  type ModelErrorRecord,
  type ModelProviderV1,
  type ModelRequest,
  type ModelResponse,
  type PromptBuilderV1,
  type Registry,
  type Sample,
  type TaskSpec,
} from "@yardstick/core";
import type { HeadlineInterval } from "./headline-interval.js";
import { type CompetencyRollup, type TaskResult, aggregateResults, type ResultsTree } from "./aggregate.js";
import { canonicalJson, hashCanonical, sha256 } from "./canonical-json.js";
import { forEachConcurrent } from "./pool.js";
import { type ProgressReporter, silentProgress } from "./progress.js";
import type { RequestCache } from "./request-cache.js";
import type { RunStore } from "./run-store.js";
import { hashRequest } from "./request-hash.js";
import { type TurnState, answerLine, compactTurn, isoNow, slimResponse, toErrorRecord } from "./response-records.js";
import { countJsonlRows, forScoring, withLabels } from "./task-data.js";
import { scoreTask } from "./score-task.js";
import { type ScoreSummary, type Summarize, simpleSummary } from "./summary.js";

export interface EvaluationSettings {
  tasks: readonly TaskSpec[];
  registry: Registry;
  model: ModelProviderV1;
  store: RunStore;
  /** Omit (or pass undefined) to bypass the cache. */
  cache?: RequestCache;
  /** Samples in flight at once (default 16); the provider may apply its own adaptive limit. */
  concurrency?: number;
  /** Evaluate only the first N samples of each task. */
  limit?: number;
  seed?: number;
  /** Relative data paths are resolved against this folder. */
  baseDir?: string;
  progress?: ProgressReporter;
  /**
   * Stop: no new sample is started once it fires; requests in flight finish and are stored, and the
   * run returns `aborted: true` without scoring. (A second Ctrl-C is the runner's business.)
   */
  signal?: AbortSignal;
  /**
   * The run stops with an error when this many requests in a row have failed for good before any
   * succeeded: a wrong URL, model name or key fails every request the same way. Default 10; 0 = never.
   */
  failFastAfter?: number;
  /** Computes n, stderr and a confidence interval of per-sample scores (injected: see @yardstick/metrics). */
  summarize?: Summarize;
  log?: (message: string) => void;
  /** Competency-specific roll-ups applied while aggregating (see `aggregateResults`). */
  competencyRollups?: Record<string, CompetencyRollup>;
}

export interface TaskOutcome extends TaskResult {
  samples: number;
  errors: number;
  fromStore: number;
  fromCache: number;
  sent: number;
  /** n, mean, stderr and CI of the per-sample scores (key `summary.key`). */
  summary?: ScoreSummary;
  /** Standard error and CI of the task's headline score (`mainScore`), on its own scale. */
  headline?: HeadlineInterval;
  /** Set when the task could not be scored (e.g. its metric is not installed). */
  failure?: string;
}

export interface EvaluationResult {
  results: ResultsTree;
  tasks: TaskOutcome[];
  aborted: boolean;
}

/** Runs every task: stream samples, build prompts, consult the store and cache, call the model, score, aggregate. */
export async function runEvaluation(settings: EvaluationSettings): Promise<EvaluationResult> {
  const { registry, model, store } = settings;
  const progress = settings.progress ?? silentProgress;
  const summarize = settings.summarize ?? simpleSummary;
  const identity = model.identity();
  const stop = new AbortController();
  settings.signal?.addEventListener("abort", () => stop.abort(), { once: true });
  if (settings.signal?.aborted) stop.abort();
  const failFastAfter = settings.failFastAfter ?? 10;
  let succeeded = 0;
  let failedInARow = 0;
  let fatal: ApiCallError | undefined;
  const noteOutcome = (error: ModelErrorRecord | undefined): void => {
    if (!error) {
      succeeded++;
      failedInARow = 0;
      return;
    }
    failedInARow++;
    if (succeeded === 0 && failFastAfter > 0 && failedInARow >= failFastAfter && !fatal) {
      fatal = new ApiCallError(
        `the first ${failedInARow} requests all failed, so the run stopped (rerun to retry them once fixed); the last error: ${error.message}`,
        { retryable: false, ...(error.status !== undefined ? { status: error.status } : {}) },
      );
      stop.abort();
    }
  };

  // Resume: the latest stored record of each (task, sample, turn) wins; errors are retried.
  const stored = new Map<string, Map<string, TurnState[]>>();
  for await (const rec of store.readResponses()) {
    let byTask = stored.get(rec.task);
    if (!byTask) stored.set(rec.task, (byTask = new Map()));
    let turns = byTask.get(rec.sample);
    if (!turns) byTask.set(rec.sample, (turns = []));
    turns[rec.turn - 1] = compactTurn(rec);
  }
  if (store.unreadableLines.length > 0) {
    const lines = store.unreadableLines;
    settings.log?.(
      `warning: ${store.responsesPath}: ${lines.length} line(s) are not valid records and were skipped (line ${lines.slice(0, 5).join(", ")}${lines.length > 5 ? ", ..." : ""}); their samples are asked again`,
    );
  }

  const outcomes: TaskOutcome[] = [];
  for (const task of settings.tasks) {
    if (stop.signal.aborted) break;
    outcomes.push(await runTask(task, stored.get(task.key) ?? new Map()));
    stored.delete(task.key);
  }
  if (fatal) throw fatal;
  const aborted = stop.signal.aborted;
  const results = aggregateResults(outcomes, settings.competencyRollups);
  return { results, tasks: outcomes, aborted };

  async function runTask(task: TaskSpec, previous: Map<string, TurnState[]>): Promise<TaskOutcome> {
    const loader = registry.get("dataloaders", task.data.id);
    const builder = registry.get("promptBuilders", task.prompt.id);
    const dataCtx = { baseDir: settings.baseDir, task, signal: stop.signal };
    const dataOptions = task.data.options ?? {};
    const limit = settings.limit;

    // The label set and counts: the baselines need them before their first answer, so they get a
    // first pass over the data; everyone else gets them from the samples at scoring time, and the
    // progress total from a fast line count when the data is a local JSONL file.
    const needsLabelsUpFront = model.id.startsWith("baseline:");
    let total = needsLabelsUpFront ? undefined : await countJsonlRows(dataOptions.path, settings.baseDir);
    const labelCounts = new Map<string, number>();
    if (total === undefined) {
      total = 0;
      for await (const s of loader.load(dataOptions, dataCtx)) {
        if (limit !== undefined && total >= limit) break;
        total++;
        if (typeof s.label === "string") labelCounts.set(s.label, (labelCounts.get(s.label) ?? 0) + 1);
      }
    } else if (limit !== undefined) {
      total = Math.min(total, limit);
    }
    let effective: TaskSpec = withLabels(task, labelCounts);
    const examples = await loadExamples(effective);

    const outcome: TaskOutcome = {
      key: task.key,
      name: task.name,
      language: task.language,
      competency: task.competency,
      aggregationGroup: task.aggregationGroup,
      mainScore: task.mainScore,
      main: undefined,
      metrics: {},
      samples: 0,
      errors: 0,
      fromStore: 0,
      fromCache: 0,
      sent: 0,
    };
    const finals = new Map<string, { sample: Sample; turn: TurnState }>();
    const turnsPerSample = Math.max(1, task.turns ?? 1);
    progress.startTask(task.key, total);

    async function* limited(): AsyncGenerator<Sample> {
      let n = 0;
      for await (const s of loader.load(dataOptions, dataCtx)) {
        if (limit !== undefined && n >= limit) return;
        n++;
        yield s;
      }
    }

    await forEachConcurrent(
      limited(),
      settings.concurrency ?? 16,
      async (sample) => {
        const prior = previous.get(sample.id) ?? [];
        const responses: string[] = [];
        let last: TurnState = {};
        let allStored = true;
        for (let turn = 1; turn <= turnsPerSample; turn++) {
          const kept = prior[turn - 1];
          if (kept && kept.error === undefined) {
            last = kept;
          } else {
            allStored = false;
            last = await answerTurn(effective, builder, sample, examples, turn, responses);
          }
          if (last.error) break;
          responses.push(last.text ?? "");
        }
        finals.set(sample.id, { sample: forScoring(sample), turn: last });
        if (allStored) outcome.fromStore++;
        progress.advance(1, allStored);
      },
      stop.signal,
    );
    progress.endTask();

    async function answerTurn(
      t: TaskSpec,
      b: PromptBuilderV1,
      sample: Sample,
      exs: Sample[],
      turn: number,
      previousResponses: string[],
    ): Promise<TurnState> {
      const input = { sample, task: t, examples: exs, turn, previousResponses };
      if (t.mode === "loglikelihood") return answerLoglikelihood(t, b, input);
      let built: ChatMessage[] | string;
      try {
        built = b.build(input, t.prompt.options ?? {});
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        throw new ConfigError(`task ${t.key}, sample ${sample.id}, turn ${turn}: cannot build the prompt: ${message}`, {
          ...(t.source ? { file: t.source.file } : {}),
          keyPath: [t.name, "languages", t.language, "prompt_template"],
          cause: err,
        });
      }
      const request: ModelRequest =
        typeof built === "string"
          ? { kind: "completion", prompt: built, params: t.generation }
          : { kind: "chat", messages: built as ChatMessage[], params: t.generation };
      const { key, promptHash } = hashRequest(identity, request);
      const cached = settings.cache?.get(key) as ModelResponse | undefined;
      if (cached) {
        outcome.fromCache++;
        store.appendLine(answerLine(t.key, sample.id, turn, key, promptHash, true, cached));
        return { text: cached.text };
      }
      outcome.sent++;
      try {
        // No signal: on a stop, requests in flight still finish and are stored.
        const response = await model.generate(request, { sample, task: t });
        settings.cache?.put(key, identity, slimResponse(response));
        store.appendLine(answerLine(t.key, sample.id, turn, key, promptHash, false, response));
        noteOutcome(undefined);
        return { text: response.text };
      } catch (err) {
        const error = toErrorRecord(err);
        store.append({ task: t.key, sample: sample.id, turn, key, promptHash, cached: false, error, time: isoNow() });
        noteOutcome(error);
        return { error };
      }
    }

    async function answerLoglikelihood(
      t: TaskSpec,
      b: PromptBuilderV1,
      input: { sample: Sample; task: TaskSpec; examples: Sample[]; turn: number; previousResponses: string[] },
    ): Promise<TurnState> {
      if (!b.buildChoices) throw new ConfigError(`prompt builder "${b.id}" cannot build loglikelihood choices`, { keyPath: [t.key, "prompt"] });
      if (!model.loglikelihood) throw new ConfigError(`model provider "${model.id}" cannot score loglikelihoods`, { keyPath: [t.key, "mode"] });
      const { context, continuations } = b.buildChoices(input, t.prompt.options ?? {});
      const request = { kind: "loglikelihood", context, continuations };
      const key = hashCanonical({ model: identity, request });
      const base = { task: t.key, sample: input.sample.id, turn: input.turn, key, promptHash: sha256(canonicalJson({ prompt: context })) };
      const cached = settings.cache?.get(key) as number[] | undefined;
      if (cached) {
        outcome.fromCache++;
        store.append({ ...base, cached: true, choiceLogprobs: cached, time: isoNow() });
        return { choiceLogprobs: cached };
      }
      outcome.sent++;
      try {
        const scores: number[] = [];
        for (const continuation of continuations) {
          const r = await model.loglikelihood!({ context, continuation }, { sample: input.sample, task: t });
          scores.push(r.logprob);
        }
        settings.cache?.put(key, identity, scores);
        store.append({ ...base, cached: false, choiceLogprobs: scores, time: isoNow() });
        noteOutcome(undefined);
        return { choiceLogprobs: scores };
      } catch (err) {
        const error = toErrorRecord(err);
        store.append({ ...base, cached: false, error, time: isoNow() });
        noteOutcome(error);
        return { error };
      }
    }

    if (stop.signal.aborted) return outcome;
    if (labelCounts.size === 0) {
      for (const { sample } of finals.values()) {
        if (typeof sample.label === "string") labelCounts.set(sample.label, (labelCounts.get(sample.label) ?? 0) + 1);
      }
      effective = withLabels(task, labelCounts);
    }
    await scoreTask({ registry, store, summarize, seed: settings.seed, log: settings.log }, effective, finals, outcome);
    return outcome;
  }

  async function loadExamples(task: TaskSpec): Promise<Sample[]> {
    if (task.fewshot <= 0 || !task.examples) return [];
    const loader = registry.get("dataloaders", task.examples.id);
    const out: Sample[] = [];
    for await (const s of loader.load(task.examples.options ?? {}, { baseDir: settings.baseDir, task })) {
      out.push(s);
      if (out.length >= task.fewshot) break;
    }
    return out;
  }
}
