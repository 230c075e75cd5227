/**
 * The lines of the progress display, as pure functions of what they show and the width they must
 * fit: a terminal line one column too wide wraps, and the in-place redraw then scrolls.
 */

/** One running task, as its line shows it. */
export interface TaskLineView {
  name: string;
  total: number;
  done: number;
  /** Of `done`, samples the run store had already answered (resume): they do not count towards the rate. */
  fromStore: number;
  elapsedSeconds: number;
}

/** The overall line. `etaSeconds` NaN = not known yet; `limit` undefined = the provider's limit is not known. */
export interface OverallLineView {
  tasksDone: number;
  tasksPlanned: number;
  samplesPerSecond: number;
  etaSeconds: number;
  cacheHits: number;
  retries: number;
  errors: number;
  inFlight: number;
  limit?: number | undefined;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "?";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** Control characters (an escape sequence in a task key) shown as `?`, never sent to the terminal. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

/** Columns a character takes: 0 for combining marks, 2 for wide East Asian ones and emoji, else 1. */
function charWidth(code: number): number {
  if ((code >= 0x300 && code <= 0x36f) || (code >= 0x200b && code <= 0x200f) || (code >= 0xfe00 && code <= 0xfe0f)) return 0;
  // Thai, Lao and other Southeast Asian combining vowels and tone marks take no column of their own.
  if (code === 0xe31 || (code >= 0xe34 && code <= 0xe3a) || (code >= 0xe47 && code <= 0xe4e)) return 0;
  if (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Terminal columns `text` takes (no control characters: see `printable`). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += charWidth(ch.codePointAt(0)!);
  return width;
}

/** `text` cut to at most `width` columns, ending in `…` when cut. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return "";
  let out = "";
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch.codePointAt(0)!);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

/** A part of a line: `priority` 1 is kept longest; `short` is used when the long forms do not fit. */
export interface Segment {
  text: string;
  short?: string;
  priority: number;
}

/**
 * The segments joined by spaces within `width` columns: the long forms if they all fit, else the
 * short ones, dropping the lowest-priority segments until the rest fit; the order is kept.
 */
export function fitSegments(segments: readonly Segment[], width: number): string {
  const join = (parts: readonly string[]) => parts.join(" ");
  const long = segments.map((s) => s.text);
  if (displayWidth(join(long)) <= width) return join(long);
  const short = segments.map((s) => s.short ?? s.text);
  const byPriority = segments.map((s, i) => ({ s, i })).sort((a, b) => a.s.priority - b.s.priority || a.i - b.i);
  const kept = new Set<number>();
  for (const { i } of byPriority) {
    kept.add(i);
    if (displayWidth(join(short.filter((_, j) => kept.has(j)))) > width) kept.delete(i);
  }
  if (kept.size === 0) return truncateToWidth(short[byPriority[0]!.i] ?? "", width);
  return join(short.filter((_, j) => kept.has(j)));
}

function rateOf(view: TaskLineView): number {
  const fresh = view.done - view.fromStore;
  return view.elapsedSeconds > 0 ? fresh / view.elapsedSeconds : 0;
}

/** `done/total`, or `done` alone when the total is not known. */
function counts(view: TaskLineView): string {
  return view.total > 0 ? `${view.done}/${view.total}` : `${view.done}`;
}

/** A running task's numbers: percent, counts, rate, ETA (as segments, most important first). */
function taskSegments(view: TaskLineView): Segment[] {
  const rate = rateOf(view);
  const eta = rate > 0 && view.total > 0 ? (view.total - view.done) / rate : Number.NaN;
  const pct = view.total > 0 ? Math.floor((100 * Math.min(view.done, view.total)) / view.total) : undefined;
  return [
    ...(pct !== undefined ? [{ text: `${String(pct).padStart(3)}%`, priority: 1 }] : []),
    { text: counts(view), priority: 2 },
    { text: `${rate.toFixed(1)}/s`, priority: 4 },
    { text: `ETA ${formatDuration(eta)}`, short: formatDuration(eta), priority: 3 },
  ];
}

const BAR_MIN = 5;
const BAR_MAX = 30;
/** The task name keeps at least this many columns before the numbers and the bar are cut. */
const NAME_MIN = 12;

/** `name [#####.....]  45% 90/200 12.3/s ETA 10s`, fitted to `width` columns (the bar shrinks first, then goes). */
export function formatTaskLine(view: TaskLineView, width: number): string {
  const name = printable(view.name);
  const nameWidth = displayWidth(name);
  const nameFloor = Math.min(nameWidth, NAME_MIN);
  const stats = fitSegments(taskSegments(view), Math.max(0, width - nameFloor - 1));
  const statsWidth = displayWidth(stats);
  const room = width - statsWidth - 1; // for the name, the bar and the space between them
  const barInner = Math.min(BAR_MAX, room - nameWidth - 3);
  if (barInner >= BAR_MIN && view.total > 0) {
    const filled = Math.round((barInner * Math.min(view.done, view.total)) / view.total);
    return `${name} [${"#".repeat(filled)}${".".repeat(barInner - filled)}] ${stats}`;
  }
  if (room <= 0) return truncateToWidth(name, width);
  return `${truncateToWidth(name, room)} ${stats}`;
}

/** `tasks 1/3 12.3/s ETA 1m02s cache 5 retries 3 errors 0 conc 12/16`, fitted to `width` columns. */
export function formatOverallLine(view: OverallLineView, width: number): string {
  const conc = view.limit !== undefined ? `${view.inFlight}/${view.limit}` : `${view.inFlight}`;
  return fitSegments(
    [
      { text: `tasks ${view.tasksDone}/${view.tasksPlanned}`, priority: 1 },
      { text: `${view.samplesPerSecond.toFixed(1)}/s`, priority: 5 },
      { text: `ETA ${formatDuration(view.etaSeconds)}`, priority: 2 },
      { text: `cache ${view.cacheHits}`, priority: 6 },
      { text: `retries ${view.retries}`, short: `retry ${view.retries}`, priority: 3 },
      { text: `errors ${view.errors}`, short: `err ${view.errors}`, priority: 4 },
      { text: `concurrency ${conc}`, short: `conc ${conc}`, priority: 7 },
    ],
    width,
  );
}

/** A task's line without a terminal: `sentiment/id: 50% 5/10 3.3/s ETA 2s` (no width limit). */
export function formatPlainTaskLine(view: TaskLineView): string {
  return `${printable(view.name)}: ${taskSegments(view)
    .map((s) => s.text.trim())
    .join(" ")}`;
}
