import { readFile } from "node:fs/promises";
import { ConfigError, type PluginRef, type Registry, type TaskSpec } from "@yardstick/core";
import { RUN_FORMAT_VERSION, type RunManifest, type RunResults } from "@yardstick/run-format";
import { type CompetencyRollup, type ResultsTree, aggregateResults } from "./aggregate.js";
import type { TaskOutcome } from "./evaluate.js";
import { judgementOfRecord } from "./judgement-records.js";
import { compactTurn, type TurnState } from "./response-records.js";
import type { RunStore } from "./run-store.js";
import { scoreTask } from "./score-task.js";
import { TaskRows } from "./task-rows.js";
import { type Summarize, simpleSummary } from "./summary.js";
import { withLabels } from "./task-data.js";
import { FIRST_PASS_CALL } from "./turn-request.js";

export interface ScoreStoreSettings {
  store: RunStore;
  registry: Registry;
  /** Computes n, stderr and a confidence interval of per-sample scores (injected: see @yardstick/metrics). */
  summarize?: Summarize;
  /** Bootstrap seed; default the run's `--seed` from run.json, else 1234. */
  seed?: number;
  competencyRollups?: Record<string, CompetencyRollup>;
  /** Score only these task keys (default: every task of the manifest). */
  taskKeys?: readonly string[];
  /** Replace every task's metrics with these (re-scoring with a fixed metric). */
  metrics?: readonly PluginRef[];
  /** Add these metrics after each task's own. */
  addMetrics?: readonly PluginRef[];
  /** The score that represents each task (default the task's own `mainScore`). */
  mainScore?: string;
  log?: (message: string) => void;
}

export interface ScoreStoreResult {
  manifest: RunManifest;
  results: ResultsTree;
  tasks: TaskOutcome[];
  /** The results.json written: the results tree, format version and meta. */
  written: RunResults;
}

/**
 * Scores a run store from what it holds and nothing else: the tasks of run.json, the sample records
 * and the latest answer of each turn. Inputs are put in dataset order first, so the same answers
 * and seed give byte-identical scores/ and results.json whatever the arrival order, concurrency,
 * cache state or shard layout. Writes scores/<task>.jsonl and results.json; sends no request.
 */
