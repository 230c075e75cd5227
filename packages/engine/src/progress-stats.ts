import type { ModelErrorRecord, RetryNotice, TokenUsage } from "@yardstick/core";
import type { EndpointTotals, RequestTotals, RunSession } from "@yardstick/run-format";
import { type OverallLineView, type TaskLineView, displayWidth, formatDuration } from "./progress-line.js";
import type { ConcurrencyReading, EndpointReading, ProgressReporter, RequestPlace, RunPhase, StageName } from "./progress.js";

interface RunningTask {
  name: string;
  total: number;
  done: number;
  fromStore: number;
  startedAt: number;
}

/**
 * The counters behind the progress display and the end-of-run statistics: a `ProgressReporter`
 * that draws nothing (what `--quiet` uses), read by the terminal display and written to
 * run-stats.json at the end.
 */
export interface RunStatsCollector extends Required<Omit<ProgressReporter, "log" | "close">> {
  /** The running tasks, most recently started last. */
  runningTasks(): TaskLineView[];
  overall(): OverallLineView;
  /** The session so far (`aborted`: whether the run was stopped before it finished). */
  session(aborted: boolean): RunSession;
}

const emptyTotals = (): RequestTotals => ({ requests: 0, cacheHits: 0, retries: 0, errors: 0, interrupted: 0, tokens: { input: 0, output: 0 } });

export function createRunStats(settings: { now?: () => number; wallClock?: () => Date } = {}): RunStatsCollector {
  const now = settings.now ?? (() => performance.now());
  const wallClock = settings.wallClock ?? (() => new Date());
  const startedAt = wallClock();
  const startedMs = now();
  const running: RunningTask[] = [];
  const totals = emptyTotals();
  const stages: Partial<Record<StageName, RequestTotals>> = {};
  const byTask: Record<string, RequestTotals> = {};
  const retriesBy: Record<string, number> = {};
  let tasksPlanned = 0;
  let tasksDone = 0;
  let samplesDone = 0;
  let samplesFromStore = 0;
  // The time finished tasks took, for the ETA of the tasks not started yet.
  let finishedSeconds = 0;
  let firstStart: number | undefined;
  let inFlight = 0;
  let concurrency: ConcurrencyReading | undefined;
  let endpoints: EndpointReading | undefined;
  // When each phase began, in order (setup begins with the collector).
  const phaseMarks: { name: RunPhase | "setup"; at: number }[] = [{ name: "setup", at: startedMs }];

  const add = (at: RequestPlace, change: (t: RequestTotals) => void): void => {
    change(totals);
    change((stages[at.stage] ??= emptyTotals()));
    change((byTask[at.task] ??= emptyTotals()));
  };
  const current = (): RunningTask | undefined => running[running.length - 1];
  const view = (t: RunningTask): TaskLineView => ({ name: t.name, total: t.total, done: t.done, fromStore: t.fromStore, elapsedSeconds: (now() - t.startedAt) / 1000 });

  const overallRate = (): number => {
    if (firstStart === undefined) return 0;
    const seconds = (now() - firstStart) / 1000;
    return seconds > 0 ? (samplesDone - samplesFromStore) / seconds : 0;
  };

  /** Seconds left: the running tasks' remaining samples at the current rate, plus the tasks not started at the pace of the finished ones (or of the running one). */
  const eta = (): number => {
    const rate = overallRate();
    if (rate <= 0) return Number.NaN;
    let remaining = 0;
    for (const t of running) {
      if (t.total <= 0) return Number.NaN;
      remaining += Math.max(0, t.total - t.done);
    }
    let seconds = remaining / rate;
    const notStarted = Math.max(0, tasksPlanned - tasksDone - running.length);
    if (notStarted > 0) {
      const perTask = tasksDone > 0 ? finishedSeconds / tasksDone : running.reduce((a, t) => a + t.total, 0) / Math.max(1, running.length) / rate;
      seconds += notStarted * perTask;
    }
    return seconds;
  };

  return {
    plan(tasks) {
      tasksPlanned += tasks;
    },
    startTask(taskKey, total) {
      const t = now();
      firstStart ??= t;
      running.push({ name: taskKey, total, done: 0, fromStore: 0, startedAt: t });
      // A stage that did not say how many tasks it runs still counts the ones it starts.
      if (tasksPlanned < tasksDone + running.length) tasksPlanned = tasksDone + running.length;
    },
    advance(n, fromStore = false) {
      const task = current();
      samplesDone += n;
      if (fromStore) samplesFromStore += n;
      if (!task) return;
      task.done += n;
      if (fromStore) task.fromStore += n;
    },
    endTask(stopped = false) {
      const task = running.pop();
      if (!task || stopped) return;
      tasksDone++;
      finishedSeconds += (now() - task.startedAt) / 1000;
    },
    cached(at) {
      add(at, (t) => t.cacheHits++);
    },
    sent(at) {
      inFlight++;
      add(at, (t) => t.requests++);
    },
    withdrawn(at) {
      inFlight = Math.max(0, inFlight - 1);
      add(at, (t) => t.requests--);
    },
    answered(at, usage: TokenUsage | undefined) {
      inFlight = Math.max(0, inFlight - 1);
      if (!usage) return;
      add(at, (t) => {
        t.tokens.input += usage.promptTokens;
        t.tokens.output += usage.completionTokens;
      });
    },
    failed(at, error: ModelErrorRecord) {
      inFlight = Math.max(0, inFlight - 1);
      if (error.kind === "interrupted") add(at, (t) => (t.interrupted = (t.interrupted ?? 0) + 1));
      else add(at, (t) => t.errors++);
    },
    retry(at, notice: RetryNotice) {
      add(at, (t) => t.retries++);
      const why = notice.status !== undefined ? String(notice.status) : notice.kind;
      retriesBy[why] = (retriesBy[why] ?? 0) + 1;
    },
    watchConcurrency(read) {
      concurrency = read;
    },
    watchEndpoints(read) {
      endpoints = read;
    },
    phase(name) {
      phaseMarks.push({ name, at: now() });
    },
    runningTasks: () => running.map(view),
    overall() {
      const limiter = concurrency?.();
      return {
        tasksDone,
        tasksPlanned,
        samplesPerSecond: overallRate(),
        etaSeconds: eta(),
        cacheHits: totals.cacheHits,
        retries: totals.retries,
        errors: totals.errors,
        inFlight: limiter?.inFlight ?? inFlight,
        limit: limiter?.limit,
      };
    },
    session(aborted) {
      const endedAt = wallClock();
      const endMs = now();
      const phases: Partial<Record<RunPhase | "setup", number>> = {};
      phaseMarks.forEach((m, i) => {
        const until = phaseMarks[i + 1]?.at ?? endMs;
        phases[m.name] = Math.round((phases[m.name] ?? 0) * 1000 + Math.max(0, until - m.at)) / 1000;
      });
      return {
        startedAt: startedAt.toISOString(),
        endedAt: endedAt.toISOString(),
        wallSeconds: Math.round(Math.max(0, endMs - startedMs)) / 1000,
        aborted,
        tasks: { planned: tasksPlanned, done: tasksDone },
        samples: { done: samplesDone, fromStore: samplesFromStore },
        ...structuredClone(totals),
        retriesBy: { ...retriesBy },
        stages: structuredClone(stages),
        byTask: structuredClone(byTask),
        ...endpointTotals(endpoints),
        phases,
      };
    },
  };
}

