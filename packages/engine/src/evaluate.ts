import { ConfigError, type ModelProviderV1, type TaskSpec } from "@yardstick/core";
import { type AnswerOutcome, type AnswerSettings, answerTasks } from "./answer.js";
import type { BatchSettings } from "./batch-answers.js";
import { type JudgeOutcome, judgeTasks } from "./judge-stage.js";
import type { RunStore } from "./run-store.js";
import type { CompetencyRollup, ResultsTree, TaskResult } from "./aggregate.js";
import type { HeadlineInterval } from "./headline-interval.js";
import { scoreStore } from "./score-store.js";
import type { ScoreSummary, Summarize } from "./summary.js";

export interface EvaluationSettings extends AnswerSettings {
  /** Bootstrap seed of the score intervals (default 1234). */
  seed?: number;
  /** Computes n, stderr and a confidence interval of per-sample scores (injected: see @yardstick/metrics). */
  summarize?: Summarize;
  /** Competency-specific roll-ups applied while aggregating (see `aggregateResults`). */
  competencyRollups?: Record<string, CompetencyRollup>;
  /** The judge stage of tasks with a `judge`: required when any task has one. */
  judge?: {
    model: ModelProviderV1;
    /** The identity keying the judge's requests in the cache (default `model.identity()`). */
    modelIdentity?: string;
    /** A baseline run whose answers reach pairwise judges (`run: "baseline"`). */
    baselineStore?: RunStore;
    /** Send the judge calls through the judge model's batch API. */
    batchApi?: BatchSettings;
  };
}

/** A task's scores, from the run store. */
export interface TaskOutcome extends TaskResult {
  /** Samples scored (answered, failed ones included). */
  samples: number;
  /** Samples whose answer failed for good (scored as "" or dropped, as the task says). */
  errors: number;
  /** Samples of the store without a final answer (a stopped run); not scored. */
  unanswered: number;
  /** n, mean, stderr and CI of the per-sample scores (key `summary.key`). */
  summary?: ScoreSummary;
  /** Standard error and CI of the task's headline score (`mainScore`), on its own scale. */
  headline?: HeadlineInterval;
  /** Set when the task could not be scored (e.g. its metric is not installed). */
  failure?: string;
  /** Set when a metric left the main score out on purpose, with why (e.g. "MetricX not computed (no --metricx-url); ..."). */
  notComputed?: string;
}

export interface EvaluationResult {
  results: ResultsTree;
  tasks: TaskOutcome[];
  /** How answering went per task (store, cache, sent); empty when the run was stopped before scoring. */
  answering: AnswerOutcome[];
  /** How judging went per judged task. */
  judging: JudgeOutcome[];
  aborted: boolean;
}

/**
 * Answers every task into the (open) run store, judges the judged tasks' answers (`judgeTasks`),
 * closes the store, and scores it from what it holds (under the store's lock). A
 * stopped run (`signal`) returns `aborted: true` without scoring; run it again to continue.
 */
export async function runEvaluation(settings: EvaluationSettings): Promise<EvaluationResult> {
  const judgedTask = settings.tasks.find((t) => t.judge);
  if (judgedTask && !settings.judge) {
    throw new ConfigError(`task ${judgedTask.key} has a judge ("${judgedTask.judge!.id}") but no judge model was given (--judge-model)`);
  }
  settings.progress?.phase?.("answer");
  const answered = await answerTasks(settings);
  let judging: JudgeOutcome[] = [];
  let aborted = answered.aborted;
  if (!aborted && judgedTask && settings.judge) {
    settings.progress?.phase?.("judge");
    const judged = await judgeTasks({
      tasks: settings.tasks,
      registry: settings.registry,
      model: settings.judge.model,
      ...(settings.judge.modelIdentity !== undefined ? { modelIdentity: settings.judge.modelIdentity } : {}),
      store: settings.store,
      ...(settings.judge.baselineStore ? { baselineStore: settings.judge.baselineStore } : {}),
      ...(settings.judge.batchApi ? { batchApi: settings.judge.batchApi } : {}),
      ...(settings.cache ? { cache: settings.cache } : {}),
      ...(settings.concurrency !== undefined ? { concurrency: settings.concurrency } : {}),
      ...(settings.progress ? { progress: settings.progress } : {}),
      ...(settings.signal ? { signal: settings.signal } : {}),
      ...(settings.failFastAfter !== undefined ? { failFastAfter: settings.failFastAfter } : {}),
      ...(settings.baseDir !== undefined ? { baseDir: settings.baseDir } : {}),
      ...(settings.log ? { log: settings.log } : {}),
    });
    judging = judged.tasks;
    aborted = judged.aborted;
  }
  // Scored under the lock it was answered under; closed (and unlocked) either way.
  let scored: Awaited<ReturnType<typeof scoreStore>>;
  try {
    await settings.store.finishAppending();
    if (aborted) return { results: {}, tasks: [], answering: answered.tasks, judging, aborted: true };
    settings.progress?.phase?.("score");
    scored = await scoreStore({
      store: settings.store,
      registry: settings.registry,
      ...(settings.summarize ? { summarize: settings.summarize } : {}),
      seed: settings.seed ?? 1234,
      ...(settings.competencyRollups ? { competencyRollups: settings.competencyRollups } : {}),
      taskKeys: settings.tasks.map((t: TaskSpec) => t.key),
      ...(settings.log ? { log: settings.log } : {}),
    });
  } finally {
    await settings.store.close();
  }
  return { results: scored.results, tasks: scored.tasks, answering: answered.tasks, judging, aborted: false };
}
