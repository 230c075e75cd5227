/**
 * Translates loaded SEA-HELM tasks into yardstick TaskSpecs: one per (task, language).
 */
import { ConfigError, type GenerationParams, type PluginRef, type TaskDiagnostic, type TaskProblem, type TaskSpec } from "@yardstick/core";
import * as path from "node:path";
import type { LoadedConfigs, LoadedTask } from "./load-seahelm.js";
import { answerTagExtraOptions, answerTagMode, metricIdForClass } from "./metric-mapping.js";
import { JUDGE_TASK_KEYS, judgeSpecFor } from "./seahelm-judge.js";
import { generatedDataRef } from "./generated-data.js";
import { dataRefFor, type FileCheckCache } from "./resolve-data-path.js";
import { SEAHELM_LEGACY_PROMPT_ID } from "./seahelm-legacy-prompt.js";
import { answerSeparatorFor } from "./seahelm-logprob-prompt.js";
import { conversationPromptRef, snapshotDataRef } from "./snapshot-data.js";
import {
  isLegacyPromptTemplate,
  type SeaHelmConstants,
  type SeaHelmLanguageConfig,
  type SeaHelmPromptTemplate,
  type SeaHelmTask,
} from "./seahelm-schema.js";

/** The dialect id in `TaskSpec.source.dialect` and the registry. */
export const SEAHELM_DIALECT_ID = "seahelm";

export interface ToTaskSpecsOptions {
  /** Only these languages (default: all the task defines). */
  languages?: string[];
  /** Only these task keys or aggregation groups (a group selects all its member tasks). */
  tasks?: string[];
  /** "base" uses the base few-shot count, the completions endpoint and a single-string prompt. Default "instruct". */
  modelKind?: "instruct" | "base";
  /** Values of `constants.yaml` (few-shot defaults, stop tokens, skip lists). */
  constants?: SeaHelmConstants;
  /** Few-shot count for every task in place of its config's (`--num-fewshot`). */
  numFewshot?: number;
  /** Reasoning models: added to every `max_tokens` (`max_think_tokens` of reasoning_generation_config.yaml). */
  thinkTokens?: number;
  /** The `seed` sent with every request, as upstream's `--seed` (default 1234). */
  seed?: number;
  /** Base models: the tokenizer's BOS text, where the base-model chat template puts it. */
  bosToken?: string;
  /** Base models: the Jinja text of `chat_templates/base_model.jinja` (default: yardstick's equivalent). */
  chatTemplate?: string;
  /** Base models: "completion" (default) renders the template here; "chat" sends the messages for the server to render. */
  baseModelEndpoint?: "chat" | "completion";
  /**
   * Logprob tasks: generate up to the answer tag before scoring the gold label (upstream's first pass;
   * default true). false writes the tag straight after the prompt: one echo request per row. A task's
   * `yardstick.logprobFirstPass` wins over this.
   */
  logprobFirstPass?: boolean;
}

/** Upstream's `--seed` default, sent with every generation request. */
export const SEAHELM_DEFAULT_SEED = 1234;

/** Keys turned into TaskSpec fields; everything else at task level is kept in `extra`. */
const CONSUMED_KEYS = new Set([
  "name",
  "competency",
  "aggregation_group",
  "metric",
  "metric_class",
  "dataloader_class",
  "languages",
  "fewshot_num_examples",
  "use_logprobs",
  "temperature",
  "yardstick",
]);

/** Task-level metric switches → the option names of the yardstick SEA-HELM metrics. */
const METRIC_SWITCHES: Record<string, string> = {
  use_metricx_metric: "useMetricx",
  use_chrf_metric: "useChrf",
  use_rougeL_metric: "useRougeL",
  null_label: "nullLabel",
};

export function toTaskSpecs(loaded: LoadedConfigs, options: ToTaskSpecsOptions = {}): TaskSpec[] {
  const modelKind = options.modelKind ?? "instruct";
  const selected = selectTasks(loaded, options.tasks);
  const skip = new Set(
    (modelKind === "base" ? options.constants?.base_models_skip_tasks : options.constants?.instruct_models_skip_tasks) ?? [],
  );
  const specs: TaskSpec[] = [];
  const files: FileCheckCache = new Map();
  for (const task of selected) {
    if (skip.has(task.key)) continue;
    for (const [language, langConfig] of Object.entries(task.config.languages)) {
      if (options.languages && !options.languages.includes(language)) continue;
      specs.push(buildSpec(task, language, langConfig, { ...options, modelKind }, files));
    }
  }
  return specs;
}

