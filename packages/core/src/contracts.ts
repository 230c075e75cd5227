import type { ChatMessage, ModelRequest, ModelResponse } from "./messages.js";
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
  close?(): Promise<void>;
}

export interface ModelCallContext extends CallContext {
  /** The sample being evaluated, for providers that need it (the baselines read the label set). */
  sample?: Sample;
  task?: TaskSpec;
}

// ---------------------------------------------------------------- data

export interface DataloaderV1 {
  readonly specVersion: "v1";
  readonly id: string;
  /** Streams the samples of a task. `options` are the task's `data.options`. */
  load(options: Record<string, unknown>, ctx?: DataloaderContext): AsyncIterable<Sample>;
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
}

// ---------------------------------------------------------------- metrics

export interface MetricInput {
  sampleId: string;
  /** The postprocessed prediction (or list of candidates for pass@k / loglikelihood choices). */
  prediction: unknown;
  /** The gold answer(s). */
  reference: unknown;
  /** The raw response text before postprocessing. */
  rawResponse?: string;
  sample?: Sample;
  /** Set when the request failed and the response was replaced by "". */
  error?: string;
}

export interface SampleScore {
  sampleId: string;
  scores: Record<string, number>;
}

export interface MetricResult {
  /** Task-level values keyed by name, e.g. { accuracy: 81, macro_f1: 79.5 }. */
  scores: Record<string, number>;
  /** Per-sample values; their mean is not always the task score (e.g. macro F1, corpus BLEU). */
  perSample: SampleScore[];
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
  compute(inputs: readonly MetricInput[], options: Record<string, unknown>, ctx?: MetricContext): MetricResult | Promise<MetricResult>;
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
}

// ---------------------------------------------------------------- judges

export interface JudgeInput {
  sampleId: string;
  prompt: string;
  response: string;
  reference?: string;
  /** Second response for pairwise judging. */
  responseB?: string;
  criteria?: string[];
}

export interface Judgement {
  sampleId: string;
  /** Numeric score, or a verdict for pairwise judging. */
  score?: number;
  verdict?: "A" | "B" | "tie" | "error";
  rationale?: string;
  raw?: string;
}

export interface JudgeContext extends CallContext {
  model: ModelProviderV1;
}

export interface JudgeV1 {
  readonly specVersion: "v1";
  readonly id: string;
  judge(input: JudgeInput, options: Record<string, unknown>, ctx: JudgeContext): Promise<Judgement>;
}
