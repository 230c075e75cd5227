/**
 * Translates UltraEval task configs into TaskSpecs. Everything the engine needs goes into typed
 * fields; what only the UltraEval plugins read (transform, description, renamed task name) goes into
 * the prompt builder's options, and the upstream facts kept for messages go into `extra`.
 */
import { statSync } from "node:fs";
import * as path from "node:path";
import {
  ConfigError,
  type GenerationParams,
  type PluginRef,
  type TaskDiagnostic,
  type TaskProblem,
  type TaskSpec,
} from "@yardstick/core";
import { generationParamsFromKwargs } from "../generation-kwargs.js";
import { readParamsFile, type UltraEvalEntry } from "./files.js";
import type { UltraEvalParams } from "./schema.js";
import { pythonBridgeStatus } from "./python-transform-bridge.js";
import { isPortedTransform } from "./transforms/index.js";

export const ULTRAEVAL_DIALECT_ID = "ultraeval";
export const ULTRAEVAL_DATALOADER_ID = "ultraeval";
export const ULTRAEVAL_PROMPT_BUILDER_ID = "ultraeval";
/** Few-shot examples are drawn with Python's `random.Random(seed)`; upstream leaves it unseeded. */
export const ULTRAEVAL_DEFAULT_FEWSHOT_SEED = 1234;

/** The task-level postprocess functions of UltraEval's registry (`ultraeval:<name>` plugins). */
export const ULTRAEVAL_POSTPROCESS_NAMES = [
  "general_torch",
  "general_torch_ppl",
  "general_torch_ppl_norm",
  "exact_match_post",
  "math_post",
  "common_math_post",
  "until_return_post",
  "humaneval_post",
  "humaneval_chatgpt",
  "mbpp_post",
  "new_mbpp_post",
  "arithmetic_post",
  "theoremqa_post",
  "gsm8k_post",
  "hellaswag_post",
  "bbh_post",
  "gaokao_single_choice_post",
  "gaokao_multi_question_choice_post",
  "gaokao_multi_choice_post",
  "gaokao_five_out_of_seven_post",
  "agieval_single_answer_post",
  "agieval_multiple_answer_post",
  "agieval_cloze_post",
] as const;

const PPL_SCORERS = new Set(["general_torch_ppl", "general_torch_ppl_norm"]);

/** Evaluation types with a yardstick metric (`ultraeval:<type>`). */
const PORTED_METRICS = new Set([
  "prefix_match",
  "exact_match",
  "in_match",
  "qa_match",
  "f1_score",
  "log_prob",
  "log_prob_mc2",
  "gaokaobench_match",
  "bleu",
  "chrf",
  "rouge",
  "function_execution",
]);
/** Registered upstream but not ported (gpt4_eval asks OpenAI whether two answers agree). */
const KNOWN_UNPORTED_METRICS = new Set(["gpt4_eval"]);

/** What `scripts/run_job_base.sh` passes as `--params` when a config leaves `generate.params` empty. */
const DEFAULT_PARAMS_FILE = { generate: "models/model_params/vllm_sample.json", loglikelihood: "models/model_params/vllm_logprobs.json" };
const DEFAULT_PARAMS: Record<"generate" | "loglikelihood", UltraEvalParams> = {
  generate: { temperature: 0.3, top_p: 0.8, max_tokens: 300, sampling_num: 1 },
  loglikelihood: { prompt_logprobs: 0, max_tokens: 1 },
};

/** Client-side keys of a params file: they shape the run, they are not sent. */
const CLIENT_KEYS = new Set(["sampling_num", "batch_size", "prompt_logprobs", "request_id"]);

export interface TranslateContext {
  /** The UltraEval root (paths in configs are relative to it); undefined when no `datasets/` folder is above. */
  root: string | undefined;
  /** Where paths are resolved when there is no root. */
  fallbackBase: string;
}

/** `<dataset>_<task with _ turned into ->_<gen|ppl>`, as `make_config.py` names tasks. */
export function renamedTaskName(dataset: string, taskName: string, method: "generate" | "loglikelihood"): string {
  return `${dataset}_${taskName.split(/[-_]/).join("-")}_${method === "generate" ? "gen" : "ppl"}`;
}

