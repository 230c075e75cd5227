import {
  ApiCallError,
  type ChatMessage,
  ConfigError,
  type MetricInput,
  type MetricV1,
  type ModelErrorRecord,
  type ModelProviderV1,
  type ModelRequest,
  type ModelResponse,
  type PromptBuilderV1,
  type Registry,
  type Sample,
  type TaskSpec,
  YardstickError,
} from "@yardstick/core";
import { createReadStream, existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { type HeadlineInterval, headlineInterval } from "./headline-interval.js";
import { type TaskResult, aggregateResults, type ResultsTree } from "./aggregate.js";
import { canonicalJson, hashCanonical, sha256 } from "./canonical-json.js";
import { forEachConcurrent } from "./pool.js";
import { type ProgressReporter, silentProgress } from "./progress.js";
import type { RequestCache } from "./request-cache.js";
import type { ResponseRecord, RunStore } from "./run-store.js";
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

interface TurnState {
  text?: string;
  error?: ModelErrorRecord;
  choiceLogprobs?: number[];
}

/**
 * The two hashes of a request, from one canonical serialisation of it:
 * - `promptHash`: what was sent, as the dev server of @yardstick/testing counts it in `/stats`
 *   (sha256 of the canonical `{messages: [{role, content}]}` or `{prompt}`);
 * - `key`: the cache key, sha256 of the canonical `{model, request}`.
 */
export function hashRequest(modelIdentity: string, request: ModelRequest): { key: string; promptHash: string } {
  let sent: string;
  let extra = "";
  if (request.kind === "chat") {
    sent = `"messages":${canonicalMessages(request.messages)}`;
  } else {
    sent = `"prompt":${JSON.stringify(request.prompt)}`;
    extra = canonicalJson({ echo: request.echo, logprobs: request.logprobs }).slice(1, -1);
  }
  // A fixed key order (kind, messages|prompt, params, then echo/logprobs): stable, and the messages
  // are serialised once for both hashes. A task's params object is shared by all its requests.
  const requestJson = `{"kind":"${request.kind}",${sent},"params":${paramsJson(request.params)}${extra ? `,${extra}` : ""}}`;
  return {
    promptHash: sha256(`{${sent}}`),
    key: sha256(`{"model":${JSON.stringify(modelIdentity)},"request":${requestJson}}`),
  };
}

/**
 * `canonicalJson(messages.map((m) => ({ role: m.role, content: m.content })))`, written out for the
 * usual text messages (sorted keys: content, then role) without building the temporary objects.
 */
function canonicalMessages(messages: readonly ChatMessage[]): string {
  let out = "[";
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (i > 0) out += ",";
    out +=
      typeof m.content === "string" && typeof m.role === "string"
        ? `{"content":${JSON.stringify(m.content)},"role":${JSON.stringify(m.role)}}`
        : canonicalJson({ role: m.role, content: m.content });
  }
  return `${out}]`;
}

const paramsJsonCache = new WeakMap<object, string>();
function paramsJson(params: ModelRequest["params"]): string {
  let json = paramsJsonCache.get(params);
  if (json === undefined) {
    json = canonicalJson(params);
    paramsJsonCache.set(params, json);
  }
  return json;
}

