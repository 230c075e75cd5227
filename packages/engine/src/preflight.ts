import { ConfigError, DataLoadError, loadSampleBatches, type MetricInput, type MetricV1, type Registry, type Sample, type TaskSpec } from "@yardstick/core";
import type { Shard } from "@yardstick/run-format";
import { examplesFor, loadExamplePool } from "./fewshot-examples.js";
import { inShard } from "./shard.js";
import { buildLoglikelihoodRequest, buildTurnRequest } from "./turn-request.js";

export interface PreflightSettings {
  tasks: readonly TaskSpec[];
  registry: Registry;
  baseDir?: string;
  limit?: number;
  shard?: Shard;
  signal?: AbortSignal;
}

/**
 * What the generate stage checks before its first request, so that a mistake the run would only
 * meet halfway, or scoring only after every request was paid for, stops the run at once instead:
 * - every selected sample's first-turn request is built (a template key a row lacks is named), and
 *   a task whose data has no rows at all is refused;
 * - each task's metrics score a trial answer ("") to one sample with a label and, when there is
 *   one, the first sample without: a sample without a label that the metrics refuse, while they
 *   take a labelled one, is named, and so is a main score (the config's `metric:`) they do not report.
 * Judged and loglikelihood tasks skip the metric trial (their metrics need judgements or option
 * scores), and so do metrics that read the prompts (they call a scoring model). A metric that
 * refuses the labelled trial too says nothing either way. Later turns are built from the model's
 * answers, so only the first is checked.
 */
export async function checkTasksBeforeRequests(settings: PreflightSettings): Promise<void> {
  for (const task of settings.tasks) {
    if (settings.signal?.aborted) return;
    const { labelled, unlabelled } = await scanSamples(task, settings);
    if (task.judge || task.mode === "loglikelihood" || task.metrics.length === 0 || !labelled) continue;
    const trial = await trialScores(task, labelled, settings.registry);
    if (trial === undefined || "refused" in trial) continue;
    if (unlabelled) {
      const without = await trialScores(task, unlabelled.sample, settings.registry);
      if (without !== undefined && "refused" in without) {
        const path = task.data.options?.path;
        throw new DataLoadError(
          `task ${task.key}: sample ${unlabelled.sample.id} (row ${unlabelled.index + 1}) has no label, which its metric needs (${without.refused}); give it its label or remove the row (checked before any request was sent)`,
          typeof path === "string" ? { file: path } : {},
        );
      }
    }
    if (!trial.keys.has(task.mainScore)) {
      throw new ConfigError(
        `task ${task.key}: its metrics report no "${task.mainScore}" (the config's main score); they report: ${[...trial.keys].join(", ") || "nothing"} (checked before any request was sent)`,
        { ...(task.source?.file ? { file: task.source.file } : {}), keyPath: [task.name, "metric"] },
      );
    }
  }
}

/**
 * One pass over the task's selected samples: each one's first-turn request is built (a failure is
 * thrown as the config error the run would have stopped with), and the first sample with a label
 * and the first without are kept for the metric trial.
 */
async function scanSamples(task: TaskSpec, settings: PreflightSettings): Promise<{ labelled?: Sample; unlabelled?: { sample: Sample; index: number } }> {
  const { registry, limit, shard } = settings;
  const loader = registry.get("dataloaders", task.data.id);
  const builder = registry.get("promptBuilders", task.prompt.id);
  const pool = await loadExamplePool(registry, task, settings.baseDir);
  const build = task.mode === "loglikelihood" ? buildLoglikelihoodRequest : buildTurnRequest;
  let labelled: Sample | undefined;
  let unlabelled: { sample: Sample; index: number } | undefined;
  let index = 0;
  const ctx = { baseDir: settings.baseDir, task, ...(settings.signal ? { signal: settings.signal } : {}) };
  scan: for await (const batch of loadSampleBatches(loader, task.data.options ?? {}, ctx)) {
    for (const sample of batch) {
      if (limit !== undefined && index >= limit) break scan;
      const at = index++;
      if (shard && !inShard(task.key, sample.id, shard)) continue;
      build(task, builder, { sample, task, examples: examplesFor(sample, pool, task), turn: 1, previousResponses: [] });
      if (sample.label === undefined || sample.label === null) unlabelled ??= { sample, index: at };
      else labelled ??= sample;
    }
  }
  if (index === 0 && !settings.signal?.aborted) {
    // Scoring would fail the task after every other task's requests were paid for.
    const path = task.data.options?.path;
    throw new DataLoadError(
      `task ${task.key}: its data has no rows; a task needs at least one sample (checked before any request was sent)`,
      typeof path === "string" ? { file: path } : {},
    );
  }
  return { ...(labelled ? { labelled } : {}), ...(unlabelled ? { unlabelled } : {}) };
}

/** The numeric score keys the task's metrics report for an empty answer to `sample`, why one refused it, or undefined (not tried). */
async function trialScores(task: TaskSpec, sample: Sample, registry: Registry): Promise<{ keys: Set<string> } | { refused: string } | undefined> {
  const input: MetricInput = { sampleId: sample.id, prediction: "", reference: sample.label, rawResponse: "", sample };
  const keys = new Set<string>();
  for (const ref of task.metrics) {
    const options = ref.options ?? {};
    let metric: MetricV1;
    try {
      metric = registry.get("metrics", ref.id, options);
    } catch {
      return undefined; // a missing metric is reported by the runner's own check
    }
    if (metric.readsPrompts) return undefined;
    try {
      const result = await metric.compute([input], options, { task, seed: 1234 });
      for (const [key, value] of Object.entries(result.scores)) if (typeof value === "number") keys.add(key);
    } catch (err) {
      return { refused: `metric ${ref.id}: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
  return { keys };
}