export async function scoreStore(settings: ScoreStoreSettings): Promise<ScoreStoreResult> {
  const { store, registry } = settings;
  const { manifest, formatVersion } = await store.readManifest();
  if (formatVersion < RUN_FORMAT_VERSION) {
    throw new ConfigError(
      `this run store is in run-store format ${formatVersion}, which keeps no sample records, and scoring reads them; run the same command with this yardstick into a new --out folder (its answers come from the request cache)`,
      { file: store.manifestPath },
    );
  }
  const seed = settings.seed ?? (typeof manifest.options.seed === "number" ? manifest.options.seed : 1234);
  const summarize = settings.summarize ?? simpleSummary;
  let tasks = manifest.tasks as unknown as TaskSpec[];
  if (settings.taskKeys) {
    const known = new Set(tasks.map((t) => t.key));
    const unknown = settings.taskKeys.filter((k) => !known.has(k));
    if (unknown.length > 0) {
      throw new ConfigError(`no task ${unknown.join(", ")} in this run; its tasks: ${[...known].join(", ")}`, { file: store.manifestPath });
    }
    const wanted = new Set(settings.taskKeys);
    tasks = tasks.filter((t) => wanted.has(t.key));
  }
  tasks = tasks.map((t) => withScoring(t, settings));

  // Answers and labels repeat a lot ("Answer: Positive" a million times): keep one copy of each.
  const strings = createInterner();
  const rowsByTask = new Map<string, TaskRows>();
  for (const task of tasks) {
    const rows = await readTaskRows(task.key);
    // Judged tasks keep their judge and label records; tasks without a judge pay nothing for them.
    if (task.judge) rows.judgements = new Map();
    rowsByTask.set(task.key, rows);
  }
  await attachAnswers(store, rowsByTask, strings, settings.log);
  const outcomes: TaskOutcome[] = [];
  for (const task of tasks) {
    const rows = rowsByTask.get(task.key)!;
    rowsByTask.delete(task.key);
    outcomes.push(await scoreOneTask(task, rows));
  }
  // Re-scoring some tasks keeps the others' results as they were.
  const keptPerSampleKeys = new Map<string, string>();
  const kept = settings.taskKeys ? await keptOutcomes(store, manifest, new Set(tasks.map((t) => t.key)), keptPerSampleKeys) : [];
  const order = new Map(manifest.tasks.map((t, i) => [t.key, i]));
  const all = [...kept, ...outcomes].sort((a, b) => order.get(a.key)! - order.get(b.key)!);
  const results = aggregateResults(all, settings.competencyRollups);
  const generate = manifest.models.generate;
  const written: RunResults = {
    formatVersion: RUN_FORMAT_VERSION,
    ...results,
    meta: {
      fingerprint: manifest.fingerprint,
      model: generate?.modelId ?? "",
      provider: generate?.provider ?? "",
      ...(manifest.shard ? { shard: manifest.shard } : {}),
      tasks: Object.fromEntries(
        all.map((t) => [t.key, {
          samples: t.samples,
          errors: t.errors,
          unanswered: t.unanswered,
          ...(t.summary || keptPerSampleKeys.has(t.key) ? { perSampleKey: t.summary?.key ?? keptPerSampleKeys.get(t.key)! } : {}),
          ...(t.failure ? { failure: t.failure } : {}),
        }]),
      ),
    },
  };
  await store.writeResults(written);
  return { manifest, results, tasks: outcomes, written };

  /** The task's sample records, one row each (a sample recorded twice by a resumed run counts once). */
  async function readTaskRows(taskKey: string): Promise<TaskRows> {
    const rows = new TaskRows();
    for await (const rec of store.readSamples(taskKey)) rows.add(rec, strings.intern);
    // Packed before the pass over the answers, which is where scoring peaks.
    rows.compact();
    if (store.unreadableLines.length > 0) {
      const first = store.unreadableLines[0]!;
      settings.log?.(`warning: ${first.file}: ${store.unreadableLines.length} unreadable line(s) skipped (line ${first.line}: ${first.problem})`);
    }
    return rows;
  }

  async function scoreOneTask(task: TaskSpec, rows: TaskRows): Promise<TaskOutcome> {
    const labelCounts = new Map<string, number>();
    for (const label of rows.labels) {
      if (typeof label === "string") labelCounts.set(label, (labelCounts.get(label) ?? 0) + 1);
    }
    const outcome: TaskOutcome = {
      key: task.key,
      name: task.name,
      language: task.language,
      competency: task.competency,
      aggregationGroup: task.aggregationGroup,
      mainScore: task.mainScore,
      main: undefined,
      metrics: {},
      samples: 0,
      errors: 0,
      unanswered: 0,
    };
    await scoreTask({ registry, store, summarize, seed, log: settings.log }, withLabels(task, labelCounts), rows, outcome);
    return outcome;
  }
}

/**
 * The results of the tasks not being scored again, read back from the store's results.json (in
 * manifest order), so re-scoring some tasks leaves the others' results as they were.
 */
async function keptOutcomes(
  store: RunStore,
  manifest: RunManifest,
  rescored: Set<string>,
  keptPerSampleKeys: Map<string, string>,
): Promise<TaskOutcome[]> {
  let previous: RunResults;
  try {
    previous = JSON.parse(await readFile(store.resultsPath, "utf8")) as RunResults;
  } catch {
    return []; // no results yet (or unreadable): only the re-scored tasks are reported
  }
  const out: TaskOutcome[] = [];
  for (const task of manifest.tasks as unknown as TaskSpec[]) {
    if (rescored.has(task.key)) continue;
    const meta = previous.meta?.tasks?.[task.key];
    const lang = (previous as Record<string, unknown>)[task.language || "all"] as Record<string, Record<string, unknown>> | undefined;
    const metrics = lang?.[task.competency || "general"]?.[task.name] as Record<string, unknown> | undefined;
    if (!meta || !metrics || typeof metrics !== "object") continue;
    const main = metrics[task.mainScore];
    out.push({
      key: task.key,
      name: task.name,
      language: task.language,
      competency: task.competency,
      aggregationGroup: task.aggregationGroup,
      mainScore: task.mainScore,
      main: typeof main === "number" ? main : undefined,
      metrics,
      samples: meta.samples,
      errors: meta.errors,
      unanswered: meta.unanswered,
      ...(meta.failure ? { failure: meta.failure } : {}),
      ...(typeof metrics.not_computed === "string" ? { notComputed: metrics.not_computed } : {}),
    });
    if (meta.perSampleKey) keptPerSampleKeys.set(task.key, meta.perSampleKey);
  }
  return out;
}

