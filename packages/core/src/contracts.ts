import type { ChatMessage, ModelErrorRecord, ModelRequest, ModelResponse } from "./messages.js";
import type { Sample } from "./sample.js";
import type { TaskSpec } from "./task.js";

/** Passed to every plugin call: cancellation and a way to log without touching stdout. */
export interface CallContext {
  signal?: AbortSignal;
  log?: (message: string) => void;
}

// ---------------------------------------------------------------- models

export interface LoglikelihoodRequest {
  context: string;
  continuation: string;
}

export interface LoglikelihoodResult {
  /** Sum of the continuation tokens' log-probabilities. */
  logprob: number;
  /** True when every continuation token was the most likely one. */
  isGreedy: boolean;
  tokenCount: number;
}

/** What an OpenAI-compatible server reports about the model it serves (vLLM/SGLang `/v1/models`). */
export interface ServedModelInfo {
  /** The checkpoint the server loaded (vLLM's `root`), when it says. */
  root?: string;
  /** Context length the server allows (vLLM's `max_model_len`). */
  maxModelLen?: number;
  /** Who owns the model, as the server reports it. */
  ownedBy?: string;
}

/** The label set of a classification task, for providers that answer from it (the baselines). */
export interface LabelSet {
  labels: string[];
  /** How often each label occurs among the gold answers of the task's samples. */
  counts: Record<string, number>;
}

export interface ModelProviderV1 {
  readonly specVersion: "v1";
  /** Provider id, e.g. "openai-compatible" or "baseline:random". */
  readonly id: string;
  /** The model being evaluated, e.g. "Qwen/Qwen3-8B". */
  readonly modelId: string;
  /** A stable string identifying the model for caching (provider, model, endpoint family); never a secret. */
  identity(): string;
  generate(request: ModelRequest, ctx?: ModelCallContext): Promise<ModelResponse>;
  loglikelihood?(request: LoglikelihoodRequest, ctx?: ModelCallContext): Promise<LoglikelihoodResult>;
  /**
   * Several loglikelihoods at once (e.g. one `/completions` request with a prompt array), results in
   * request order. Optional: the engine calls `loglikelihood` per request when it is absent.
   */
  loglikelihoodBatch?(requests: readonly LoglikelihoodRequest[], ctx?: ModelCallContext): Promise<LoglikelihoodResult[]>;
  /**
   * What the server reports about the served model (asked once before a run). It enters the request
   * cache key, so two servers serving different checkpoints under one name never share answers.
   */
  describeServedModel?(ctx?: CallContext): Promise<ServedModelInfo | undefined>;
  /** Set by providers that answer from the task's label set; the engine then passes `ctx.labelSet`. */
  readonly needsLabelSet?: boolean;
  close?(): Promise<void>;
}

export interface ModelCallContext extends CallContext {
  /** The sample being evaluated, for providers that need it. */
  sample?: Sample;
  task?: TaskSpec;
  /** The task's label set, given to providers with `needsLabelSet`. */
  labelSet?: LabelSet;
  /**
   * Called by providers that retry internally, once per failed attempt they will try again (before
   * the wait), so the caller can count and show retries; a request that succeeds after retries
   * reports its attempts nowhere else.
   */
  onRetry?: (retry: RetryNotice) => void;
}

/** A failed attempt that the provider is about to retry. */
export interface RetryNotice {
  /** The attempt that failed (1 = the first). */
  attempt: number;
  maxAttempts: number;
  /** Why it failed: as in the error record of a request that fails for good. */
  kind: ModelErrorRecord["kind"];
  status?: number;
  /** The wait before the next attempt. */
  delayMs: number;
}

// ---------------------------------------------------------------- data

