import type { ModelErrorRecord, RetryNotice, TokenUsage } from "@yardstick/core";
import type { EndpointTotals, ResponseRecord } from "@yardstick/run-format";
import { displayWidth, formatOverallLine, formatPlainTaskLine, formatTaskLine } from "./progress-line.js";
import { type RunStatsCollector, createRunStats } from "./progress-stats.js";

/** The answering stage a request belongs to. */
export type StageName = ResponseRecord["stage"];

/** Whose request it is: the task (its key) and the stage. */
export interface RequestPlace {
  task: string;
  stage: StageName;
}

/** The parts of a session whose wall time run-stats.json records (what comes before the first is `setup`). */
export type RunPhase = "answer" | "judge" | "score";

/** What the provider's in-flight limiter says now (requests in flight, its current adaptive limit). */
export type ConcurrencyReading = () => { inFlight: number; limit: number };

/** What went to each base URL of the provider so far (a provider with several base URLs has them). */
export type EndpointReading = () => EndpointTotals[];

/**
 * What the answering stages tell about their progress. Only the first three are required: the
 * others (requests, retries, concurrency) are optional so reporters written before them still fit.
 */
export interface ProgressReporter {
  startTask(taskKey: string, total: number): void;
  /** `n` samples finished; `fromStore` ones were already answered before this run. */
  advance(n: number, fromStore?: boolean): void;
  /** The task started last ends; `stopped`: the run was stopped before it finished (it is not done). */
  endTask(stopped?: boolean): void;
  /** A stage will run this many tasks (each stage says so once; the counts add up). */
  plan?(tasks: number): void;
  /** A request answered from the request cache. */
  cached?(at: RequestPlace): void;
  /** A request sent to the model (or into a batch); `answered`, `failed` or `withdrawn` follows. */
  sent?(at: RequestPlace): void;
  /** A request the run's stop cut off before it left (it waited for a slot): not sent after all. */
  withdrawn?(at: RequestPlace): void;
  answered?(at: RequestPlace, usage: TokenUsage | undefined): void;
  /** A request that failed for good, after its retries. */
  failed?(at: RequestPlace, error: ModelErrorRecord): void;
  /** A failed attempt that the provider retries (`ModelCallContext.onRetry`). */
  retry?(at: RequestPlace, notice: RetryNotice): void;
  /** Where to read the current concurrency (the provider's limiter); undefined = count requests in flight. */
  watchConcurrency?(read: ConcurrencyReading | undefined): void;
  /** Where to read the answering model's per-base-URL counts (see `endpointReading`). */
  watchEndpoints?(read: EndpointReading | undefined): void;
  /** The run enters this phase (the previous one ends). */
  phase?(name: RunPhase): void;
  /** Prints a message without breaking the display (above it on a terminal). */
  log?(message: string): void;
  /** Stops drawing: the display's last state stays, and the output continues on a new line. */
  close?(): void;
}

export interface ProgressSettings {
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  /**
   * Redraw in place with ANSI cursor movement; default: when the stream is a terminal that is not
   * `TERM=dumb` (which has no cursor movement). Otherwise summary lines are printed.
   */
  redrawInPlace?: boolean;
  /** Minimum time between redraws on a terminal (default 100 ms). */
  redrawMs?: number;
  /** Time between summary lines when not a terminal (default 5 s). */
  lineIntervalMs?: number;
  now?: () => number;
  /** The counters to show (default new ones): pass them to read the run statistics at the end. */
  stats?: RunStatsCollector;
}

export interface ProgressDisplay extends ProgressReporter {
  readonly stats: RunStatsCollector;
  log(message: string): void;
  close(): void;
}

const ERASE_LINE = "\x1b[2K";
const ERASE_BELOW = "\x1b[J";
const up = (rows: number): string => (rows > 0 ? `\x1b[${rows}A` : "");

/**
 * The progress display. On a terminal: one line per running task and an overall line (tasks done,
 * samples/s, ETA, cache hits, retries, errors, concurrency), each fitted to the terminal's width
 * (one column spare, so no line ever wraps) and redrawn in place; a finished task leaves its final
 * line above the display. Without a terminal: one summary line every `lineIntervalMs`, and a line
 * per finished task.
 */