function selectTasks(loaded: LoadedConfigs, wanted: string[] | undefined): LoadedTask[] {
  const all = [...loaded.tasks.values()];
  if (!wanted) return all;
  const out: LoadedTask[] = [];
  for (const name of wanted) {
    const direct = loaded.tasks.get(name);
    const members = direct ? [direct] : all.filter((t) => t.config.aggregation_group === name);
    if (members.length === 0) {
      throw new ConfigError(`unknown task or aggregation group "${name}"`, {
        expected: `one of ${[...loaded.tasks.keys()].slice(0, 20).join(", ")}${loaded.tasks.size > 20 ? ", ..." : ""}`,
      });
    }
    for (const t of members) if (!out.includes(t)) out.push(t);
  }
  return out;
}

function fewshotFor(
  task: LoadedTask,
  modelKind: "instruct" | "base",
  constants: SeaHelmConstants | undefined,
  diagnostics: TaskDiagnostic[],
): number {
  const given = task.config.fewshot_num_examples;
  if (!given) {
    return modelKind === "base" ? (constants?.base_num_in_context_examples ?? 5) : (constants?.instruct_num_in_context_examples ?? 0);
  }
  if (modelKind === "instruct") return given.instruct;
  if (given.base === null || given.base === undefined) {
    // Upstream compares None > 0 and crashes; we run the task zero-shot instead.
    diagnostics.push({
      level: "warning",
      message: "fewshot_num_examples.base is null (upstream fails for base models); using 0",
      keyPath: [task.key, "fewshot_num_examples", "base"],
    });
    return 0;
  }
  return given.base;
}

/**
 * Why a task cannot run here. Messages read after "task <key> " (the runner prefixes that), so
 * they also read well on their own in `yardstick ls`.
 */
function unsupportedProblems(legacyLogprobs: boolean, missingFiles: { role: string; filepath: string; configFile: string }[]): TaskProblem[] {
  const problems: TaskProblem[] = [];
  if (legacyLogprobs) {
    problems.push({
      code: "logprobs",
      message: "scores the log-probability of the gold label with the earlier prompt_template shape (template), which yardstick scores only with preamble/task_template",
    });
  }
  for (const m of missingFiles) {
    problems.push({
      code: "data-missing",
      message: `reads the local ${m.role} file ${m.filepath}, which is not there (looked in ${path.dirname(m.configFile)} and each folder above it)`,
    });
  }
  return problems;
}