/** The provider's in-flight limiter (the OpenAI-compatible and Anthropic providers expose theirs), read for the display. */
export function limiterReading(model: unknown): ConcurrencyReading | undefined {
  const limiter = (model as { limiter?: { inFlight?: unknown; limit?: unknown } } | undefined)?.limiter;
  if (!limiter || typeof limiter.inFlight !== "number" || typeof limiter.limit !== "number") return undefined;
  return () => ({ inFlight: limiter.inFlight as number, limit: limiter.limit as number });
}

/** The answering model's per-base-URL counts, when it has several base URLs. */
export function endpointReading(model: unknown): EndpointReading | undefined {
  const read = (model as { endpointStats?: unknown } | undefined)?.endpointStats;
  if (typeof read !== "function") return undefined;
  return () => (read as () => EndpointTotals[]).call(model);
}

/** `{endpoints}` for a session when the model has more than one base URL (one is the whole run's totals). */
function endpointTotals(read: EndpointReading | undefined): { endpoints?: EndpointTotals[] } {
  const list = read?.();
  return list && list.length > 1 ? { endpoints: list.map((e) => ({ ...e })) } : {};
}

/**
 * The end-of-run summary: `run statistics: wall time 1m02s · setup 0.3s, answer 1m01s, score 0.5s ·
 * 1800 request(s) sent · 12 cache hit(s) · 139 retries (429: 36, 500: 103) · 0 error(s) · tokens
 * 1.2M in / 80k out`, then for a model with
 * several base URLs `<url>: 900 attempt(s), 2 failed, mean 310 ms` for each; broken between its
 * parts into lines of at most `width` columns (a terminal's) when given.
 */
export function formatRunSummary(s: RunSession, width = Number.POSITIVE_INFINITY): string {
  const by = Object.entries(s.retriesBy)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([why, n]) => `${why}: ${n}`)
    .join(", ");
  const parts = [
    `run statistics: wall time ${formatWall(s.wallSeconds)}`,
    // Its own part, so that a narrow terminal breaks the line before it rather than inside it.
    ...formatPhases(s.phases),
    `${s.requests} request(s) sent`,
    `${s.cacheHits} cache hit(s)`,
    `${s.retries} retr${s.retries === 1 ? "y" : "ies"}${by ? ` (${by})` : ""}`,
    `${s.errors} error(s)`,
    ...(s.interrupted ? [`${s.interrupted} interrupted (sent again on resume)`] : []),
    `tokens ${formatCount(s.tokens.input)} in / ${formatCount(s.tokens.output)} out`,
    // A fleet: how the attempts were shared, and which base URL failed.
    ...(s.endpoints ?? []).map(
      (e) =>
        `${e.url}: ${e.requests} attempt(s), ${e.errors} failed, mean ${Math.round(e.meanLatencyMs)} ms${e.setAside > 0 ? `, set aside ${e.setAside}×` : ""}`,
    ),
  ];
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.length - 1;
    if (last >= 0 && displayWidth(`${lines[last]} · ${part}`) <= width) lines[last] = `${lines[last]} · ${part}`;
    else lines.push(last >= 0 ? `  ${part}` : part);
  }
  return lines.join("\n");
}

/** `setup 0.2s, answer 3.1s, score 0.3s`: only when the session went past setup. */
function formatPhases(phases: RunSession["phases"]): string[] {
  const list = Object.entries(phases ?? {});
  return list.length > 1 ? [list.map(([name, seconds]) => `${name} ${formatWall(seconds)}`).join(", ")] : [];
}

function formatWall(seconds: number): string {
  return seconds < 10 ? `${seconds.toFixed(1)}s` : formatDuration(seconds);
}

/** 1234 → 1234, 12345 → 12.3k, 1234567 → 1.23M. */
export function formatCount(n: number): string {
  if (n < 10_000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}
