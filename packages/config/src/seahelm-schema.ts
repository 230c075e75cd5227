/**
 * zod schema of one SEA-HELM task after interpolation, following the key inventory of the upstream
 * configs. Unknown keys are kept (loose objects) because real files carry stray keys (`changes`,
 * `judge_file`, `metricx_batch_size`, ...).
 */
import { z } from "zod";

const pluginRef = z.strictObject({
  id: z.string().min(1),
  options: z.record(z.string(), z.unknown()).optional(),
});

/** yardstick's own extension: metric/postprocessor ids for tasks that have no SEA-HELM metric class. */
export const yardstickExtensionSchema = z.strictObject({
  metrics: z.array(pluginRef).min(1).optional(),
  postprocessors: z.array(pluginRef).optional(),
  mainScore: z.string().min(1).optional(),
  labels: z.array(z.string()).optional(),
  /** Failed requests: scored as "" (SEA-HELM's `replace_error_responses`, the default) or dropped. */
  errorResponses: z.enum(["replace", "drop"]).optional(),
  /** Plugin packages (npm names) that provide the ids above, loaded by the runner with `import()`. */
  plugins: z.array(z.string().min(1)).optional(),
  /**
   * Logprob tasks (`use_logprobs`): false writes the answer tag straight after the prompt instead of
   * letting the model generate up to it first (upstream's first pass, the default).
   */
  logprobFirstPass: z.boolean().optional(),
});

export const promptTemplateSchema = z.looseObject({
  preamble: z.string().describe("Text before the first task_template of a conversation; may use {answer_tag}."),
  task_template: z.string().describe("Python str.format template filled from each row's prompts entry, e.g. {text}."),
  answer_template: z.string().nullable().describe("The expected answer of a few-shot example, e.g. \"{answer_tag} {label}\"."),
  answer_tag: z.string().nullable().describe("The tag the answer follows, e.g. \"Jawaban:\"; null when answers are not tagged."),
});

/**
 * The earlier `prompt_template` shape of SEA-HELM's new-task guide: one `template` holding the whole
 * user turn (with a `{fewshot_examples}` placeholder for the examples block), and the templates of one
 * example and its label. Rendered by the `seahelm-legacy` prompt builder.
 */
export const legacyPromptTemplateSchema = z.looseObject({
  template: z.string().describe("The whole user turn, filled from each row's prompts entry plus {fewshot_examples}."),
  fewshot_example: z.string().optional().describe("One few-shot example, filled from the example row's prompts entry."),
  fewshot_label: z.string().optional().describe("The answer of one few-shot example, filled from the example row (e.g. {label})."),
  answer_tag: z.string().nullable().optional().describe("The tag the answer follows, for answer extraction; null or absent when untagged."),
});

/** A language's prompt_template in either shape; the current one is tried first (and named in errors on a tie). */
export const anyPromptTemplateSchema = z.union([promptTemplateSchema, legacyPromptTemplateSchema]);

export function isLegacyPromptTemplate(t: SeaHelmPromptTemplate): t is z.output<typeof legacyPromptTemplateSchema> {
  return typeof (t as { template?: unknown }).template === "string" && typeof (t as { task_template?: unknown }).task_template !== "string";
}

export const languageConfigSchema = z.looseObject({
  filepath: z.string().nullable().describe("Test data: a local JSONL path (relative to the SEA-HELM repo root) or a Hugging Face dataset id; null for generated data."),
  example_filepath: z.string().nullable().optional().describe("Few-shot examples: a local JSONL path or a Hugging Face dataset id."),
  max_tokens: z.int().positive().describe("Maximum number of generated tokens."),
  prompt_template: anyPromptTemplateSchema,
});

const stringOrList = z.union([z.string(), z.array(z.string())]);

/** The judge model's sampling parameters; the typed ones become `JudgeSpec.generation` fields, others go to the request body. */
const judgeGenerationKwargsSchema = z.looseObject({
  max_tokens: z.int().positive().optional(),
  temperature: z.number().nonnegative().optional(),
  top_p: z.number().min(0).max(1).optional(),
  seed: z.int().optional(),
  n: z.int().positive().optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
});

export const judgeSchema = z.looseObject({
  judge_model_name: stringOrList.optional().describe("The judge model; the default judge when a run gives no --judge-model."),
  judge_model_type: stringOrList.optional().describe("How upstream serves the judge (vllm, openai, ...); metricx and openclip are not LLM judges."),
  judge_init_args: z.record(z.string(), z.unknown()).optional(),
  judge_generation_kwargs: judgeGenerationKwargsSchema.optional().describe("Sampling parameters of the judge's requests, e.g. max_tokens, temperature, reasoning_effort."),
  classifications: z.record(z.string(), z.number()).optional().describe("Criteria judges: class label → score, e.g. CLASS_MET: 1."),
  judge_prompts: z.union([z.string(), z.record(z.string(), z.unknown())]).optional().describe("The judge's prompts, in the shape its metric_class reads."),
});