function buildSpec(
  task: LoadedTask,
  language: string,
  lang: SeaHelmLanguageConfig,
  settings: ToTaskSpecsOptions & { modelKind: "instruct" | "base" },
  files: FileCheckCache,
): TaskSpec {
  const { modelKind, constants } = settings;
  const config = task.config;
  const diagnostics: TaskDiagnostic[] = [];
  const template = lang.prompt_template;
  const tag = template.answer_tag ?? null;
  const langPath = [task.key, "languages", language];

  const localOptions = labelFieldOptions(config.dataloader_class);
  const missingFiles: { role: string; filepath: string; configFile: string }[] = [];
  let data: PluginRef;
  const snapshot = lang.filepath === null ? undefined : snapshotDataRef(config.dataloader_class, lang.filepath, task.key);
  if (lang.filepath === null) {
    // Generated on the fly, as upstream (NIAH/CWE), from resource files in the task's folder.
    const generated = generatedDataRef(config.dataloader_class, syntheticParams(config), language, template, task.file, files);
    data = generated?.ref ?? { id: `seahelm:${config.dataloader_class ?? "generated"}`, options: { language, ...syntheticParams(config) } };
    for (const m of generated?.missing ?? []) missingFiles.push({ ...m, configFile: task.file });
  } else if (snapshot) {
    data = snapshot;
  } else {
    const r = dataRefFor(lang.filepath, task.file, language, "eval", localOptions, files);
    data = visionDataRef(r.ref, config.dataloader_class, task.key);
    if (r.missing) missingFiles.push({ role: "data", filepath: lang.filepath, configFile: task.file });
  }
  let examples: PluginRef | undefined;
  let examplesMissing = false;
  if (lang.example_filepath) {
    const r = dataRefFor(lang.example_filepath, task.file, language, "examples", localOptions, files);
    examples = r.ref;
    examplesMissing = r.missing === true;
  }

  let fewshot = settings.numFewshot ?? fewshotFor(task, modelKind, constants, diagnostics);
  if (fewshot > 0 && !examples) {
    // Upstream logs a warning and falls back to zero-shot when there is no example file.
    diagnostics.push({ level: "warning", message: `no example_filepath: running 0-shot instead of ${fewshot}-shot`, keyPath: langPath });
    fewshot = 0;
  }
  // The examples file only matters when examples are put in front of the prompts.
  if (fewshot > 0 && examplesMissing && lang.example_filepath) {
    missingFiles.push({ role: "examples", filepath: lang.example_filepath, configFile: task.file });
  }

  const metricClass = config.metric_class;
  const metricOptions: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(METRIC_SWITCHES)) if (config[key] !== undefined) metricOptions[option] = config[key];
  // A judged metric class: the judge stage judges the answers, and the metric scores the judgements.
  const judge = judgeSpecFor(config, diagnostics, [task.key]);
  let metrics: PluginRef[] = [{ id: metricIdForClass(metricClass, config.metric_file), options: metricOptions }];
  const mode = answerTagMode(metricClass, tag);
  let postprocessors: PluginRef[] = [
    { id: "seahelm-answer-tag", options: { tag: tag ?? "", mode, ...(mode === "none" ? {} : answerTagExtraOptions(metricClass)) } },
  ];
  let mainScore = config.metric;
  let labels: string[] | undefined;

  const ext = config.yardstick;
  if (ext) {
    if (ext.metrics) metrics = ext.metrics;
    if (ext.postprocessors) postprocessors = ext.postprocessors;
    if (ext.mainScore) mainScore = ext.mainScore;
    if (ext.labels) labels = ext.labels;
  }

  // Only what a plugin may read: the upstream keys yardstick does not translate (non-LLM judge blocks,
  // metric switches, metadata) and the upstream class names. The engine and runner read typed fields.
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) if (!CONSUMED_KEYS.has(k)) extra[k] = v;
  // The judge settings live in `judge`; a MetricX / OpenCLIP block (no LLM judge) stays in `extra`.
  if (judge) for (const k of JUDGE_TASK_KEYS) delete extra[k];
  extra.displayName = config.name;
  extra.metricClass = metricClass;
  if (config.dataloader_class !== undefined) extra.dataloaderClass = config.dataloader_class;

  const base = modelKind === "base";
  // A base model behind a chat endpoint gets the messages; its server renders the base-model template.
  const renderHere = base && settings.baseModelEndpoint !== "chat";
  const baseOptions = renderHere ? baseModelOptions(settings) : {};
  // Logprob twins: an echo request per row scores the gold label after the answer tag (seahelm-logprob-prompt.ts).
  const logprobs = config.use_logprobs === true && !isLegacyPromptTemplate(template);
  // Upstream's first pass: the model writes up to the answer tag, and the label is scored after its text.
  const firstPass = logprobs && (ext?.logprobFirstPass ?? settings.logprobFirstPass ?? true);
  const maxTokens = lang.max_tokens + (settings.thinkTokens ?? 0);
  const spec: TaskSpec = {
    key: `${task.key}/${language}`,
    name: task.key,
    language,
    competency: config.competency,
    source: { file: task.file, dialect: SEAHELM_DIALECT_ID, promptKeyPath: [task.key, "languages", language, "prompt_template"] },
    data,
    fewshot,
    prompt: logprobs
      ? promptRef(template, { ...baseModelOptions(settings), answerSeparator: answerSeparatorFor(template), ...(firstPass ? { logprobFirstPass: true } : {}) })
      : (conversationPromptRef(config.dataloader_class, baseOptions) ?? promptRef(template, baseOptions)),
    mode: logprobs ? "loglikelihood" : "generate",
    endpoint: renderHere || logprobs ? "completion" : "chat",
    generation: logprobs ? logprobGeneration(settings, config, maxTokens, firstPass ? tag : undefined) : {
      // Upstream sends its seed with every request (part of the task, so it keys the cache).
      seed: settings.seed ?? SEAHELM_DEFAULT_SEED,
      maxTokens,
      ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
      ...(base ? { stop: constants?.few_shot_stop_tokens ?? ["\n\n"] } : {}),
      // Upstream's base-model strategy: first up to the answer tag, then the answer (a null tag: one pass).
      ...(base && tag ? { stopAtFirst: tag } : {}),
    },
    // A loglikelihood answer is a number: there is no text to cut the answer out of.
    postprocessors: logprobs ? [] : postprocessors,
    metrics,
    mainScore,
    errorResponses: ext?.errorResponses ?? "replace",
    extra,
  };
  if (config.aggregation_group !== undefined) spec.aggregationGroup = config.aggregation_group;
  if (examples) spec.examples = examples;
  const match = EXAMPLES_MATCH[config.dataloader_class ?? ""];
  if (match && fewshot > 0) spec.examplesMatch = [...match];
  if (labels) spec.labels = labels;
  if (judge) spec.judge = judge;
  // MT-Bench style tasks have two user turns; others take the count from the rows' `prompts`.
  if (config.competency === "multi-turn") spec.turns = 2;
  const unsupported = unsupportedProblems(config.use_logprobs === true && !logprobs, missingFiles);
  if (unsupported.length > 0) spec.unsupported = unsupported;
  if (ext?.plugins && ext.plugins.length > 0) spec.plugins = [...ext.plugins];
  if (diagnostics.length > 0) spec.diagnostics = diagnostics;
  return spec;
}

