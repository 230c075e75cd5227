/**
 * What `yardstick agreement` compares: the judge-stage judgements of a run store and the human
 * labels of the same samples, read from a run store (label-stage records, what `label to-run`
 * writes), a labeling data folder, or one labeling results JSONL. Everything is matched by
 * (task, sample); the counts say what was left out and why.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ConfigError } from "@yardstick/core";
import { type Feedback, type LoadedTask, loadDataFolder, loadResultsFile, type ResultLine, rubricJudgement } from "@yardstick/labeling";
import type { Rating } from "@yardstick/metrics";
import { RETRY_SUFFIX } from "@yardstick/engine";
import { readRun, type RunData, type SampleJudgement } from "@yardstick/report";

export interface JudgeRating {
  task: string;
  sample: string;
  /** The judge call id ("" for a sample's only call; a criterion, an order, ... otherwise). */
  call: string;
  rating: Rating;
  rubric?: string;
}

export interface HumanRating {
  task: string;
  sample: string;
  rater: string;
  rating: Rating;
  rubric?: string;
}

export interface JudgeSide {
  ratings: JudgeRating[];
  /** Judge records whose call failed or whose judgement has an `error`: left out, counted. */
  errors: number;
  /** Judge records with neither a label nor a score (e.g. a pairwise call's raw data). */
  unrated: number;
}

export interface HumanSide {
  ratings: HumanRating[];
  /** Labels of comparison lines (two answers at once): they rate a pair, not one answer. */
  comparisons: number;
  /** Labels whose value could not be read (no rubric choice, no `--field`, several candidate fields). */
  unrated: number;
  /** What the labels were read from, for the report header. */
  source: string;
}

type Scalar = string | number;
const isScalar = (v: unknown): v is Scalar => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

function asRating(v: Scalar): Rating {
  return typeof v === "number" ? { score: v } : { label: v };
}

/** The label and score a judgement carries (a rubric judge's choice, a class, a verdict), if any. */
function ownRating(j: Record<string, unknown>): Rating | undefined {
  const label = isScalar(j.label) ? j.label : undefined;
  const score = typeof j.score === "number" && Number.isFinite(j.score) ? j.score : undefined;
  if (label === undefined && score === undefined) return undefined;
  return { ...(label !== undefined ? { label } : {}), ...(score !== undefined ? { score } : {}) };
}

function rubricOf(j: Record<string, unknown>): string | undefined {
  if (typeof j.rubric === "string") return j.rubric;
  const data = j.data as Record<string, unknown> | undefined;
  return typeof data?.rubric === "string" ? data.rubric : undefined;
}

/**
 * A label's rating: `field`'s answer when given; otherwise the rubric choice (label and score), or
 * the feedback's only scalar answer. Numbers become scores, strings labels.
 */
function humanRating(j: Record<string, unknown>, field: string | undefined): Rating | undefined {
  const feedback = (j.feedback && typeof j.feedback === "object" ? j.feedback : {}) as Record<string, unknown>;
  if (field !== undefined) return isScalar(feedback[field]) ? asRating(feedback[field]) : undefined;
  const own = ownRating(j);
  if (own) return own;
  const scalars = Object.values(feedback).filter(isScalar);
  return scalars.length === 1 ? asRating(scalars[0]!) : undefined;
}

/** Reads a run store; a folder that holds no responses is refused rather than reported as empty. */
export async function readRunStore(dir: string, what: string): Promise<RunData> {
  if (!existsSync(dir)) throw new ConfigError(`${what} ${dir} does not exist (give a folder \`yardstick run\` wrote)`);
  if (!existsSync(join(dir, "responses.jsonl"))) {
    throw new ConfigError(`${what} ${dir} is not a run store (no responses.jsonl)`);
  }
  return readRun(dir);
}

const failed = (j: SampleJudgement): boolean => j.status !== "ok" || typeof j.judgement?.error === "string";

/**
 * A sample's judge calls as scoring sees them: a `<id>#retry` record (the judge's one retry of a
 * reply that did not parse) stands in for call `<id>` when that call failed, and is ignored when
 * it did not.
 */
function resolvedJudgeCalls(judgements: readonly SampleJudgement[]): { call: string; judgement: SampleJudgement }[] {
  const byCall = new Map(judgements.filter((j) => j.stage === "judge").map((j) => [j.call, j]));
  const out: { call: string; judgement: SampleJudgement }[] = [];
  for (const [call, j] of byCall) {
    if (call.endsWith(RETRY_SUFFIX)) {
      if (!byCall.has(call.slice(0, -RETRY_SUFFIX.length))) out.push({ call: call.slice(0, -RETRY_SUFFIX.length), judgement: j });
      continue;
    }
    const retry = byCall.get(`${call}${RETRY_SUFFIX}`);
    out.push({ call, judgement: failed(j) && retry ? retry : j });
  }
  return out;
}