export function promptHashOf(request: ModelRequest): string {
  return hashRequest("", request).promptHash;
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
  const results = aggregateResults(outcomes);
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
    await scoreTask(effective, finals, outcome);
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

  async function scoreTask(
    task: TaskSpec,
    finals: Map<string, { sample: Sample; turn: TurnState }>,
    outcome: TaskOutcome,
  ): Promise<void> {
    // The response-evaluation steps of SEA-HELM's guide: handle errors, postprocess, count, score.
    const inputs: MetricInput[] = [];
    const responseCounts = new Map<string, number>();
    for (const { sample, turn } of finals.values()) {
      outcome.samples++;
      if (turn.error) {
        outcome.errors++;
        if (task.errorResponses === "drop") continue;
      }
      let prediction: unknown;
      const raw = turn.text ?? "";
      if (turn.choiceLogprobs) {
        prediction = turn.choiceLogprobs;
      } else {
        let text = turn.error ? "" : raw;
        for (const ref of task.postprocessors) {
          text = registry.get("postprocessors", ref.id).process(text, ref.options ?? {}, { sample, task });
        }
        prediction = text;
        responseCounts.set(text, (responseCounts.get(text) ?? 0) + 1);
      }
      inputs.push({
        sampleId: sample.id,
        prediction,
        reference: sample.label,
        rawResponse: raw,
        sample,
        ...(turn.error ? { error: turn.error.message } : {}),
      });
    }
    finals.clear();

    const scores: Record<string, unknown> = {};
    const perSample = new Map<string, Record<string, number>>();
    let mainMetric: { metric: MetricV1; options: Record<string, unknown> } | undefined;
    try {
      for (const ref of task.metrics) {
        const metric = registry.get("metrics", ref.id);
        const result = await metric.compute(inputs, ref.options ?? {}, { task, seed: settings.seed });
        if (!mainMetric && task.mainScore in result.scores) mainMetric = { metric, options: ref.options ?? {} };
        for (const [k, v] of Object.entries(result.scores)) scores[k in scores ? `${ref.id}.${k}` : k] = v;
        if (result.details) scores[`${ref.id}.details`] = result.details;
        for (const s of result.perSample) {
          const row = perSample.get(s.sampleId);
          if (!row) {
            perSample.set(s.sampleId, s.scores); // the common single-metric case: no copy
            continue;
          }
          const merged = { ...row };
          for (const [k, v] of Object.entries(s.scores)) merged[k in merged ? `${ref.id}.${k}` : k] = v;
          perSample.set(s.sampleId, merged);
        }
      }
    } catch (err) {
      if (!YardstickError.isInstance(err)) throw err;
      outcome.failure = err.message;
      settings.log?.(`task ${task.key}: ${err.message}`);
    }

    const main = scores[task.mainScore];
    outcome.main = typeof main === "number" ? main : undefined;
    if (outcome.main === undefined && outcome.failure === undefined) {
      // A misspelt `metric:` must not pass as a task without a score.
      const numeric = Object.keys(scores).filter((k) => typeof scores[k] === "number");
      outcome.failure = `its metrics report no "${task.mainScore}" (the config's main score); they report: ${numeric.join(", ") || "nothing"}`;
    }
    const perSampleKey = pickPerSampleKey(task.mainScore, perSample);
    if (perSampleKey) {
      const values: number[] = [];
      for (const row of perSample.values()) {
        const v = row[perSampleKey];
        if (typeof v === "number" && Number.isFinite(v)) values.push(v);
      }
      if (values.length > 0) outcome.summary = { ...summarize(values, settings.seed ?? 1234), key: perSampleKey };
    }
    if (mainMetric && outcome.main !== undefined && outcome.failure === undefined) {
      outcome.headline = await headlineInterval({
        ...mainMetric,
        inputs,
        ctx: { task, seed: settings.seed },
        key: task.mainScore,
        value: outcome.main,
        ...(outcome.summary ? { perSample: outcome.summary } : {}),
        seed: settings.seed ?? 1234,
      });
    }
    // The most frequent answers, keys cut to a readable length (the full texts are in scores/).
    const topResponses = [...responseCounts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([text, count]) => [text.length > 120 ? `${text.slice(0, 117)}...` : text, count] as const);
    outcome.metrics = {
      ...scores,
      n: outcome.samples,
      ...(outcome.headline
        ? {
            stderr: outcome.headline.stderr,
            ci: outcome.headline.ci,
            ci_method: outcome.headline.method,
            ...(outcome.headline.resamples ? { ci_resamples: outcome.headline.resamples } : {}),
          }
        : {}),
      ...(outcome.summary
        ? { per_sample: { key: outcome.summary.key, mean: outcome.summary.mean, stderr: outcome.summary.stderr, ci: outcome.summary.ci } }
        : {}),
      errors: outcome.errors,
      distinct_responses: responseCounts.size,
      response_counts: Object.fromEntries(topResponses),
      ...(outcome.failure ? { failure: outcome.failure } : {}),
    };
    await store.writeScores(
      task.key,
      (function* () {
        for (const i of inputs) yield { sample: i.sampleId, prediction: i.prediction, scores: perSample.get(i.sampleId) ?? {} };
      })(),
    );
  }
}

function withLabels(task: TaskSpec, labelCounts: Map<string, number>): TaskSpec {
  const labels = task.labels ?? (labelCounts.size > 0 ? [...labelCounts.keys()].sort() : undefined);
  return { ...task, labels, extra: { ...task.extra, labelCounts: Object.fromEntries(labelCounts) } };
}