/**
 * A logprob task's generation params. With the first pass: the task's own sampling (max_tokens plus
 * the think budget, temperature, seed), stopping at the answer tag (`stopAtFirst`), as upstream's
 * LogprobsInferenceStrategy copies the task's generation kwargs and sets `stop` to the tag — the
 * base-model few-shot stop strings do not apply there. Without it only the seed (an echo request samples nothing).
 */
function logprobGeneration(settings: ToTaskSpecsOptions, config: SeaHelmTask, maxTokens: number, tag: string | null | undefined): GenerationParams {
  const seed = settings.seed ?? SEAHELM_DEFAULT_SEED;
  if (tag === undefined || tag === null || tag === "") return { seed };
  return { seed, maxTokens, ...(config.temperature !== undefined ? { temperature: config.temperature } : {}), stopAtFirst: tag };
}

/** The prompt options that make a builder render a base model's completion prompt. */
function baseModelOptions(settings: ToTaskSpecsOptions): Record<string, unknown> {
  return {
    baseModel: true,
    ...(settings.bosToken !== undefined ? { bosToken: settings.bosToken } : {}),
    ...(settings.chatTemplate !== undefined ? { chatTemplate: settings.chatTemplate } : {}),
  };
}

/** Both prompt_template shapes become one TaskSpec; only the prompt builder differs. */
function promptRef(template: SeaHelmPromptTemplate, baseModel: Record<string, unknown>): PluginRef {
  if (isLegacyPromptTemplate(template)) {
    return {
      id: SEAHELM_LEGACY_PROMPT_ID,
      options: {
        template: template.template,
        ...(template.fewshot_example !== undefined ? { fewshotExample: template.fewshot_example } : {}),
        ...(template.fewshot_label !== undefined ? { fewshotLabel: template.fewshot_label } : {}),
        answerTag: template.answer_tag ?? null,
        ...baseModel,
      },
    };
  }
  return {
    id: "seahelm-chat",
    options: {
      preamble: template.preamble,
      taskTemplate: template.task_template,
      answerTemplate: template.answer_template,
      answerTag: template.answer_tag,
      ...baseModel,
    },
  };
}

/** SEA-HELM dataloaders that choose each row's few-shot examples by a field of the row. */
const EXAMPLES_MATCH: Record<string, readonly string[]> = {
  // global_mmlu_lite: examples of the question's own subject.
  GlobalMMLULiteDataloader: ["metadata.subject"],
};

/**
 * SEA-HELM vision dataloaders that read a Hub dataset's default config and their own split, and
 * reshape its rows (`rowFormat` of the `huggingface` dataloader): MathVision's mini task reads
 * `testmini`, the full one `test`; BabyVision reads `train`.
 */
const HF_VISION_DATA: Record<string, (taskKey: string) => Record<string, unknown>> = {
  MathVisionDataloader: (key) => ({ split: key.replace(/^mathvision_/, "") === "mini" ? "testmini" : "test", rowFormat: "mathvision" }),
  BabyVisionDataloader: () => ({ split: "train", rowFormat: "babyvision" }),
  // google/IFEval: one "train" split in the default config, rows reshaped as upstream's map_columns.
  IFEvalDataloader: () => ({ split: "train", rowFormat: "ifeval" }),
};

function visionDataRef(ref: PluginRef, dataloaderClass: string | undefined, taskKey: string): PluginRef {
  const vision = HF_VISION_DATA[dataloaderClass ?? ""];
  if (!vision || ref.id !== "huggingface") return ref;
  const { name: _language, ...rest } = ref.options ?? {};
  return { id: "huggingface", options: { ...rest, ...vision(taskKey) } };
}

/** Safeguard dataloaders rename `prompt_label` / `response_label` to `label`. */
function labelFieldOptions(dataloaderClass: string | undefined): Record<string, unknown> {
  if (!dataloaderClass) return {};
  if (/PromptDataLoader$/i.test(dataloaderClass)) return { labelField: "prompt_label" };
  if (/ResponseDataLoader$/i.test(dataloaderClass)) return { labelField: "response_label" };
  return {};
}

const SYNTHETIC_KEYS = [
  "context_size",
  "random_seed",
  "num_samples",
  "min_num_keys",
  "num_queries",
  "num_values",
  "num_common_words",
  "num_repeats_common_words",
  "num_repeats_uncommon_words",
];

function syntheticParams(config: SeaHelmTask): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of SYNTHETIC_KEYS) if (config[k] !== undefined) out[k] = config[k];
  return out;
}