export interface DataloaderV1 {
  readonly specVersion: "v1";
  readonly id: string;
  /** Streams the samples of a task. `options` are the task's `data.options`. */
  load(options: Record<string, unknown>, ctx?: DataloaderContext): AsyncIterable<Sample>;
  /**
   * Optional: the samples of `load`, in the same order, in batches (one per chunk of the file read,
   * say). The engine's passes over a whole dataset before answering (the pre-flight label check,
   * the baselines' label count) use it when present: one await per batch instead of one per sample.
   * Read it through `loadSampleBatches`.
   */
  loadBatches?(options: Record<string, unknown>, ctx?: DataloaderContext): AsyncIterable<readonly Sample[]>;
  /**
   * A content fingerprint of what `load` would read (local files: sha256 of the bytes; Hugging
   * Face: the dataset revision), so a run over changed data is a different run.
   */
  fingerprint?(options: Record<string, unknown>, ctx?: DataloaderContext): Promise<string>;
  /** Throws a clear error when `options` are not valid, before any sample is loaded. */
  checkOptions?(options: Record<string, unknown>): void;
}

export interface DataloaderContext extends CallContext {
  /** Directory that relative paths in the options are resolved against. */
  baseDir?: string;
  task?: TaskSpec;
}

// ---------------------------------------------------------------- prompts

export interface PromptBuildInput {
  sample: Sample;
  task: TaskSpec;
  /** Few-shot examples already selected for this sample. */
  examples: Sample[];
  /** 1-based turn number. */
  turn: number;
  /** Responses of earlier turns of this sample, in order. */
  previousResponses: string[];
}

/** Turns a sample into what is sent: chat messages or a completion prompt. */
export interface PromptBuilderV1 {
  readonly specVersion: "v1";
  readonly id: string;
  build(input: PromptBuildInput, options: Record<string, unknown>): ChatMessage[] | string;
  /** Throws a clear error when `options` are not valid, before any prompt is built. */
  checkOptions?(options: Record<string, unknown>): void;
  /** Loglikelihood tasks: the context and the candidate continuations to score. */
  buildChoices?(input: PromptBuildInput, options: Record<string, unknown>): { context: string; continuations: string[] };
}

// ---------------------------------------------------------------- postprocessing

export interface PostprocessContext {
  sample?: Sample;
  task?: TaskSpec;
}

export interface PostprocessorV1 {
  readonly specVersion: "v1";
  readonly id: string;
  process(text: string, options: Record<string, unknown>, ctx?: PostprocessContext): string;
  /** Throws a clear error when `options` are not valid, before any request is sent. */
  checkOptions?(options: Record<string, unknown>): void;
}

// ---------------------------------------------------------------- metrics

export interface MetricInput {
  sampleId: string;
  /**
   * The postprocessed prediction (or list of candidates for pass@k). A loglikelihood task's is the
   * summed log-probability of each continuation (`number[]`, higher = likelier).
   */
  prediction: unknown;
  /**
   * Loglikelihood tasks: the token count of each continuation, beside `prediction` (for per-token
   * normalisation); absent when the provider or an older run store did not record it.
   */
  choiceTokenCounts?: number[];
  /** The gold answer(s). */
  reference: unknown;
  /** The raw response text before postprocessing. */
  rawResponse?: string;
  sample?: Sample;
  /** Set when the request failed and the response was replaced by "". */
  error?: string;
  /**
   * Judged tasks: the sample's stored judgements (judge and label stages), in the order of the
   * judge's requests; the latest record of each call. Absent for tasks without a judge.
   */
  judgements?: readonly JudgementRecord[];
}

export interface SampleScore {
  sampleId: string;
  scores: Record<string, number>;
}

/** Per-sample scores as one column per score name, each with one value per input in input order. */
export interface PerSampleColumns {
  scores: Record<string, Float64Array>;
}

export interface MetricResult {
  /** Task-level values keyed by name, e.g. { accuracy: 81, macro_f1: 79.5 }. */
  scores: Record<string, number>;
  /** Per-sample values; their mean is not always the task score (e.g. macro F1, corpus BLEU). */
  perSample: SampleScore[];
  /**
   * The same per-sample values as columns, in input order (optional): a metric over a large task
   * returns these so no object per sample is needed; its `perSample` is then usually
   * `perSampleView(inputs, perSampleColumns)`. Readers that handle columns prefer them.
   */
  perSampleColumns?: PerSampleColumns;
  /** Extra structured output (per-category breakdowns, counts). */
  details?: Record<string, unknown>;
}

