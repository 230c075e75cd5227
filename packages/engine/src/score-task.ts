import type { JudgementRecord, MetricInput, MetricV1, Registry, TaskSpec } from "@yardstick/core";
import type { ScoreRecord } from "@yardstick/run-format";
import { lazyArray, YardstickError } from "@yardstick/core";
import type { TaskOutcome } from "./evaluate.js";
import { headlineInterval } from "./headline-interval.js";
import { resolveJudgements } from "./judgement-records.js";
import { ScoreColumns } from "./score-columns.js";
import { finalTurn, type TaskRows } from "./task-rows.js";
import type { RunStore } from "./run-store.js";
import type { Summarize } from "./summary.js";

export interface ScoringDeps {
  registry: Registry;
  store: RunStore;
  summarize: Summarize;
  seed?: number;
  log?: (message: string) => void;
}

/**
 * Scores one task once its samples are answered — SEA-HELM's response-evaluation steps: failed
 * responses replaced by "" or dropped, postprocessors in order, distinct responses counted, then the
 * metrics; then the per-sample summary, the headline interval, and the per-sample score file.
 */
export async function scoreTask(deps: ScoringDeps, task: TaskSpec, rows: TaskRows, outcome: TaskOutcome): Promise<void> {
  const { registry, store, summarize } = deps;
  const turnsPerSample = Math.max(1, task.turns ?? 1);
  // The response-evaluation steps of SEA-HELM's guide: handle errors, postprocess, count, score.
  // Inputs are kept as columns (row, prediction, raw text) in dataset order; see `lazyArray`.
  rows.compact();
  // Row of each input (at most one per row), filled up to `inputCount`.
  const inputRows = new Uint32Array(rows.length);
  let inputCount = 0;
  // Predictions and raw texts as ids into one table of texts (a million answers are a few distinct
  // strings: 4 bytes each instead of a pointer), other predictions (loglikelihoods) by input.
  const texts = new TextTable();
  const predictionIds = new Uint32Array(rows.length);
  const rawIds = new Uint32Array(rows.length);
  const otherPredictions = new Map<number, unknown>();
  const errorOf = new Map<number, string>();
  // Loglikelihood answers: each continuation's token count, for metrics that normalise per token.
  const tokenCountsOf = new Map<number, number[]>();
  const responseCounts = new Map<string, number>();
  // Resolved once per task, not once per sample (a registry entry may be a factory).
  const postprocessors = task.postprocessors.map((ref) => ({ plugin: registry.get("postprocessors", ref.id), options: ref.options ?? {} }));
  // Judged tasks: each input's judgements (a sample with a good answer but no judgement yet is
  // unanswered: the judge stage has not reached it). Absent for tasks without a judge.
  const judgementsOf = rows.judgements ? new Map<number, JudgementRecord[]>() : undefined;
  for (const row of rows.datasetOrder()) {
    const turn = finalTurn(rows.answers[row], turnsPerSample);
    if (!turn) {
      outcome.unanswered++;
      continue;
    }
    let judgements: JudgementRecord[] | undefined;
    if (judgementsOf) {
      const kept = rows.judgements!.get(row);
      judgements = turn.error ? [] : kept ? resolveJudgements(kept) : undefined;
      if (!judgements) {
        outcome.unanswered++;
        continue;
      }
    }
    outcome.samples++;
    if (turn.error) {
      outcome.errors++;
      if (task.errorResponses === "drop") continue;
    } else if (judgements?.some((j) => j.judgement.error !== undefined)) {
      outcome.errors++;
    }
    if (judgements) judgementsOf!.set(inputCount, judgements);
    const raw = turn.text ?? "";
    if (turn.choiceLogprobs) {
      otherPredictions.set(inputCount, turn.choiceLogprobs);
      predictionIds[inputCount] = NOT_TEXT;
      if (turn.choiceTokenCounts) tokenCountsOf.set(inputCount, turn.choiceTokenCounts);
    } else {
      let text = turn.error ? "" : raw;
      if (postprocessors.length > 0) {
        const sample = rows.sampleAt(row);
        for (const p of postprocessors) text = p.plugin.process(text, p.options, { sample, task });
      }
      responseCounts.set(text, (responseCounts.get(text) ?? 0) + 1);
      predictionIds[inputCount] = texts.idOf(text);
    }
    if (turn.error) errorOf.set(inputCount, turn.error.message);
    rawIds[inputCount] = texts.idOf(raw);
    inputRows[inputCount++] = row;
  }
  rows.answers.length = 0;
  rows.judgements = undefined;
  texts.stopSharing();
  const predictionAt = (j: number): unknown => (predictionIds[j] === NOT_TEXT ? otherPredictions.get(j) : texts.at(predictionIds[j]!));
  const inputIds = { count: inputCount, idAt: (j: number) => rows.idAt(inputRows[j]!) };
  const inputs = lazyArray<MetricInput>(inputCount, (j) => {
    const sample = rows.sampleAt(inputRows[j]!);
    const error = errorOf.get(j);
    const choiceTokenCounts = tokenCountsOf.get(j);
    const judgements = judgementsOf?.get(j);
    return {
      sampleId: sample.id,
      prediction: predictionAt(j),
      reference: sample.label,
      rawResponse: texts.at(rawIds[j]!),
      sample,
      ...(error !== undefined ? { error } : {}),
      ...(choiceTokenCounts !== undefined ? { choiceTokenCounts } : {}),
      ...(judgements !== undefined ? { judgements } : {}),
    };
  });

  const scores: Record<string, unknown> = {};
  // Per-sample scores by input position, copied out of each metric's result; the metric's own
  // per-sample objects (~100 bytes a sample) are freed when `computeMetrics` returns.
  const perSample = new ScoreColumns(inputCount);
  const { mainMetric, notComputed } = await computeMetrics(deps, task, inputs, inputIds, scores, perSample, outcome);

  const main = scores[task.mainScore];
  outcome.main = typeof main === "number" ? main : undefined;
  if (outcome.main === undefined && outcome.failure === undefined && notComputed !== undefined) {
    outcome.notComputed = notComputed;
  } else if (outcome.main === undefined && outcome.failure === undefined) {
    // A misspelt `metric:` must not pass as a task without a score.
    const numeric = Object.keys(scores).filter((k) => typeof scores[k] === "number");
    outcome.failure = `its metrics report no "${task.mainScore}" (the config's main score); they report: ${numeric.join(", ") || "nothing"}`;
  }
  const perSampleKey = perSample.has(task.mainScore) ? task.mainScore : perSample.firstKey();
  if (perSampleKey) {
    const values = perSample.finiteValues(perSampleKey);
    if (values.length > 0) outcome.summary = { ...summarize(values, deps.seed ?? 1234), key: perSampleKey };
  }
  if (mainMetric && outcome.main !== undefined && outcome.failure === undefined) {
    outcome.headline = await headlineInterval({
      ...mainMetric,
      inputs,
      ctx: { task, seed: deps.seed },
      key: task.mainScore,
      value: outcome.main,
      ...(outcome.summary ? { perSample: outcome.summary } : {}),
      seed: deps.seed ?? 1234,
    });
  }
  // The most frequent answers, keys cut to a readable length (the full texts are in scores/). Ties
  // keep dataset order (the order answers were first seen), so the same answers give the same list.
  const topResponses = [...responseCounts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([text, count]) => [text.length > 120 ? `${text.slice(0, 117)}...` : text, count] as const);
  outcome.metrics = {
    ...scores,
    n: outcome.samples,
    ...(outcome.headline
      ? {
          stderr: outcome.headline.stderr,
          ci: outcome.headline.ci,
          ci_method: outcome.headline.method,
          ...(outcome.headline.resamples ? { ci_resamples: outcome.headline.resamples } : {}),
        }
      : {}),
    ...(outcome.summary
      ? { per_sample: { key: outcome.summary.key, mean: outcome.summary.mean, stderr: outcome.summary.stderr, ci: outcome.summary.ci } }
      : {}),
    errors: outcome.errors,
    distinct_responses: responseCounts.size,
    response_counts: Object.fromEntries(topResponses),
    ...(outcome.failure ? { failure: outcome.failure } : {}),
    ...(outcome.notComputed ? { not_computed: outcome.notComputed } : {}),
  };
  await store.writeScores(
    task.key,
    (function* (): Generator<ScoreRecord> {
      for (let k = 0; k < inputCount; k++) {
        yield { sample: rows.idAt(inputRows[k]!), index: rows.indexAt(inputRows[k]!), prediction: predictionAt(k), scores: perSample.rowAt(k) };
      }
    })(),
  );
}

