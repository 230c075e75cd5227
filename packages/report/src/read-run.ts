import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import {
  parseManifest,
  parseResponseLine,
  parseSampleLine,
  parseScoreLine,
  RUN_FORMAT_VERSION,
  type ResponseRecord,
  type RunManifest,
  type RunResults,
  resultsSchema,
  type SentRequest,
  describeIssues,
} from "@yardstick/run-format";
import { CallStats, emptyTaskStats, FIRST_PASS_CALL, type TaskStats } from "./call-stats.js";
import { readLines, taskFileName } from "./jsonl.js";

export type { TaskStats } from "./call-stats.js";

/** A task as the report knows it: from run.json, or guessed from the records when run.json is missing. */
export interface ReportTask {
  key: string;
  name: string;
  language: string;
  competency: string;
  mainScore?: string;
}

/** A judge or label record attached to a sample. */
export interface SampleJudgement {
  stage: string;
  call: string;
  status: string;
  judgement?: Record<string, unknown>;
  text?: string;
  error?: string;
}

/** Everything the report shows of one sample; each part is absent when the store does not have it. */
export interface StoredSample {
  task: string;
  id: string;
  /** Dataset position, or the order the sample was first seen when the store has no position. */
  index: number;
  request?: SentRequest;
  response?: string;
  error?: string;
  cached?: boolean;
  prediction?: unknown;
  gold?: unknown;
  hasGold: boolean;
  scores?: Record<string, number | null>;
  judgements: SampleJudgement[];
}

export interface RunData {
  dir: string;
  label: string;
  manifest?: RunManifest;
  formatVersion?: number;
  results?: RunResults;
  /** What is missing or unreadable, one sentence each; the report shows them and renders the rest. */
  problems: string[];
  tasks: ReportTask[];
  samples: StoredSample[];
  stats: Map<string, TaskStats>;
}

const MAX_LINE_PROBLEMS = 5;

export interface ReadRunOptions {
  /** Read only this task's records (what `yardstick show` needs of a large store). */
  task?: string;
  /**
   * Keep at most this many samples of each task in `samples`: the first by dataset position (or,
   * for a task without sample records, the first answered). The task counts in `stats` still cover
   * every record, and a note in `problems` says how many were left out. Default: every sample.
   */
  samplesPerTask?: number;
}

/** Reads a run store for the report. Never throws for a missing or damaged store: it lists the problem instead. */
export async function readRun(dirArg: string, options: ReadRunOptions = {}): Promise<RunData> {
  const dir = resolve(dirArg);
  const run: RunData = { dir, label: basename(dir), problems: [], tasks: [], samples: [], stats: new Map() };
  if (!existsSync(dir)) {
    run.problems.push(`${dir} does not exist: nothing of this run can be shown`);
    return run;
  }
  await readManifestInto(run);
  await readResultsInto(run);
  const shown = await chooseShownSamples(run, options);
  const samples = new Map<string, Map<string, StoredSample>>();
  await readResponsesInto(run, samples, options.task, shown);
  collectTasks(run, samples);
  for (const task of run.tasks) {
    if (options.task !== undefined && task.key !== options.task) continue;
    await readSampleRecordsInto(run, task.key, samples, shown);
    await readScoresInto(run, task.key, samples, shown);
  }
  shown.noteLeftOut(run);
  for (const task of run.tasks) {
    const bySample = samples.get(task.key);
    if (!bySample) continue;
    // A loop, not push(...): a task can hold more samples than a call has room for arguments.
    for (const sample of [...bySample.values()].sort((a, b) => a.index - b.index)) run.samples.push(sample);
  }
  return run;
}

async function readManifestInto(run: RunData): Promise<void> {
  const path = join(run.dir, "run.json");
  if (!existsSync(path)) {
    run.problems.push("run.json is missing: the model, options and task details are unknown");
    return;
  }
  try {
    const { manifest, formatVersion } = parseManifest(await readFile(path, "utf8"), path);
    run.manifest = manifest;
    run.formatVersion = formatVersion;
    const model = manifest.models.generate;
    if (model) run.label = `${basename(run.dir)} (${model.modelId})`;
  } catch (err) {
    run.problems.push(`run.json: ${(err as Error).message}`);
  }
}