/** Non-blank lines of a local `.jsonl` file (for the progress total), or undefined for anything else. */
async function countJsonlRows(path: unknown, baseDir: string | undefined): Promise<number | undefined> {
  if (typeof path !== "string" || !path.endsWith(".jsonl")) return undefined;
  const full = isAbsolute(path) || !baseDir ? path : resolve(baseDir, path);
  if (!existsSync(full)) return undefined;
  let rows = 0;
  let lineHasText = false;
  for await (const chunk of createReadStream(full, { highWaterMark: 1 << 20 })) {
    const buf = chunk as Buffer;
    const len = buf.length;
    let i = 0;
    while (i < len) {
      if (lineHasText) {
        // The rest of a line that has text cannot change the count: jump to its end (memchr).
        const nl = buf.indexOf(0x0a, i);
        if (nl === -1) break;
        rows++;
        lineHasText = false;
        i = nl + 1;
        continue;
      }
      const byte = buf[i]!;
      if (byte !== 0x0a && byte !== 0x20 && byte !== 0x0d && byte !== 0x09) lineHasText = true;
      i++;
    }
  }
  return lineHasText ? rows + 1 : rows;
}

/**
 * What scoring keeps of a sample once its requests are done: everything but the prompt variables,
 * which can be large (long contexts, images) and which metrics do not read. This bounds memory
 * on runs of a million samples.
 */
function forScoring(sample: Sample): Sample {
  if (!("prompts" in sample.raw)) return { ...sample, prompts: [] };
  const { prompts: _prompts, ...raw } = sample.raw;
  return { ...sample, prompts: [], raw };
}

function pickPerSampleKey(mainScore: string, perSample: Map<string, Record<string, number>>): string | undefined {
  const first = perSample.values().next();
  if (first.done) return undefined;
  const keys = Object.keys(first.value);
  return keys.includes(mainScore) ? mainScore : keys[0];
}

function compactTurn(rec: ResponseRecord): TurnState {
  if (rec.error) return { error: rec.error };
  if (rec.choiceLogprobs) return { choiceLogprobs: rec.choiceLogprobs };
  return { text: rec.text ?? "" };
}

/**
 * The run-store line of an answered turn: exactly `JSON.stringify` of the record
 * `{task, sample, turn, key, promptHash, cached, text, finishReason, reasoningContent, usage,
 * latencyMs, time}` (undefined members left out), written out member by member because this runs
 * per request and the generic stringify of the record object cost about twice as much.
 */
function answerLine(
  task: string,
  sample: string,
  turn: number,
  key: string,
  promptHash: string,
  cached: boolean,
  r: ModelResponse,
): string {
  const u = r.usage;
  const usage = u
    ? `{${(member("promptTokens", u.promptTokens) + member("completionTokens", u.completionTokens) + member("totalTokens", u.totalTokens)).slice(1)}}`
    : undefined;
  const members =
    member("task", task) +
    member("sample", sample) +
    member("turn", turn) +
    member("key", key) +
    member("promptHash", promptHash) +
    member("cached", cached) +
    member("text", r.text) +
    member("finishReason", r.finishReason) +
    member("reasoningContent", r.reasoningContent) +
    (usage === undefined ? "" : `,"usage":${usage}`) +
    member("latencyMs", r.latencyMs === undefined || cached ? undefined : Math.round(r.latencyMs)) +
    member("time", isoNow());
  return `{${members.slice(1)}}`;
}

/** `,"name":<JSON of value>` as JSON.stringify writes an object member; "" when it would leave it out. */
function member(name: string, value: unknown): string {
  let json: string | undefined;
  switch (typeof value) {
    case "string":
      json = JSON.stringify(value);
      break;
    case "number":
      json = Number.isFinite(value) ? String(value) : "null";
      break;
    case "boolean":
      json = value ? "true" : "false";
      break;
    case "undefined":
      return "";
    default:
      json = JSON.stringify(value);
      if (json === undefined) return "";
  }
  return `,"${name}":${json}`;
}

/** `new Date().toISOString()`, reused within the same millisecond (many records share one). */
let isoMs = -1;
let isoText = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/** What the cache keeps: everything but the latency of the attempt that produced it. */
function slimResponse(r: ModelResponse): ModelResponse {
  const { latencyMs: _ignored, ...rest } = r;
  return rest;
}

export function toErrorRecord(err: unknown): ModelErrorRecord {
  if (ApiCallError.isInstance(err)) {
    const attempts = /after (\d+) attempts?/.exec(err.message)?.[1];
    return {
      message: err.message,
      ...(err.status !== undefined ? { status: err.status } : {}),
      kind: err.status !== undefined ? "api" : /timed? ?out/i.test(err.message) ? "timeout" : "network",
      attempts: attempts ? Number(attempts) : 1,
    };
  }
  if (YardstickError.isInstance(err)) throw err;
  const message = err instanceof Error ? err.message : String(err);
  return { message, kind: "other", attempts: 1 };
}
