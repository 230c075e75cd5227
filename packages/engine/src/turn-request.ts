/**
 * The request of one generate turn, built from the task's prompt builder: the one place that turns a
 * prompt into what is sent, shared by the generate stage (`answerTasks`) and `yardstick prompts`,
 * which prints the requests a run would send.
 */
import { type ChatMessage, ConfigError, type ModelRequest, type PromptBuilderV1, type PromptBuildInput, type TaskSpec } from "@yardstick/core";
import { firstPassParams, throughStopString } from "./two-pass-generation.js";

/** A builder's string is a completion prompt (base models), its messages a chat request; the task's generation params go with either. */
export function buildTurnRequest(task: TaskSpec, builder: PromptBuilderV1, input: PromptBuildInput): ModelRequest {
  const built = buildPrompt(task, builder, input);
  return typeof built === "string"
    ? { kind: "completion", prompt: built, params: task.generation }
    : { kind: "chat", messages: built, params: task.generation };
}

function buildPrompt(t: TaskSpec, b: PromptBuilderV1, input: PromptBuildInput): ChatMessage[] | string {
  try {
    return b.build(input, t.prompt.options ?? {});
  } catch (err) {
    throw promptError(t, input, err);
  }
}

/** A builder's failure as the config error that names the task, sample, turn and the config's prompt key. */
function promptError(t: TaskSpec, input: PromptBuildInput, err: unknown): ConfigError {
  const message = err instanceof Error ? err.message : String(err);
  return new ConfigError(`task ${t.key}, sample ${input.sample.id}, turn ${input.turn}: cannot build the prompt: ${message}`, {
    ...(t.source ? { file: t.source.file } : {}),
    ...(t.source?.promptKeyPath ? { keyPath: t.source.promptKeyPath } : {}),
    cause: err,
  });
}

/** A loglikelihood turn: one context and the continuations whose log-probabilities are scored. */
export interface LoglikelihoodTurnRequest {
  kind: "loglikelihood";
  context: string;
  continuations: string[];
}

export function buildLoglikelihoodRequest(task: TaskSpec, builder: PromptBuilderV1, input: PromptBuildInput): LoglikelihoodTurnRequest {
  if (!builder.buildChoices) throw new ConfigError(`prompt builder "${builder.id}" cannot build loglikelihood choices`, { keyPath: [task.key, "prompt"] });
  let choices: { context: string; continuations: string[] };
  try {
    choices = builder.buildChoices(input, task.prompt.options ?? {});
  } catch (err) {
    throw promptError(task, input, err);
  }
  return { kind: "loglikelihood", context: choices.context, continuations: choices.continuations };
}

/** The `call` of a loglikelihood row's first-pass record in the run store (the row's own record has none). */
export const FIRST_PASS_CALL = "first-pass";

/**
 * A loglikelihood task whose generation sets `stopAtFirst` (SEA-HELM's logprob tasks): the request
 * that first lets the model write from the context up to the answer tag, else undefined.
 */
export function firstPassRequest(task: TaskSpec, request: LoglikelihoodTurnRequest): ModelRequest | undefined {
  const tag = task.generation.stopAtFirst;
  if (tag === undefined) return undefined;
  return { kind: "completion", prompt: request.context, params: firstPassParams(task.generation, tag) };
}

/** The echo request after a first pass that stopped at the tag: the continuations follow the context and the text through the tag. */
export function afterFirstPass(task: TaskSpec, request: LoglikelihoodTurnRequest, firstText: string): LoglikelihoodTurnRequest {
  const tag = task.generation.stopAtFirst ?? "";
  return { kind: "loglikelihood", context: request.context + throughStopString(firstText, tag), continuations: request.continuations };
}
