import type { GenerationParams } from "./messages.js";

/** A reference to a plugin by id, with options that the plugin checks with its own schema. */
export interface PluginRef {
  id: string;
  options?: Record<string, unknown>;
}

/**
 * One evaluation task for one language, in the single normalised shape every config dialect
 * (SEA-HELM YAML, UltraEval JSON, generated spatial configs) is translated into. It is plain data:
 * it is written into `run.json` and hashed into the run fingerprint.
 */
export interface TaskSpec {
  /** Unique key in a run, e.g. "sentiment/id" or "gsm8k". */
  key: string;
  /** Task name as the config spells it (e.g. "sentiment"). */
  name: string;
  /** Language code; "" when a task has none. */
  language: string;
  /** Competency (SEA-HELM) or dataset group; "" when not given. */
  competency: string;
  /** Tasks sharing a group are macro-averaged before the competency level. */
  aggregationGroup?: string;
  /** The file the task came from, for messages. */
  source?: {
    file: string;
    dialect: string;
    /** Where the task's prompt is defined inside the file (key path), for messages about its prompts. */
    promptKeyPath?: (string | number)[];
  };
  /** Dataloader for the evaluated rows, and for few-shot examples. */
  data: PluginRef;
  examples?: PluginRef;
  /** Number of few-shot examples to put in front of each prompt. */
  fewshot: number;
  /**
   * Take a sample's few-shot examples only from example rows that agree with it on these fields
   * (dotted paths into the row, e.g. "metadata.subject"): the first `fewshot` such rows in file
   * order. Absent: the first `fewshot` rows for every sample.
   */
  examplesMatch?: string[];
  /** Prompt builder and its options (templates, tags). */
  prompt: PluginRef;
  /** "generate" sends a chat/completion request; "loglikelihood" scores continuations. */
  mode: "generate" | "loglikelihood";
  /** Whether the generate request goes to the chat or the completions endpoint. */
  endpoint: "chat" | "completion";
  generation: GenerationParams;
  /** Number of user turns per sample (multi-turn tasks have more than one). */
  turns?: number;
  /** Applied in order to the last turn's response text. */
  postprocessors: PluginRef[];
  metrics: PluginRef[];
  /**
   * A judge stage after answering: the judge plugin and its options (prompts, classifications, the
   * baseline). The judge model is given by role when the run starts (`--judge-model`).
   */
  judge?: JudgeSpec;
  /** The metric output key that represents the task in aggregation, e.g. "normalized_accuracy". */
  mainScore: string;
  /** What to do with a failed request before scoring: score it as "" (SEA-HELM) or drop the sample. */
  errorResponses: "replace" | "drop";
  /** The label set for classification tasks (also used by the baseline models). */
  labels?: string[];
  /**
   * Content fingerprint of the data this task reads (local files: sha256 of the bytes; Hugging Face:
   * the dataset revision), filled in by the runner from `DataloaderV1.fingerprint` before a run.
   */
  dataDigest?: string;
  /** Why this task cannot run here (vLLM-only path, missing data file, ...); empty or absent when it can. */
  unsupported?: TaskProblem[];
  /** npm packages of plugins the task needs (loaded by the runner before the run). */
  plugins?: string[];
  /** Things the dialect noticed while translating the config (defaults applied, keys ignored). */
  diagnostics?: TaskDiagnostic[];
  /** Anything dialect-specific a plugin may need, kept as data. Nothing in the engine or runner reads it. */
  extra?: Record<string, unknown>;
}

/** A task's judge: a `JudgeV2` plugin, its options, and the judge model's generation parameters. */
export interface JudgeSpec extends PluginRef {
  /** Sampling parameters of the judge's requests (SEA-HELM's `judge_generation_kwargs`). */
  generation?: GenerationParams;
  /** The judge model the config names (`judge_model_name`): the default when no `--judge-model` is given. */
  model?: string;
}

/** A reason a task cannot run here; `code` groups reasons in listings (e.g. "logprobs", "data-missing"). */
export interface TaskProblem {
  code: string;
  message: string;
}

export interface TaskDiagnostic {
  level: "info" | "warning";
  message: string;
  /** Key path inside the config file, when the diagnostic is about one key. */
  keyPath?: (string | number)[];
}
