/**
 * Loglikelihood tasks (SEA-HELM logprob twins, UltraEval ppl tasks) need a provider that scores
 * continuations (`ModelProviderV1.loglikelihood`: the OpenAI-compatible one, over /v1/completions
 * with echo and logprobs). With any other provider they are refused before the first request, or
 * left out and named with --skip-unsupported.
 */
import { ConfigError, type ModelProviderV1, type TaskSpec } from "@yardstick/core";

function cannotScore(task: TaskSpec, model: ModelProviderV1): ConfigError {
  return new ConfigError(
    `task ${task.key} scores log-probabilities (loglikelihood), which the model provider "${model.id}" cannot; use an OpenAI-compatible server that echoes prompt logprobs on /v1/completions (vLLM, SGLang), or leave it out with --tasks or --skip-unsupported`,
    { ...(task.source ? { file: task.source.file } : {}), keyPath: [task.name] },
  );
}

/** The tasks the model can answer: throws for the first loglikelihood task it cannot score, or (skip) leaves those out and says so. */
export function tasksTheModelCanScore(
  tasks: readonly TaskSpec[],
  model: ModelProviderV1,
  skip: boolean,
  log: ((message: string) => void) | undefined,
): TaskSpec[] {
  if (model.loglikelihood) return [...tasks];
  const kept: TaskSpec[] = [];
  for (const task of tasks) {
    if (task.mode !== "loglikelihood") {
      kept.push(task);
      continue;
    }
    const error = cannotScore(task, model);
    if (!skip) throw error;
    log?.(`skipped: ${error.message}`);
  }
  if (kept.length === 0) throw new ConfigError("every selected task was skipped as unsupported (see above)");
  return kept;
}