export function createProgressReporter(settings: ProgressSettings): ProgressDisplay {
  const { stream } = settings;
  const now = settings.now ?? (() => performance.now());
  const stats = settings.stats ?? createRunStats({ now });
  const tty = settings.redrawInPlace ?? (stream.isTTY === true && process.env.TERM !== "dumb");
  const interval = tty ? (settings.redrawMs ?? 100) : (settings.lineIntervalMs ?? 5000);
  const columns = (): number => Math.max(20, stream.columns ?? 80);
  let lastDraw = now();
  let closed = false;
  /** Display widths of the lines on screen now (terminal): how far up the next redraw starts. */
  let drawn: number[] = [];
  let timer: NodeJS.Timeout | undefined;

  /** Cursor back to the first column of the display's first row (the rows a resize rewrapped included). */
  const toTop = (): string => {
    if (drawn.length === 0) return "";
    const cols = columns();
    const rows = drawn.reduce((a, w) => a + Math.max(1, Math.ceil(w / cols)), 0);
    return `\r${up(rows - 1)}`;
  };

  const block = (): string[] => {
    const width = columns() - 1;
    // The display must fit the screen: a cursor cannot move up past its top, so only the most
    // recently started tasks that fit get a line.
    const room = Math.max(0, (stream.rows ?? 24) - 2);
    const running = stats.runningTasks();
    const tasks = running.slice(running.length - Math.min(room, running.length));
    return [...tasks.map((t) => formatTaskLine(t, width)), formatOverallLine(stats.overall(), width)];
  };

  /** Redraws the display in place, after `above` (lines that stay, written where the display was). */
  const redraw = (above = ""): void => {
    const lines = block();
    stream.write(`${toTop()}${above ? `${ERASE_BELOW}${above}` : ""}${lines.map((l) => `${ERASE_LINE}${l}`).join("\n")}${ERASE_BELOW}`);
    drawn = lines.map(displayWidth);
  };

  const summaryLine = (): string => {
    const running = stats.runningTasks();
    const task = running[running.length - 1];
    const overall = formatOverallLine(stats.overall(), Number.POSITIVE_INFINITY);
    return task ? `${formatPlainTaskLine(task)} | ${overall}` : overall;
  };

  const draw = (force: boolean): void => {
    if (closed) return;
    const t = now();
    if (!force && t - lastDraw < interval) return;
    lastDraw = t;
    if (tty) redraw();
    // Between stages (scoring can take minutes) a log gets no line that says nothing new.
    else if (stats.runningTasks().length > 0) stream.write(`${summaryLine()}\n`);
  };

  const onResize = (): void => {
    if (!closed && drawn.length > 0) redraw();
  };
  if (tty) stream.on("resize", onResize);

  const startTimer = (): void => {
    // Redraws while nothing finishes (every request waiting on a retry): the rate and ETA move on.
    timer ??= setInterval(() => draw(false), tty ? 1000 : Math.min(interval, 1000));
    timer.unref?.();
  };

  const then =
    <A extends unknown[]>(f: (...args: A) => void) =>
    (...args: A): void => {
      f(...args);
      draw(false);
    };

  return {
    stats,
    plan: (n) => stats.plan(n),
    startTask(key, total) {
      stats.startTask(key, total);
      startTimer();
      if (tty) draw(true);
      else lastDraw = now();
    },
    advance: then((n: number, fromStore?: boolean) => stats.advance(n, fromStore)),
    endTask(stopped) {
      const running = stats.runningTasks();
      const finished = running[running.length - 1];
      stats.endTask(stopped);
      if (closed || !finished) return;
      if (tty) redraw(`${formatTaskLine(finished, columns() - 1)}\n`);
      else stream.write(`${formatPlainTaskLine(finished)}\n`);
    },
    cached: then((at: RequestPlace) => stats.cached(at)),
    sent: (at) => stats.sent(at),
    withdrawn: (at) => stats.withdrawn(at),
    answered: (at, usage) => stats.answered(at, usage),
    failed: then((at: RequestPlace, error: ModelErrorRecord) => stats.failed(at, error)),
    retry: then((at: RequestPlace, notice: RetryNotice) => stats.retry(at, notice)),
    watchConcurrency: (read) => stats.watchConcurrency(read),
    watchEndpoints: (read) => stats.watchEndpoints(read),
    phase: (name) => stats.phase(name),
    log(message) {
      if (tty && !closed && drawn.length > 0) redraw(`${message}\n`);
      else stream.write(`${message}\n`);
    },
    close() {
      if (closed) return;
      if (tty && drawn.length > 0) {
        redraw();
        stream.write("\n");
      }
      closed = true;
      drawn = [];
      if (timer) clearInterval(timer);
      if (tty) stream.removeListener("resize", onResize);
    },
  };
}

/** A reporter that prints nothing (library use, tests). */
export const silentProgress: ProgressReporter = { startTask() {}, advance() {}, endTask() {} };