export interface MetricContext extends CallContext {
  task?: TaskSpec;
  /** Seed for anything random (bootstrap). */
  seed?: number;
}

export interface MetricV1 {
  readonly specVersion: "v1";
  readonly id: string;
  /** Short description shown by `yardstick score --list`. */
  readonly description?: string;
  /** Whether `yardstick score` can feed it plain prediction/reference text pairs. */
  readonly textPairs?: boolean;
  /**
   * Whether it reads the samples' prompt variables (MetricX reads the source text): the run store then
   * keeps them in each sample record as `raw.prompts`, which it otherwise leaves out to stay small.
   */
  readonly readsPrompts?: boolean;
  compute(inputs: readonly MetricInput[], options: Record<string, unknown>, ctx?: MetricContext): MetricResult | Promise<MetricResult>;
  /** Throws a clear error when `options` are not valid, so a task is refused before any request is sent. */
  checkOptions?(options: Record<string, unknown>): void;
  /**
   * Optional fast path for bootstrap intervals of corpus-level scores (balanced accuracy, corpus
   * BLEU, ...): the value of task score `key` on each of `resamples` resamples of the inputs, each
   * made of `inputs.length` draws of `nextIndex()` (an index into `inputs`, with replacement), in
   * order. Returns undefined for keys it cannot resample; the engine then calls `compute` on each
   * resample instead. Label sets and similar corpus-wide choices are those of the full inputs.
   */
  resampleScores?(
    inputs: readonly MetricInput[],
    options: Record<string, unknown>,
    key: string,
    resamples: number,
    nextIndex: () => number,
    ctx?: MetricContext,
  ): Float64Array | undefined;
  /**
   * Optional exact fast path for task scores that depend only on how many inputs fall in each of a
   * few categories (balanced accuracy, macro F1: cells of the confusion matrix): each input's
   * category and the score of any category counts. The engine then draws each resample as one
   * multinomial draw of the counts, at a cost independent of the number of inputs; preferred to
   * `resampleScores`. Returns undefined for keys it cannot score this way. Label sets and similar
   * corpus-wide choices are those of the full inputs.
   */
  resampleByCounts?(
    inputs: readonly MetricInput[],
    options: Record<string, unknown>,
    key: string,
    ctx?: MetricContext,
  ): CountedScore | undefined;
}

/** A task score as a function of per-category counts (`MetricV1.resampleByCounts`). */
export interface CountedScore {
  /** The category of each input, in input order: integers in [0, categoryCount). */
  categories: Uint32Array;
  categoryCount: number;
  /** The score of a (re)sample with these counts per category; of the inputs' own counts, the task score. */
  scoreOf(counts: Uint32Array): number;
}

// ---------------------------------------------------------------- judges

/**
 * What a judge made of one reply (or a labeler of one item). Stored as the `judgement` of a judge or
 * label record; the task's metric turns judgements into scores.
 */
export interface Judgement {
  /** The numeric value of this call: a class's score, a rubric choice's score. */
  score?: number;
  /** What was chosen: a verdict ("A", "B", "tie"), a class ("CLASS_EXACTLY_MET"), a rubric choice label. */
  label?: string;
  /** The judge's reasoning, when it gave one apart from the label. */
  rationale?: string;
  /**
   * Why no judgement could be made (the reply did not parse, an unknown class, a baseline answer
   * missing, the judge call failed). A judgement with an error counts as an error of the sample; a
   * metric never scores it as a tie or a zero without saying so.
   */
  error?: string;
  /** Anything else the metric needs (criterion index and weight, the order of a pairwise call, points). */
  data?: Record<string, unknown>;
}

/** A stored judgement of a sample, as metrics see it (`MetricInput.judgements`). */
export interface JudgementRecord {
  /** "judge" or "label". */
  stage: string;
  /** The judge request id (`JudgeRequest.id`), or the labeler for labels. */
  call: string;
  judgement: Judgement;
}