/** The task as re-scoring sees it: metrics replaced or added, main score overridden. */
function withScoring(task: TaskSpec, s: ScoreStoreSettings): TaskSpec {
  if (!s.metrics && !s.addMetrics && !s.mainScore) return task;
  const metrics = [...(s.metrics ?? task.metrics), ...(s.addMetrics ?? [])];
  return { ...task, metrics, mainScore: s.mainScore ?? task.mainScore };
}

/**
 * One pass over responses.jsonl: the latest generate record of each (task, sample, turn), attached
 * to the sample's row (the text alone for the common single-turn answer); for judged tasks, also
 * every judge and label record (resolved to the latest per call when the task is scored).
 */
async function attachAnswers(
  store: RunStore,
  rowsByTask: Map<string, TaskRows>,
  strings: Interner,
  log: ((m: string) => void) | undefined,
): Promise<void> {
  let withoutSample = 0;
  let seq = 0;
  for await (const rec of store.readResponses({ request: false })) {
    seq++;
    // Neither a pending batch request nor one the run's stop cut short is an answer.
    if (rec.status === "pending" || rec.error?.kind === "interrupted") continue;
    if (rec.stage !== "generate") {
      const judged = rowsByTask.get(rec.task);
      const row = judged?.judgements ? judged.rowOfSample(rec.sample) : undefined;
      if (row !== undefined) {
        const list = judged!.judgements!.get(row);
        const kept = judgementOfRecord(rec, seq);
        if (list) list.push(kept);
        else judged!.judgements!.set(row, [kept]);
      }
      continue;
    }
    // A loglikelihood row's first pass is not its answer: the row's own record (no call) is.
    if (rec.call === FIRST_PASS_CALL) continue;
    const rows = rowsByTask.get(rec.task);
    if (!rows) continue;
    const row = rows.rowOfSample(rec.sample);
    if (row === undefined) {
      withoutSample++;
      continue;
    }
    const state = compactTurn(rec, false);
    if (state.text !== undefined) state.text = strings.intern(state.text);
    const prior = rows.answers[row];
    if (rec.turn === 1 && !Array.isArray(prior)) {
      rows.answers[row] = state.text !== undefined && !state.error ? state.text : state;
      continue;
    }
    const turns: TurnState[] = Array.isArray(prior) ? prior : prior === undefined ? [] : [typeof prior === "string" ? { text: prior } : prior];
    turns[rec.turn - 1] = state;
    rows.answers[row] = turns;
  }
  for (const rows of rowsByTask.values()) rows.forgetIds();
  if (store.unreadableLines.length > 0) {
    const first = store.unreadableLines[0]!;
    log?.(`warning: ${first.file}: ${store.unreadableLines.length} unreadable line(s) skipped (line ${first.line}: ${first.problem}); their samples count as unanswered`);
  }
  if (withoutSample > 0) log?.(`warning: ${store.responsesPath}: ${withoutSample} answer(s) have no sample record and were not scored`);
}

interface Interner {
  intern(s: string): string;
}

/** Shares one copy of each short string; long ones (unlikely to repeat) are kept as they are. */
function createInterner(maxLength = 256, maxEntries = 100_000): Interner {
  const table = new Map<string, string>();
  return {
    intern(s) {
      if (s.length > maxLength) return s;
      const kept = table.get(s);
      if (kept !== undefined) return kept;
      if (table.size < maxEntries) table.set(s, s);
      return s;
    },
  };
}
