import { MetricError } from "@yardstick/core";
import type { PhenomenonCounts } from "./pragmatic.js";

/**
 * The LINDSEA roll-ups that SEA-HELM performs at aggregation time (aggregate_metrics.py), as plain
 * functions the runner's aggregation step can call with the per-task results.
 */

export const PRAGMATICS_PHENOMENA = ["scalar_implicatures", "presuppositions"] as const;
/** Chance level of the yes/no pragmatics items. */
export const PRAGMATICS_MIN_SCORE = 0.5;

export interface PragmaticsAggregate {
  subcategories: Record<string, { accuracy: number; correct_count: number; total_count: number }>;
  /** Mean over phenomena of Σcorrect/Σn, ×100. */
  accuracy: number;
  /** max((acc − 0.5)/0.5, 0) × 100. */
  normalized_accuracy: number;
}

/**
 * Pools pragmatic-single and pragmatic-pair: per phenomenon Σcorrect/Σn over the tasks that have it,
 * then the unweighted mean over phenomena, normalised against chance (0.5).
 */
export function aggregatePragmatics(
  taskSubcategories: readonly PhenomenonCounts[],
  phenomena: readonly string[] = PRAGMATICS_PHENOMENA,
): PragmaticsAggregate {
  const subcategories: PragmaticsAggregate["subcategories"] = {};
  for (const phenomenon of phenomena) {
    let c = 0;
    let n = 0;
    for (const task of taskSubcategories) {
      const entry = task[phenomenon];
      if (entry === undefined) continue;
      c += entry[0];
      n += entry[1];
    }
    if (n === 0) {
      throw new MetricError(`pragmatics aggregation: no items for phenomenon "${phenomenon}" in any task`, {
        metricId: "seahelm-pragmatic",
      });
    }
    subcategories[phenomenon] = { accuracy: c / n, correct_count: c, total_count: n };
  }
  const accs = Object.values(subcategories).map((s) => s.accuracy);
  const acc = accs.reduce((a, b) => a + b, 0) / accs.length;
  return {
    subcategories,
    accuracy: 100 * acc,
    normalized_accuracy: 100 * Math.max((acc - PRAGMATICS_MIN_SCORE) / (1 - PRAGMATICS_MIN_SCORE), 0),
  };
}

/** The logprob twin: per phenomenon the mean of the tasks' average probabilities, then their mean. */
export function aggregatePragmaticsLogprobs(
  taskSubcategories: readonly Record<string, { average_cumulative_probabilities: number }>[],
  phenomena: readonly string[] = PRAGMATICS_PHENOMENA,
): { subcategories: Record<string, { average_cumulative_probabilities: number }>; average_cumulative_probabilities: number } {
  const subcategories: Record<string, { average_cumulative_probabilities: number }> = {};
  for (const phenomenon of phenomena) {
    const values = taskSubcategories.flatMap((t) => (t[phenomenon] ? [t[phenomenon].average_cumulative_probabilities] : []));
    if (values.length === 0) {
      throw new MetricError(`pragmatics-logprobs aggregation: no task reports phenomenon "${phenomenon}"`, {
        metricId: "seahelm-pragmatic",
      });
    }
    subcategories[phenomenon] = { average_cumulative_probabilities: values.reduce((a, b) => a + b, 0) / values.length };
  }
  const vals = Object.values(subcategories).map((s) => s.average_cumulative_probabilities);
  return { subcategories, average_cumulative_probabilities: vals.reduce((a, b) => a + b, 0) / vals.length };
}

export interface LindseaParts {
  "mp-r"?: { normalized_accuracy: number };
  "mp-r-logprobs"?: { average_cumulative_probabilities: number };
  pragmatics?: { normalized_accuracy: number };
  "pragmatics-logprobs"?: { average_cumulative_probabilities: number };
}

/**
 * `lindsea.normalized_score`: the mean of whichever of mp-r, mp-r-logprobs, pragmatics and
 * pragmatics-logprobs are present (normalized accuracy, or mean probability for the logprob
 * variants). syntax-criteria is not part of it, as upstream.
 */
export function aggregateLindsea(parts: LindseaParts): { normalized_score: number; used: string[] } {
  const used: string[] = [];
  const scores: number[] = [];
  const take = (name: string, value: number | undefined) => {
    if (value === undefined) return;
    if (!Number.isFinite(value)) {
      throw new MetricError(`lindsea aggregation: ${name} score is not a finite number`, { metricId: "seahelm-lindsea" });
    }
    used.push(name);
    scores.push(value);
  };
  take("mp-r", parts["mp-r"]?.normalized_accuracy);
  take("mp-r-logprobs", parts["mp-r-logprobs"]?.average_cumulative_probabilities);
  take("pragmatics", parts.pragmatics?.normalized_accuracy);
  take("pragmatics-logprobs", parts["pragmatics-logprobs"]?.average_cumulative_probabilities);
  if (scores.length === 0) {
    throw new MetricError("lindsea aggregation: none of mp-r, pragmatics (or their logprob twins) was given", {
      metricId: "seahelm-lindsea",
    });
  }
  return { normalized_score: scores.reduce((a, b) => a + b, 0) / scores.length, used };
}

/** What the roll-up needs of a task result (the engine's `TaskResult` has these fields). */
export interface RollupTask {
  name: string;
  main: number | undefined;
  metrics: Record<string, unknown>;
}

/**
 * SEA-HELM's linguistic-diagnostics competency in one language: `pragmatics` pools the phenomena
 * of pragmatic-single and pragmatic-pair, and `lindsea.normalized_score` — the mean of mp-r and
 * pragmatics (syntax-criteria excluded, as upstream) — becomes the competency total. Undefined when
 * neither part ran.
 */
export function lindseaRollup(tasks: readonly RollupTask[]): { entries: Record<string, unknown>; total?: number } | undefined {
  const counts: PhenomenonCounts[] = [];
  for (const t of tasks) {
    if (t.name !== "pragmatic-single" && t.name !== "pragmatic-pair") continue;
    const details = t.metrics["seahelm-pragmatic.details"] as { subcategories?: PhenomenonCounts } | undefined;
    if (details?.subcategories) counts.push(details.subcategories);
  }
  const mpr = tasks.find((t) => t.name === "mp-r" && t.main !== undefined);
  if (counts.length === 0 && !mpr) return undefined;
  const entries: Record<string, unknown> = {};
  let pragmatics: PragmaticsAggregate | undefined;
  if (counts.length > 0) {
    const phenomena = [...new Set(counts.flatMap((c) => Object.keys(c)))].sort();
    pragmatics = aggregatePragmatics(counts, phenomena);
    entries.pragmatics = pragmatics;
  }
  const lindsea = aggregateLindsea({
    ...(mpr ? { "mp-r": { normalized_accuracy: mpr.main! } } : {}),
    ...(pragmatics ? { pragmatics: { normalized_accuracy: pragmatics.normalized_accuracy } } : {}),
  });
  entries.lindsea = lindsea;
  return { entries, total: lindsea.normalized_score };
}