export function judgeSide(run: RunData, task: string | undefined): JudgeSide {
  const side: JudgeSide = { ratings: [], errors: 0, unrated: 0 };
  for (const s of run.samples) {
    if (task !== undefined && s.task !== task) continue;
    for (const { call, judgement: j } of resolvedJudgeCalls(s.judgements)) {
      if (failed(j)) {
        side.errors++;
        continue;
      }
      const judgement = j.judgement ?? {};
      const rating = ownRating(judgement);
      if (!rating) {
        side.unrated++;
        continue;
      }
      const rubric = rubricOf(judgement);
      side.ratings.push({ task: s.task, sample: s.id, call, rating, ...(rubric ? { rubric } : {}) });
    }
  }
  return side;
}

/** Label-stage records of a run store. */
export function humanSideFromRun(run: RunData, task: string | undefined, field: string | undefined): HumanSide {
  const side: HumanSide = { ratings: [], comparisons: 0, unrated: 0, source: `label records of ${run.dir}` };
  for (const s of run.samples) {
    if (task !== undefined && s.task !== task) continue;
    for (const j of s.judgements) {
      if (j.stage !== "label" || j.status !== "ok") continue;
      const judgement = j.judgement ?? {};
      if (typeof judgement.of === "number" && judgement.of > 1) {
        side.comparisons++;
        continue;
      }
      const rating = humanRating(judgement, field);
      if (!rating) {
        side.unrated++;
        continue;
      }
      const rubric = rubricOf(judgement);
      side.ratings.push({ task: s.task, sample: s.id, rater: j.call, rating, ...(rubric ? { rubric } : {}) });
    }
  }
  return side;
}

/**
 * Labels from results JSONL lines. A line's sample names its run task and sample in the metadata
 * `label import` writes (`task`, `sample`); a Quest dataset without them is matched by sample id
 * within `defaultTask`. Lines without a labeler (Quest's own results) each count as a separate rater.
 */
function humanSideFromResults(
  lines: readonly ResultLine[],
  feedbackDefs: Record<string, Feedback>,
  defaultTask: string | undefined,
  task: string | undefined,
  field: string | undefined,
  side: HumanSide,
  fileLabel: string,
): void {
  lines.forEach((line, i) => {
    const samples = Array.isArray(line.sample) ? line.sample : [line.sample];
    if (samples.length !== 1) {
      side.comparisons++;
      return;
    }
    const sample = samples[0]!;
    const meta = sample.metadata ?? {};
    const runTask = typeof meta.task === "string" ? meta.task : defaultTask;
    const runSample = typeof meta.sample === "string" ? meta.sample : sample.id;
    if (runTask === undefined || (task !== undefined && runTask !== task)) return;
    const judgement = { ...rubricJudgement(feedbackDefs, line.feedback), feedback: line.feedback };
    const rating = humanRating(judgement, field);
    if (!rating) {
      side.unrated++;
      return;
    }
    const rater = line.labeler ?? `${fileLabel} line ${i + 1}`;
    side.ratings.push({ task: runTask, sample: runSample, rater, rating, ...(judgement.rubric ? { rubric: judgement.rubric } : {}) });
  });
}

/** The data folder a results file sits in (DIR/results/x.jsonl beside DIR/tasks), if it is one. */
function taskOfResultsFile(file: string): LoadedTask | undefined {
  const results = dirname(file);
  if (basename(results) !== "results" || !existsSync(join(dirname(results), "tasks"))) return undefined;
  const folder = loadDataFolder(dirname(results));
  return [...folder.tasks.values()].find((t) => t.resultsFile === file);
}

/**
 * The human side from LABELS: a run store's label records, every task of a labeling data folder
 * (DIR/tasks beside DIR/results), or one results JSONL (its task definition is looked up when the
 * file sits in a data folder, so rubric answers get their scores).
 */
export async function humanSide(
  labelsPath: string,
  options: { task?: string; field?: string; defaultTask?: string },
): Promise<HumanSide> {
  const path = resolve(labelsPath);
  if (!existsSync(path)) throw new ConfigError(`LABELS ${path} does not exist`);
  const side: HumanSide = { ratings: [], comparisons: 0, unrated: 0, source: path };
  if (statSync(path).isFile()) {
    const task = taskOfResultsFile(path);
    humanSideFromResults(loadResultsFile(path), task?.def.feedback ?? {}, options.defaultTask, options.task, options.field, side, basename(path));
    return side;
  }
  if (existsSync(join(path, "tasks")) && !existsSync(join(path, "responses.jsonl"))) {
    const folder = loadDataFolder(path);
    if (folder.tasks.size === 0) {
      throw new ConfigError(`no labeling task loads from ${path}${folder.problems.length ? `: ${folder.problems.join("; ")}` : ""}`);
    }
    for (const t of folder.tasks.values()) {
      if (!existsSync(t.resultsFile)) continue;
      humanSideFromResults(loadResultsFile(t.resultsFile), t.def.feedback, options.defaultTask, options.task, options.field, side, `${t.id} results`);
    }
    return side;
  }
  const run = await readRunStore(path, "LABELS");
  return humanSideFromRun(run, options.task, options.field);
}