/** `use_logprobs` is a bool in most files and the string "true" in 15; both mean the same. */
const boolish = z.union([z.boolean(), z.enum(["true", "false", "True", "False"]).transform((s) => s.toLowerCase() === "true")]);

const optionalCount = z.int().nonnegative().nullable().optional();

export const seaHelmTaskSchema = z.looseObject({
  metadata: z.looseObject({
    version: z.number(),
    changes: z.union([z.record(z.string(), z.unknown()), z.string()]).nullable().optional(),
  }),
  name: z.string().describe("Display name of the task."),
  competency: z.string().describe("Competency the task is aggregated under, e.g. nlu, nlg, safety."),
  aggregation_group: z.string().optional().describe("Tasks of one group are averaged together before the competency; a suite may name the group."),
  dataloader_file: z.string().optional(),
  dataloader_class: z.string().optional(),
  metric_file: z.string(),
  metric_class: z.string().describe("SEA-HELM metric class, e.g. F1AccMetric; yardstick maps it to its own metric."),
  metric: z.string().describe("The metric output that represents the task in aggregation, e.g. normalized_accuracy."),
  fewshot_num_examples: z
    .looseObject({
      instruct: z.int().nonnegative(),
      base: z.int().nonnegative().nullable().optional(),
    })
    .optional(),
  temperature: z.number().nonnegative().optional().describe("Sampling temperature sent with every request of the task (the earlier config shape)."),
  use_logprobs: boolish.optional().describe("Score the log-probability of the gold label instead of generating."),
  max_n_runs: z.int().positive().optional().describe("Runs after this many are skipped for the task."),
  task_modality: z.string().optional(),
  use_judges: z.boolean().optional(),
  judge: judgeSchema.optional(),
  judgement_labels: z.record(z.string(), z.string()).optional(),
  ties_allowed: z.boolean().optional(),
  baseline_model: z.string().optional(),
  categories_with_reference: z.array(z.string()).optional(),
  use_metricx_metric: z.boolean().optional(),
  use_chrf_metric: z.boolean().optional(),
  use_rougeL_metric: z.boolean().optional(),
  context_size: optionalCount,
  random_seed: z.int().optional(),
  num_samples: optionalCount,
  min_num_keys: optionalCount,
  num_queries: optionalCount,
  num_values: optionalCount,
  num_common_words: optionalCount,
  num_repeats_common_words: optionalCount,
  num_repeats_uncommon_words: optionalCount,
  yardstick: yardstickExtensionSchema.optional(),
  languages: z
    .record(z.string(), languageConfigSchema)
    .refine((langs) => Object.keys(langs).length > 0, { message: "at least one language is required" }),
});

export type SeaHelmTask = z.output<typeof seaHelmTaskSchema>;
export type SeaHelmLanguageConfig = z.output<typeof languageConfigSchema>;
export type SeaHelmPromptTemplate = z.output<typeof anyPromptTemplateSchema>;
export type LegacyPromptTemplate = z.output<typeof legacyPromptTemplateSchema>;
export type YardstickExtension = z.output<typeof yardstickExtensionSchema>;

/** JSON Schema (draft 2020-12) of a task as written in a file (input side, before the `use_logprobs` transform). */
export function seaHelmTaskJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(seaHelmTaskSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}

/** `constants.yaml`: few-shot defaults and stop tokens. */
export const seaHelmConstantsSchema = z.looseObject({
  few_shot_stop_tokens: z.array(z.string()).optional(),
  base_models_skip_tasks: z.array(z.string()).optional(),
  instruct_models_skip_tasks: z.array(z.string()).optional(),
  instruct_num_in_context_examples: z.int().nonnegative().optional(),
  base_num_in_context_examples: z.int().nonnegative().optional(),
});

export type SeaHelmConstants = z.output<typeof seaHelmConstantsSchema>;

/** `reasoning_generation_config.yaml`: what reasoning models get (only `max_think_tokens` is used, as upstream). */
export const reasoningConfigSchema = z.looseObject({
  reasoning_generation_kwargs: z.looseObject({
    end_think_token: z.string().optional(),
    max_think_tokens: z.int().nonnegative(),
  }),
});

export type ReasoningConfig = z.output<typeof reasoningConfigSchema>;

/** `task_config.yaml`: suite → language → task list or "all". */
export const taskSuitesSchema = z.record(z.string(), z.record(z.string(), z.union([z.array(z.string()), z.literal("all")])));