/** The dataset of a task: its `datasets/<ds>/config` folder, else the `datasets/<ds>/` of its data path. */
export function datasetOf(entry: UltraEvalEntry): string {
  if (entry.merged) return entry.task.task_name.split("_")[0]!;
  const configDir = path.dirname(entry.file);
  if (path.basename(configDir) === "config") return path.basename(path.dirname(configDir)).toLowerCase();
  const fromData = /(?:^|\/)datasets\/([^/]+)\//.exec(entry.task.path);
  return (fromData?.[1] ?? path.basename(configDir)).toLowerCase();
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export async function translateEntry(entry: UltraEvalEntry, key: string, ctx: TranslateContext): Promise<TaskSpec> {
  const { task, file } = entry;
  const at = (...keys: (string | number)[]): (string | number)[] => (entry.index === undefined ? keys : [entry.index, ...keys]);
  const base = ctx.root ?? ctx.fallbackBase;
  const resolve = (p: string) => (path.isAbsolute(p) ? p : path.join(base, p));
  const diagnostics: TaskDiagnostic[] = [];
  const unsupported: TaskProblem[] = [];
  const method = task.generate.method;
  const dataset = datasetOf(entry);
  const name = entry.merged ? task.task_name : renamedTaskName(dataset, task.task_name, method);

  if (ctx.root === undefined) {
    diagnostics.push({ level: "warning", message: `no folder above ${file} holds datasets/: paths are taken relative to ${base}` });
  }

  const dataPath = resolve(task.path);
  if (!isFile(dataPath)) {
    unsupported.push({
      code: "data-missing",
      message: `reads ${dataPath}, which is not there (UltraEval ships no data: run datasets/*/make_dataset.py, or write the rows yourself)`,
    });
  }

  // A transform without a port runs as the original Python file when python3 and the file are here.
  const bridged = !isPortedTransform(task.transform);
  if (bridged) {
    const status = pythonBridgeStatus(ctx.root, task.transform);
    if (status.ok) {
      diagnostics.push({ level: "info", message: `the transform ${task.transform} has no TypeScript port: it runs as the Python file through the python3 bridge` });
    } else {
      unsupported.push({
        code: "transform",
        message: `uses the transform ${task.transform}, which has no TypeScript port, and the python3 bridge cannot run it: ${status.reason}`,
      });
    }
  }

  // Parameters: the config's file, else what run_job_base.sh passes for the method.
  let params: UltraEvalParams;
  if (task.generate.params === "") {
    params = DEFAULT_PARAMS[method];
    diagnostics.push({
      level: "info",
      message: `generate.params is empty: using ${DEFAULT_PARAMS_FILE[method]}'s values, as scripts/run_job_base.sh does`,
      keyPath: at("generate", "params"),
    });
  } else {
    const paramsFile = resolve(task.generate.params);
    const read = await readParamsFile(paramsFile, file, at("generate", "params"));
    if (read === undefined) {
      unsupported.push({ code: "params-missing", message: `names the parameter file ${paramsFile}, which is not there` });
      params = DEFAULT_PARAMS[method];
    } else {
      params = read;
    }
  }
  const generation = method === "generate" ? generationFrom(params, diagnostics, at("generate", "params")) : {};

  // Postprocess: task-level functions apply to generated text; for loglikelihood tasks the name says how options are scored.
  const postprocessors: PluginRef[] = [];
  let pplScoring: string | undefined;
  if (task.postprocess !== "") {
    if (!(ULTRAEVAL_POSTPROCESS_NAMES as readonly string[]).includes(task.postprocess)) {
      throw new ConfigError(`unknown postprocess "${task.postprocess}"`, {
        file,
        keyPath: at("postprocess"),
        expected: `"" or one of ${ULTRAEVAL_POSTPROCESS_NAMES.join(", ")}`,
      });
    }
    if (method === "loglikelihood") {
      if (!PPL_SCORERS.has(task.postprocess)) {
        throw new ConfigError(`postprocess "${task.postprocess}" works on generated text, but this task scores loglikelihoods`, {
          file,
          keyPath: at("postprocess"),
          expected: `"", "general_torch_ppl" or "general_torch_ppl_norm"`,
        });
      }
      pplScoring = task.postprocess;
    } else if (task.postprocess !== "general_torch") {
      postprocessors.push({ id: `ultraeval:${task.postprocess}` });
    }
  }

  const { metrics, mainScore } = metricsFrom(entry, at, unsupported, method === "loglikelihood" ? optionScoring(pplScoring) : undefined);

  const spec: TaskSpec = {
    key,
    name,
    language: "",
    competency: dataset,
    aggregationGroup: dataset,
    source: { file, dialect: ULTRAEVAL_DIALECT_ID },
    data: {
      id: ULTRAEVAL_DATALOADER_ID,
      options: {
        path: dataPath,
        transform: task.transform,
        taskName: name,
        fewshotSeed: ULTRAEVAL_DEFAULT_FEWSHOT_SEED,
        // Only bridged tasks carry the root (the worker imports from it), so ported tasks keep their fingerprints.
        ...(bridged && ctx.root ? { root: ctx.root } : {}),
      },
    },
    fewshot: task.fewshot,
    prompt: {
      id: ULTRAEVAL_PROMPT_BUILDER_ID,
      options: { transform: task.transform, description: task.description, taskName: name },
    },
    mode: method,
    // Prompts are sent raw, without a chat template, as upstream does.
    endpoint: "completion",
    generation,
    postprocessors,
    metrics,
    mainScore,
    errorResponses: "replace",
    extra: {
      ultraeval: {
        taskName: task.task_name,
        dataset,
        transform: task.transform,
        postprocess: task.postprocess,
        params: task.generate.params,
        ...(pplScoring ? { pplScoring } : {}),
        ...(ctx.root ? { root: ctx.root } : {}),
      },
    },
  };
  if (unsupported.length > 0) spec.unsupported = unsupported;
  if (diagnostics.length > 0) spec.diagnostics = diagnostics;
  return spec;
}

/** Params file → request fields. `sampling_num` becomes `n` (upstream repeats the prompt instead). */
function generationFrom(params: UltraEvalParams, diagnostics: TaskDiagnostic[], keyPath: (string | number)[]): GenerationParams {
  const ignored: string[] = [];
  const out = generationParamsFromKwargs(params, (k, v, params) => {
    if (k === "sampling_num") {
      if ((v as number) > 1) params.n = v as number;
      return undefined;
    }
    if (CLIENT_KEYS.has(k)) {
      ignored.push(k);
      return undefined;
    }
    return v;
  });
  if (ignored.length > 0) {
    diagnostics.push({ level: "info", message: `params ${ignored.join(", ")} are not sent (they shape UltraEval's client, not the request)`, keyPath });
  }
  return out;
}

/** The metrics that rank loglikelihood options (the only ones upstream pairs with ppl tasks). */
const OPTION_METRICS = new Set(["log_prob", "log_prob_mc2"]);

/**
 * What `ultraeval:log_prob[_mc2]` is told the prediction holds. The engine hands summed continuation
 * log-probabilities and each continuation's token count; upstream feeds the metric general_torch_ppl's
 * whole-sequence NLL (same ranking: the context is shared) or, with general_torch_ppl_norm, the mean NLL
 * of the tokens after the part every option shares (here: the continuation's tokens).
 */
function optionScoring(pplScoring: string | undefined): "logprob" | "logprob-per-token" {
  return pplScoring === "general_torch_ppl_norm" ? "logprob-per-token" : "logprob";
}

function metricsFrom(
  entry: UltraEvalEntry,
  at: (...keys: (string | number)[]) => (string | number)[],
  unsupported: TaskProblem[],
  predictions: "logprob" | "logprob-per-token" | undefined,
): { metrics: PluginRef[]; mainScore: string } {
  const metrics: PluginRef[] = [];
  let mainScore: string | undefined;
  for (const [name, m] of Object.entries(entry.task.metric)) {
    const { type, ...kwargs } = m.evaluation;
    const evalType = type.toLowerCase();
    if (!PORTED_METRICS.has(evalType)) {
      if (!KNOWN_UNPORTED_METRICS.has(evalType)) {
        throw new ConfigError(`unknown evaluation type "${type}"`, {
          file: entry.file,
          keyPath: at("metric", name, "evaluation", "type"),
          expected: [...PORTED_METRICS, ...KNOWN_UNPORTED_METRICS].join(", "),
        });
      }
      unsupported.push({ code: "metric", message: `metric ${name} uses the evaluation type ${type}, which yardstick does not have` });
    }
    const options: Record<string, unknown> = { name, ...kwargs };
    if (predictions !== undefined) {
      if (OPTION_METRICS.has(evalType)) options.predictions = predictions;
      else unsupported.push({ code: "metric", message: `metric ${name} (${type}) scores text, but this task scores loglikelihoods (log_prob or log_prob_mc2 rank the options)` });
    }
    let score = name;
    const aggregation = m.aggregation?.type.toLowerCase();
    if (aggregation !== undefined) {
      if (evalType === "function_execution" && (aggregation === "pass_k" || aggregation === "mean")) {
        options.aggregation = aggregation;
        if (aggregation === "pass_k") score = "pass@1";
      } else {
        unsupported.push({
          code: "metric",
          message: `metric ${name} aggregates ${type} with ${m.aggregation?.type}; yardstick aggregates only function_execution (pass_k or mean)`,
        });
      }
    }
    metrics.push({ id: `ultraeval:${evalType}`, options });
    mainScore ??= score;
  }
  return { metrics, mainScore: mainScore ?? "accuracy" };
}
