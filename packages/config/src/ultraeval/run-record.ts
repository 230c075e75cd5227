/**
 * What UltraEval writes beside a task's results, rebuilt from the `TaskSpec` this dialect made: the
 * per-task run record (`<task>/config.json`: the config's eight keys, `generate.args`, `batch_size`,
 * the model- and task-level postprocess and `log_dir`) and the facts an output writer needs (the
 * raw task name, the dataset, how ppl options are scored). Only the config package knows the
 * dialect's shape; writers ask here.
 */
import * as path from "node:path";
import type { GenerationParams, PluginRef, TaskSpec } from "@yardstick/core";
import { ULTRAEVAL_DIALECT_ID } from "./task-specs.js";

export interface UltraEvalTaskFacts {
  /** The renamed task name upstream keys its outputs by (`<dataset>_<task>_<gen|ppl>`). */
  name: string;
  /** The dataset: `task_name.split("_")[0]` in upstream's summary. */
  dataset: string;
  method: "generate" | "loglikelihood";
  /** Loglikelihood tasks: `general_torch_ppl` (summed NLL) or `general_torch_ppl_norm` (per-token NLL). */
  pplScoring?: "general_torch_ppl" | "general_torch_ppl_norm";
}

interface UltraEvalExtra {
  root?: string;
  taskName?: string;
  dataset?: string;
  transform?: string;
  postprocess?: string;
  params?: string;
  pplScoring?: string;
}

function extraOf(task: TaskSpec): UltraEvalExtra | undefined {
  const extra = (task.extra as { ultraeval?: UltraEvalExtra } | undefined)?.ultraeval;
  return typeof extra === "object" && extra !== null ? extra : undefined;
}

/** True when the task came from an UltraEval config. */
export function isUltraEvalTask(task: TaskSpec): boolean {
  return task.source?.dialect === ULTRAEVAL_DIALECT_ID && extraOf(task) !== undefined;
}

export function ultraEvalTaskFacts(task: TaskSpec): UltraEvalTaskFacts | undefined {
  const extra = extraOf(task);
  if (!isUltraEvalTask(task) || !extra) return undefined;
  const facts: UltraEvalTaskFacts = { name: task.name, dataset: task.name.split("_")[0]!, method: task.mode };
  if (task.mode === "loglikelihood") facts.pplScoring = extra.pplScoring === "general_torch_ppl_norm" ? "general_torch_ppl_norm" : "general_torch_ppl";
  return facts;
}

/** A path under the UltraEval root as the config wrote it (relative to the root); others as they are. */
function asUpstreamPath(p: string, root: string | undefined): string {
  if (root === undefined) return p;
  const rel = path.relative(root, p);
  return rel.startsWith("..") || path.isAbsolute(rel) ? p : rel.split(path.sep).join("/");
}

/** Options the dialect adds to a metric's config kwargs (they are not UltraEval keys). */
const ADDED_METRIC_OPTIONS = new Set(["name", "predictions", "aggregation"]);

/** The config's `metric` object again: `{name: {evaluation: {type, ...kwargs}, aggregation?: {type}}}`. */
function metricConfig(metrics: readonly PluginRef[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const ref of metrics) {
    const options = ref.options ?? {};
    const name = typeof options.name === "string" ? options.name : ref.id;
    const kwargs = Object.fromEntries(Object.entries(options).filter(([k]) => !ADDED_METRIC_OPTIONS.has(k)));
    const entry: Record<string, unknown> = { evaluation: { type: ref.id.replace(/^ultraeval:/, ""), ...kwargs } };
    if (typeof options.aggregation === "string") entry.aggregation = { type: options.aggregation };
    out[name] = entry;
  }
  return out;
}

/** The params as they reach the request (upstream's `generate.args` is the loaded params file). */
function paramsArgs(task: TaskSpec): Record<string, unknown> {
  if (task.mode === "loglikelihood") return { prompt_logprobs: 0, max_tokens: 1 };
  const g: GenerationParams = task.generation;
  const args: Record<string, unknown> = {};
  if (g.temperature !== undefined) args.temperature = g.temperature;
  if (g.topP !== undefined) args.top_p = g.topP;
  if (g.maxTokens !== undefined) args.max_tokens = g.maxTokens;
  if (g.stop !== undefined) args.stop = g.stop;
  Object.assign(args, g.extraBody ?? {});
  args.sampling_num = g.n ?? 1;
  return args;
}

/**
 * The per-task run record upstream writes as `<task>/config.json`, in its key order. `batchSize` and
 * `logDir` describe the run that wrote it.
 */
export function ultraEvalRunRecord(task: TaskSpec, run: { batchSize: number; logDir: string }): Record<string, unknown> | undefined {
  const extra = extraOf(task);
  const facts = ultraEvalTaskFacts(task);
  if (!extra || !facts) return undefined;
  const data = (task.data.options ?? {}) as { path?: unknown };
  const prompt = (task.prompt.options ?? {}) as { description?: unknown };
  const postprocess = extra.postprocess ?? "";
  return {
    task_name: task.name,
    path: typeof data.path === "string" ? asUpstreamPath(data.path, extra.root) : "",
    description: typeof prompt.description === "string" ? prompt.description : "",
    transform: extra.transform ?? "",
    fewshot: task.fewshot,
    generate: { method: facts.method, params: extra.params ?? "", args: paramsArgs(task) },
    postprocess,
    metric: metricConfig(task.metrics),
    batch_size: run.batchSize,
    model_postprocess: facts.pplScoring ?? "general_torch",
    task_postprocess: postprocess,
    log_dir: run.logDir,
  };
}