async function readResultsInto(run: RunData): Promise<void> {
  const path = join(run.dir, "results.json");
  if (!existsSync(path)) {
    run.problems.push("results.json is missing (the run did not finish or was not scored): task scores and intervals are not shown");
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (err) {
    run.problems.push(`results.json is not valid JSON (${(err as Error).message}): task scores are not shown`);
    return;
  }
  const version = (json as { formatVersion?: unknown } | null)?.formatVersion;
  if (typeof version === "number" && version > RUN_FORMAT_VERSION) {
    run.problems.push(
      `results.json was written by a newer yardstick (run-store format ${version}; this report reads formats 1 to ${RUN_FORMAT_VERSION}): task scores are not shown`,
    );
    return;
  }
  const parsed = resultsSchema.safeParse(json);
  if (parsed.success) run.results = parsed.data;
  else run.problems.push(`results.json is not a results file (${describeIssues(parsed.error)}): task scores are not shown`);
}

function sampleOf(samples: Map<string, Map<string, StoredSample>>, task: string, id: string): StoredSample {
  let byId = samples.get(task);
  if (!byId) samples.set(task, (byId = new Map()));
  let s = byId.get(id);
  if (!s) {
    s = { task, id, index: Number.MAX_SAFE_INTEGER - 1_000_000 + byId.size, hasGold: false, judgements: [] };
    byId.set(id, s);
  }
  return s;
}

function statsOf(run: RunData, task: string): TaskStats {
  let s = run.stats.get(task);
  if (!s) run.stats.set(task, (s = emptyTaskStats()));
  return s;
}

/**
 * The samples `readRun` keeps: all of them, or per task the first `perTask` by dataset position,
 * chosen from the task's sample records before the answers are read (a task without them keeps
 * the first `perTask` answered).
 */
class ShownSamples {
  /** Tasks whose kept samples are chosen; a task missing here keeps the first it is asked about. */
  readonly chosen = new Map<string, { ids: Set<string>; total: number }>();
  private readonly firstSeen = new Map<string, { ids: Set<string>; leftOut: boolean }>();

  constructor(readonly perTask: number) {}

  get all(): boolean {
    return this.perTask === Number.POSITIVE_INFINITY;
  }

  /** Whether every sample is kept after all: each task's sample records are within the limit. */
  keepsAll(run: RunData): boolean {
    if (this.all) return true;
    const tasks = run.manifest?.tasks ?? [];
    return tasks.length > 0 && tasks.every((t) => {
      const chosen = this.chosen.get(t.key);
      return chosen !== undefined && chosen.total <= this.perTask;
    });
  }

  has(task: string, id: string): boolean {
    if (this.all) return true;
    const chosen = this.chosen.get(task);
    if (chosen) return chosen.ids.has(id);
    let seen = this.firstSeen.get(task);
    if (!seen) this.firstSeen.set(task, (seen = { ids: new Set(), leftOut: false }));
    if (seen.ids.has(id)) return true;
    if (seen.ids.size < this.perTask) {
      seen.ids.add(id);
      return true;
    }
    seen.leftOut = true;
    return false;
  }

  /** One sentence per task whose samples were not all kept. */
  noteLeftOut(run: RunData): void {
    const where = (task: string): string => `\`yardstick show ${run.dir} --task ${task} --sample ID\` prints any sample`;
    for (const [task, { ids, total: records }] of this.chosen) {
      const total = run.results?.meta.tasks[task]?.samples ?? records;
      if (total > ids.size) run.problems.push(`the sample browser holds the first ${ids.size.toLocaleString("en-US")} of the ${total.toLocaleString("en-US")} samples of ${task} (by dataset position); its counts and scores cover all of them; ${where(task)}`);
    }
    for (const [task, { ids, leftOut }] of this.firstSeen) {
      if (leftOut) run.problems.push(`the sample browser holds the first ${ids.size.toLocaleString("en-US")} answered samples of ${task}; its counts and scores cover all of them; ${where(task)}`);
    }
  }
}

async function chooseShownSamples(run: RunData, options: ReadRunOptions): Promise<ShownSamples> {
  const perTask = options.samplesPerTask ?? Number.POSITIVE_INFINITY;
  if (!(perTask >= 0)) throw new Error(`readRun: samplesPerTask must be a number of samples, not ${perTask}`);
  const shown = new ShownSamples(perTask);
  if (shown.all) return shown;
  for (const task of run.manifest?.tasks ?? []) {
    if (options.task !== undefined && task.key !== options.task) continue;
    const path = join(run.dir, "samples", taskFileName(task.key));
    if (existsSync(path)) shown.chosen.set(task.key, await firstByPosition(path, perTask));
  }
  return shown;
}

/** The ids of the `count` samples with the lowest dataset positions, and how many sample records there are. */
async function firstByPosition(path: string, count: number): Promise<{ ids: Set<string>; total: number }> {
  let kept: { index: number; id: string }[] = [];
  let total = 0;
  const cut = (): void => {
    kept.sort((a, b) => a.index - b.index);
    // A sample recorded twice (a resumed run) holds one place.
    kept = kept.filter((k, i) => i === 0 || k.id !== kept[i - 1]!.id).slice(0, count);
  };
  for await (const { text } of readLines(path)) {
    const parsed = parseSampleLine(text);
    if (!parsed.ok) continue; // reported when the records are read
    total++;
    kept.push({ index: parsed.record.index, id: parsed.record.sample });
    if (kept.length >= 2 * count + 1024) cut();
  }
  cut();
  return { ids: new Set(kept.map((k) => k.id)), total };
}

/**
 * What the report keeps of a response record: no logprobs, no params, and every repeated string
 * (few-shot messages, labels, error messages) shared through `pool`, so a store of 100,000 samples
 * is held once, not once per record.
 */
interface SlimRecord {
  task: string;
  sample: string;
  turn: number;
  stage: string;
  call: string;
  status: string;
  cached: boolean;
  promptTokens?: number;
  completionTokens?: number;
  latencyMs?: number;
  error?: string;
  response?: string;
  judgement?: Record<string, unknown>;
}

class StringPool {
  private readonly strings = new Map<string, string>();
  get(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    this.strings.set(s, s);
    return s;
  }
}

function slimRecord(r: ResponseRecord, pool: StringPool): SlimRecord {
  const slim: SlimRecord = {
    task: pool.get(r.task),
    sample: r.sample,
    turn: r.turn,
    stage: r.stage,
    call: r.call ?? "",
    status: r.status,
    cached: r.cached,
  };
  if (r.usage) {
    slim.promptTokens = r.usage.promptTokens;
    slim.completionTokens = r.usage.completionTokens;
  }
  if (r.latencyMs !== undefined) slim.latencyMs = r.latencyMs;
  if (r.status === "error") slim.error = pool.get(`${r.error?.kind ?? "error"}${r.error?.status ? ` ${r.error.status}` : ""}: ${r.error?.message ?? ""}`);
  else if (r.status === "pending") slim.error = `pending in batch ${r.batch?.id ?? "?"}`;
  else if (r.choices?.length) slim.response = pool.get(r.choices.map((c) => c.text).join("\n\n--- next choice ---\n\n"));
  else if (r.choiceLogprobs) slim.response = `log-probabilities: ${r.choiceLogprobs.map((v) => v.toFixed(3)).join(", ")}`;
  if (r.judgement) slim.judgement = r.judgement;
  return slim;
}

/** The request with its strings shared through the pool and the sampling parameters left out (the report does not show them). */
function slimRequest(request: SentRequest, pool: StringPool): SentRequest {
  switch (request.kind) {
    case "chat":
      return {
        kind: "chat",
        params: {},
        messages: request.messages.map((m) => ({
          role: m.role,
          content:
            typeof m.content === "string"
              ? pool.get(m.content)
              : m.content.map((p) => (p.type === "text" ? { type: "text" as const, text: pool.get(p.text) } : { type: "image_url" as const, image_url: { url: pool.get(p.image_url.url) } })),
        })),
      };
    case "completion":
      return { kind: "completion", params: {}, prompt: pool.get(request.prompt) };
    case "loglikelihood":
      return { kind: "loglikelihood", context: pool.get(request.context), continuations: request.continuations.map((c) => pool.get(c)) };
  }
}

async function readResponsesInto(
  run: RunData,
  samples: Map<string, Map<string, StoredSample>>,
  onlyTask: string | undefined,
  shown: ShownSamples,
): Promise<void> {
  const path = join(run.dir, "responses.jsonl");
  if (!existsSync(path)) {
    run.problems.push("responses.jsonl is missing: prompts, responses, errors and token counts are not shown");
    return;
  }
  // Every generate record counts; the latest record of each (task, sample, turn, stage, call) of a
  // kept sample is shown, with the request from the first record that has it.
  const counts = new CallStats();
  const pool = new StringPool();
  const latest = new Map<string, SlimRecord>();
  const requests = new Map<string, SentRequest>();
  let bad = 0;
  // With samples left out, most records are only counted: their requests are not parsed.
  const countOnly = !shown.keepsAll(run);
  for await (const { text, line } of readLines(path)) {
    let parsed = parseResponseLine(text, countOnly ? { request: false } : {});
    if (!parsed.ok) {
      if (bad++ < MAX_LINE_PROBLEMS) run.problems.push(`responses.jsonl line ${line} is unreadable and was skipped: ${parsed.problem}`);
      continue;
    }
    let r = parsed.record;
    if (onlyTask !== undefined && r.task !== onlyTask) continue;
    if (r.stage === "generate") counts.add(r, statsOf(run, r.task));
    if (!shown.has(r.task, r.sample)) continue;
    if (countOnly) {
      parsed = parseResponseLine(text);
      if (parsed.ok) r = parsed.record;
    }
    const id = `${r.task}\u0000${r.sample}\u0000${r.turn}\u0000${r.stage}\u0000${r.call ?? ""}`;
    latest.set(id, slimRecord(r, pool));
    if (r.request) requests.set(id, slimRequest(r.request, pool));
  }
  if (bad > MAX_LINE_PROBLEMS) run.problems.push(`responses.jsonl: ${bad - MAX_LINE_PROBLEMS} more unreadable lines were skipped`);
  counts.addTotals((task) => statsOf(run, task));
  const lastTurn = new Map<string, number>();
  for (const r of latest.values()) {
    if (r.stage !== "generate") continue;
    const key = `${r.task}\u0000${r.sample}`;
    if ((lastTurn.get(key) ?? 0) < r.turn) lastTurn.set(key, r.turn);
  }
  for (const [id, r] of latest) {
    const sample = sampleOf(samples, r.task, r.sample);
    if (r.stage !== "generate") {
      sample.judgements.push({
        stage: r.stage,
        call: r.call,
        status: r.status,
        ...(r.judgement ? { judgement: r.judgement } : {}),
        ...(r.response !== undefined ? { text: r.response } : {}),
        ...(r.error ? { error: r.error } : {}),
      });
      continue;
    }
    // A loglikelihood row's first pass is not its answer: the row's own record is.
    if (lastTurn.get(`${r.task}\u0000${r.sample}`) !== r.turn || r.call === FIRST_PASS_CALL) continue;
    const request = requests.get(id);
    if (request) sample.request = request;
    sample.cached = r.cached;
    if (r.error !== undefined) sample.error = r.error;
    else if (r.response !== undefined) sample.response = r.response;
  }
}

/** Tasks from run.json; tasks seen only in the records (a store without run.json) are added with what is known. */
function collectTasks(run: RunData, samples: Map<string, Map<string, StoredSample>>): void {
  const seen = new Set<string>();
  for (const t of run.manifest?.tasks ?? []) {
    seen.add(t.key);
    run.tasks.push({
      key: t.key,
      name: t.name,
      language: t.language,
      competency: typeof t.competency === "string" ? t.competency : "",
      ...(typeof t.mainScore === "string" ? { mainScore: t.mainScore } : {}),
    });
  }
  const extra = [...Object.keys(run.results?.meta.tasks ?? {}), ...samples.keys()];
  for (const key of extra) {
    if (seen.has(key)) continue;
    seen.add(key);
    const slash = key.lastIndexOf("/");
    run.tasks.push({ key, name: slash > 0 ? key.slice(0, slash) : key, language: slash > 0 ? key.slice(slash + 1) : "", competency: "" });
  }
}

async function readSampleRecordsInto(run: RunData, task: string, samples: Map<string, Map<string, StoredSample>>, shown: ShownSamples): Promise<void> {
  const path = join(run.dir, "samples", taskFileName(task));
  if (!existsSync(path)) {
    if (run.formatVersion !== 1) run.problems.push(`samples/${taskFileName(task)} is missing: gold answers of ${task} are not shown`);
    return;
  }
  let bad = 0;
  for await (const { text, line } of readLines(path)) {
    const parsed = parseSampleLine(text);
    if (!parsed.ok) {
      if (bad++ < MAX_LINE_PROBLEMS) run.problems.push(`samples/${taskFileName(task)} line ${line} is unreadable and was skipped: ${parsed.problem}`);
      continue;
    }
    const r = parsed.record;
    if (!shown.has(task, r.sample)) continue;
    const s = sampleOf(samples, task, r.sample);
    s.index = r.index;
    if (r.labelInRaw) {
      s.gold = r.raw.label;
      s.hasGold = "label" in r.raw;
    } else if ("label" in r) {
      s.gold = r.label;
      s.hasGold = true;
    }
  }
}

async function readScoresInto(run: RunData, task: string, samples: Map<string, Map<string, StoredSample>>, shown: ShownSamples): Promise<void> {
  const path = join(run.dir, "scores", taskFileName(task));
  if (!existsSync(path)) {
    if (run.results) run.problems.push(`scores/${taskFileName(task)} is missing: per-sample scores and extracted answers of ${task} are not shown`);
    return;
  }
  let bad = 0;
  for await (const { text, line } of readLines(path)) {
    const parsed = parseScoreLine(text);
    if (!parsed.ok) {
      if (bad++ < MAX_LINE_PROBLEMS) run.problems.push(`scores/${taskFileName(task)} line ${line} is unreadable: ${parsed.problem}`);
      continue;
    }
    if (!shown.has(task, parsed.record.sample)) continue;
    const s = sampleOf(samples, task, parsed.record.sample);
    s.index = parsed.record.index;
    s.prediction = parsed.record.prediction;
    s.scores = parsed.record.scores;
  }
}
