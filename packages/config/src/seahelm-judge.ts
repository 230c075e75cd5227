/**
 * SEA-HELM's judged metric classes → the yardstick judge (a `JudgeV2` plugin of @yardstick/judges)
 * and the metric that turns its judgements into the task score, and the `JudgeSpec` a task's
 * `judge:` block becomes.
 *
 * MetricX (translation) and OpenCLIP (xm3600) are `judge:` blocks too, but they name neural scoring
 * models, not LLM judges: they are left out here and keep their own metric mapping.
 */
import type { GenerationParams, JudgeSpec, TaskDiagnostic } from "@yardstick/core";
import { generationParamsFromKwargs } from "./generation-kwargs.js";
import type { SeaHelmTask } from "./seahelm-schema.js";

/** How a judge reads `judge_prompts`: decides which template keys and options `validate` expects. */
export type JudgePromptShape = "pairwise" | "criteria" | "mt-bench" | "healthbench" | "verdict" | "verdict-babyvision";

export interface JudgedMetric {
  judge: string;
  metric: string;
  shape: JudgePromptShape;
}

const JUDGED_METRICS: Record<string, JudgedMetric> = {
  PairwiseLLMJudgeMetric: { judge: "seahelm-pairwise", metric: "seahelm-pairwise-judge", shape: "pairwise" },
  CriteriaJudgeMetric: { judge: "seahelm-criteria", metric: "seahelm-criteria-judge", shape: "criteria" },
  LindseaJudgeMetric: { judge: "seahelm-criteria", metric: "seahelm-lindsea-judge", shape: "criteria" },
  MTBenchJudgeMetric: { judge: "seahelm-criteria", metric: "seahelm-mt-bench-judge", shape: "mt-bench" },
  HealthbenchJudgeMetric: { judge: "seahelm-healthbench", metric: "seahelm-healthbench-judge", shape: "healthbench" },
  AALCRJudgeMetric: { judge: "seahelm-verdict", metric: "seahelm-aa-lcr-judge", shape: "verdict" },
  MathVisionJudgeMetric: { judge: "seahelm-verdict", metric: "seahelm-mathvision-judge", shape: "verdict" },
  BabyVisionJudgeMetric: { judge: "seahelm-verdict", metric: "seahelm-babyvision-judge", shape: "verdict-babyvision" },
};

/** The judge and metric of a judged metric class; undefined for every other class. */
export function judgedMetricFor(metricClass: string): JudgedMetric | undefined {
  return Object.hasOwn(JUDGED_METRICS, metricClass) ? JUDGED_METRICS[metricClass] : undefined;
}

/** `judge` keys that configure the judge model rather than the judge: they go to `JudgeSpec.model` / `.generation`. */
const MODEL_KEYS = new Set(["judge_model_name", "judge_model_type", "judge_init_args", "judge_generation_kwargs"]);

/** Task-level keys that only the pairwise judge reads (spec §3); passed on with the judge options. */
const PAIRWISE_TASK_KEYS = ["judgement_labels", "ties_allowed", "categories_with_reference"] as const;

/** Task-level keys a `JudgeSpec` takes over, so `TaskSpec.extra` does not carry them twice. */
export const JUDGE_TASK_KEYS = ["judge", "baseline_model", "use_judges", "judge_file", "judge_class", ...PAIRWISE_TASK_KEYS] as const;

/**
 * The judge of a task with a judged metric class: the `judge:` block without its model keys, plus the
 * task's `baseline_model` (and the pairwise keys) and `metric_class`; the judge model's name and
 * generation kwargs. Undefined when the metric class is not judged by an LLM.
 */
export function judgeSpecFor(config: SeaHelmTask, diagnostics: TaskDiagnostic[], keyPath: (string | number)[]): JudgeSpec | undefined {
  const judged = judgedMetricFor(config.metric_class);
  if (!judged) return undefined;
  const block = (config.judge ?? {}) as Record<string, unknown>;
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(block)) if (!MODEL_KEYS.has(k)) options[k] = v;
  if (config.baseline_model !== undefined) options.baseline_model = config.baseline_model;
  for (const k of PAIRWISE_TASK_KEYS) if (config[k] !== undefined) options[k] = config[k];
  options.metric_class = config.metric_class;

  const spec: JudgeSpec = { id: judged.judge, options };
  const model = judgeModelName(config.judge?.judge_model_name, diagnostics, [...keyPath, "judge", "judge_model_name"]);
  if (model !== undefined) spec.model = model;
  const kwargs = config.judge?.judge_generation_kwargs;
  if (kwargs) spec.generation = seaHelmGenerationParams(kwargs);
  return spec;
}

/** `judge_model_name` may be a list (one judge per entry upstream); yardstick runs one judge: the first. */
function judgeModelName(
  value: string | string[] | undefined,
  diagnostics: TaskDiagnostic[],
  keyPath: (string | number)[],
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (value.length > 1) {
    diagnostics.push({ level: "warning", message: `judge_model_name lists ${value.length} judges; yardstick uses the first, ${value[0]}`, keyPath });
  }
  return value[0];
}

/**
 * SEA-HELM generation kwargs (snake_case, as vLLM and the OpenAI client take them) → `GenerationParams`.
 * Keys without a typed field (e.g. `reasoning_effort`) are sent as they are through `extraBody`.
 */
export function seaHelmGenerationParams(kwargs: Record<string, unknown>): GenerationParams {
  return generationParamsFromKwargs(kwargs);
}
