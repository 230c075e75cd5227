/** Progress output: a redrawn bar with rate and ETA on a terminal, plain periodic lines otherwise. */
export interface ProgressReporter {
  startTask(taskKey: string, total: number): void;
  /** `n` samples finished; `fromStore` ones were already answered before this run. */
  advance(n: number, fromStore?: boolean): void;
  endTask(): void;
}

export interface ProgressSettings {
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Minimum time between redraws on a terminal (default 100 ms). */
  redrawMs?: number;
  /** Time between plain lines when not a terminal (default 5 s). */
  lineIntervalMs?: number;
  now?: () => number;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "?";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

export function createProgressReporter(settings: ProgressSettings): ProgressReporter {
  const now = settings.now ?? (() => performance.now());
  const tty = settings.stream.isTTY === true;
  const interval = tty ? (settings.redrawMs ?? 100) : (settings.lineIntervalMs ?? 5000);
  let task = "";
  let total = 0;
  let done = 0;
  let skipped = 0;
  let started = 0;
  let lastDraw = 0;

  const line = (): string => {
    const elapsed = (now() - started) / 1000;
    const fresh = done - skipped;
    const rate = elapsed > 0 ? fresh / elapsed : 0;
    const eta = rate > 0 ? (total - done) / rate : Number.NaN;
    const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
    const stats = `${done}/${total} ${rate.toFixed(1)}/s ETA ${formatDuration(eta)}`;
    if (!tty) return `${task}: ${pct}% ${stats}`;
    const width = Math.max(10, Math.min(30, (settings.stream.columns ?? 80) - task.length - stats.length - 12));
    const filled = total > 0 ? Math.round((width * done) / total) : width;
    return `${task} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(pct).padStart(3)}% ${stats}`;
  };

  const draw = (force: boolean): void => {
    const t = now();
    if (!force && t - lastDraw < interval) return;
    lastDraw = t;
    settings.stream.write(tty ? `\r\x1b[K${line()}` : `${line()}\n`);
  };

  return {
    startTask(key, n) {
      task = key;
      total = n;
      done = 0;
      skipped = 0;
      started = now();
      lastDraw = tty ? 0 : now();
      if (tty) draw(true);
    },
    advance(n, fromStore = false) {
      done += n;
      if (fromStore) skipped += n;
      draw(false);
    },
    endTask() {
      if (tty) settings.stream.write(`\r\x1b[K${line()}\n`);
      else settings.stream.write(`${line()}\n`);
    },
  };
}

/** A reporter that prints nothing (library use, tests). */
export const silentProgress: ProgressReporter = { startTask() {}, advance() {}, endTask() {} };