/**
 * A metric says why it did not compute a score by `details.notComputed[<score name>]` (e.g. MetricX
 * without a scoring endpoint): the task then has no main score, with that reason, and is not a failure.
 */
function notComputedReason(details: Record<string, unknown>, scoreName: string): string | undefined {
  const reasons = details.notComputed;
  if (typeof reasons !== "object" || reasons === null) return undefined;
  const why = (reasons as Record<string, unknown>)[scoreName];
  return typeof why === "string" ? why : undefined;
}

/**
 * Runs the task's metrics over the inputs: task scores into `scores` (a name an earlier metric
 * already gave is prefixed with this metric's id), per-sample scores into `perSample` by input
 * position. Returns the metric that reports the main score (for its interval) and why the main
 * score was not computed, when a metric's details say so. A metric that fails with a
 * YardstickError fails the task (`outcome.failure`), not the run.
 */
async function computeMetrics(
  deps: ScoringDeps,
  task: TaskSpec,
  inputs: readonly MetricInput[],
  inputIds: { count: number; idAt: (j: number) => string },
  scores: Record<string, unknown>,
  perSample: ScoreColumns,
  outcome: TaskOutcome,
): Promise<{ mainMetric?: { metric: MetricV1; options: Record<string, unknown> }; notComputed?: string }> {
  let mainMetric: { metric: MetricV1; options: Record<string, unknown> } | undefined;
  // Why a metric left the main score out on purpose (a score needing a model or endpoint not given).
  let notComputed: string | undefined;
  // Metrics return per-sample scores in input order; a map by id only for one that does not.
  let positionOf: Map<string, number> | undefined;
  try {
    for (const ref of task.metrics) {
      const metric = deps.registry.get("metrics", ref.id);
      const result = await metric.compute(inputs, ref.options ?? {}, { task, seed: deps.seed });
      if (!mainMetric && task.mainScore in result.scores) mainMetric = { metric, options: ref.options ?? {} };
      for (const [k, v] of Object.entries(result.scores)) scores[k in scores ? `${ref.id}.${k}` : k] = v;
      if (result.details) {
        scores[`${ref.id}.details`] = result.details;
        notComputed ??= notComputedReason(result.details, task.mainScore);
      }
      const earlier = new Set(perSample.keys);
      const renamed = (key: string) => (earlier.has(key) ? `${ref.id}.${key}` : key);
      if (result.perSampleColumns) {
        // Columns are in input order already: adopted as they are, no object per sample.
        for (const [key, values] of Object.entries(result.perSampleColumns.scores)) {
          if (!(values instanceof Float64Array) || values.length !== inputIds.count) {
            throw new YardstickError(`metric ${ref.id}: per-sample column "${key}" must be a Float64Array with one value per input (${inputIds.count})`);
          }
          perSample.adopt(renamed(key), values);
        }
        continue;
      }
      for (let k = 0; k < result.perSample.length; k++) {
        const s = result.perSample[k]!;
        let at = k < inputIds.count && inputIds.idAt(k) === s.sampleId ? k : undefined;
        if (at === undefined) {
          if (!positionOf) {
            positionOf = new Map();
            for (let j = 0; j < inputIds.count; j++) positionOf.set(inputIds.idAt(j), j);
          }
          at = positionOf.get(s.sampleId);
          if (at === undefined) continue;
        }
        for (const key in s.scores) perSample.set(at, renamed(key), s.scores[key]!);
      }
    }
  } catch (err) {
    if (!YardstickError.isInstance(err)) throw err;
    outcome.failure = err.message;
    deps.log?.(`task ${task.key}: ${err.message}`);
  }
  return { ...(mainMetric ? { mainMetric } : {}), ...(notComputed !== undefined ? { notComputed } : {}) };
}

/** Marks an input whose prediction is not a text (`otherPredictions`). */
const NOT_TEXT = 0xffffffff;

/**
 * Texts by id, one copy of each distinct text (up to 100,000 are shared; past that, new texts are
 * kept as they come, as unique generations mostly are).
 */
class TextTable {
  private readonly texts: string[] = [];
  private idOfText: Map<string, number> | undefined = new Map();

  idOf(text: string): number {
    const known = this.idOfText?.get(text);
    if (known !== undefined) return known;
    const id = this.texts.length;
    this.texts.push(text);
    if (this.idOfText && this.idOfText.size < 100_000) this.idOfText.set(text, id);
    return id;
  }

  at(id: number): string {
    return this.texts[id]!;
  }

  /** Drops the text → id map once every text is added. */
  stopSharing(): void {
    this.idOfText = undefined;
  }
}