/** A stored answer of the judged stage, as the judge sees it. */
export interface StoredAnswer {
  /** The stage that produced it ("generate", or "judge" for a meta-judge). */
  stage: string;
  turn: number;
  /** Every returned choice's text (n > 1 keeps them all); `text` is the first. */
  texts: string[];
  text: string;
  /** The request as sent, when stored (chat messages or a completion prompt). */
  request?: { messages?: ChatMessage[]; prompt?: string };
  /** The run the answer comes from: the judged run, or a baseline run for pairwise judging. */
  run?: string;
}

/** One judge request: a model request plus a stable id used to match its reply (e.g. "criterion-3", "order-BA"). */
export interface JudgeRequest {
  id: string;
  request: ModelRequest;
}

export interface JudgeParseContext {
  sample: Sample;
  task: TaskSpec;
  /** The judge request this reply answers. */
  request: JudgeRequest;
}

/**
 * An LLM judge as a stage of the run: it turns a sample and its stored answers into model requests,
 * and a reply into a judgement. The engine makes the calls (cache, run store, retries, resume), so
 * a judge never calls a model itself.
 */
export interface JudgeV2 {
  readonly specVersion: "v2";
  readonly id: string;
  buildRequests(sample: Sample, answers: readonly StoredAnswer[], options: Record<string, unknown>, ctx: { task: TaskSpec }): JudgeRequest[];
  /** Never throws for a bad reply: a reply that does not parse is a judgement with `error`. */
  parse(response: ModelResponse, options: Record<string, unknown>, ctx: JudgeParseContext): Judgement;
  /**
   * One bounded retry for a reply that did not parse (a strict parser's second chance): the request
   * to send instead, e.g. the first request plus the bad reply and a correction. The engine sends it
   * at most once per call, stores it under call id `<id>#retry`, and keeps its judgement.
   */
  retryRequest?(request: JudgeRequest, response: ModelResponse, judgement: Judgement, options: Record<string, unknown>): JudgeRequest | undefined;
  checkOptions?(options: Record<string, unknown>): void;
}

// ---------------------------------------------------------------- config dialects

export interface DialectLoadOptions {
  /** Only these task names (all when absent). */
  tasks?: string[];
  /** Only these languages (all when absent). */
  languages?: string[];
  /** A named suite of the dialect (SEA-HELM's task_config.yaml), when it has suites. */
  suite?: string;
  /**
   * Few-shot examples per prompt, in place of the config's own count. A task without an examples
   * source stays zero-shot (the dialect says so in `diagnostics`).
   */
  numFewshot?: number;
  /** The run's seed, for random choices a dialect makes while building prompts (UltraEval's few-shot draws). */
  seed?: number;
  /** The model reasons before it answers: a dialect may raise its generation limits (SEA-HELM adds `max_think_tokens`). */
  reasoning?: boolean;
  /**
   * A base (pretrained, not instruction-tuned) model: the dialect's base-model prompts, few-shot
   * defaults and stop strings (SEA-HELM: `chat_templates/base_model.jinja` rendered to one completion prompt).
   */
  baseModel?: boolean;
  /** Base models: the tokenizer's BOS text, put where the base-model template puts it (SEA-HELM: before the first message). */
  bosToken?: string;
  /**
   * Base models: "completion" (default) renders the base-model template here and sends one prompt;
   * "chat" sends the messages to a chat endpoint whose server applies that template itself.
   */
  baseModelEndpoint?: "chat" | "completion";
}

/**
 * A config dialect (SEA-HELM YAML, UltraEval JSON, ...): recognises its files and translates them
 * into `TaskSpec`s. Nothing past the dialect knows where a task came from.
 */
export interface ConfigDialectV1 {
  readonly specVersion: "v1";
  readonly id: string;
  /** Short description for `yardstick ls` and error messages. */
  readonly description?: string;
  /** Whether `path` (a file or folder) is in this dialect. Must not throw for paths of other dialects. */
  detect(path: string): boolean | Promise<boolean>;
  /** Translates the config file or folder at `path` into tasks; bad input throws a `ConfigError` naming file, line and key path. */
  load(path: string, options?: DialectLoadOptions): Promise<TaskSpec[]>;
}
