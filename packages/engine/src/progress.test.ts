import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { runStatsSchema } from "@yardstick/run-format";
import { afterEach, describe, expect, it } from "vitest";
import { createProgressReporter } from "./progress.js";
import {
  type OverallLineView,
  type TaskLineView,
  displayWidth,
  fitSegments,
  formatDuration,
  formatOverallLine,
  formatTaskLine,
  printable,
  truncateToWidth,
} from "./progress-line.js";
import { createRunStats, formatRunSummary } from "./progress-stats.js";
import { appendRunSession } from "./run-stats-file.js";

const at = { task: "a", stage: "generate" } as const;
const task = (over: Partial<TaskLineView> = {}): TaskLineView => ({ name: "sentiment/id", total: 200, done: 90, fromStore: 0, elapsedSeconds: 9, ...over });
const overall = (over: Partial<OverallLineView> = {}): OverallLineView => ({
  tasksDone: 1,
  tasksPlanned: 3,
  samplesPerSecond: 12.34,
  etaSeconds: 62,
  cacheHits: 5,
  retries: 3,
  errors: 0,
  inFlight: 12,
  limit: 16,
  ...over,
});

// The display draws one column short of the terminal, so a line never reaches the last column.
const FITS_60 = 59;
const FITS_200 = 199;

describe("progress lines fitted to the terminal width", () => {
  const tasks: TaskLineView[] = [
    task(),
    task({ name: "a".repeat(150) }),
    task({ name: "lindsea/minimal-pairs/th (judge)", total: 123_456, done: 99_999, fromStore: 10_000, elapsedSeconds: 4000 }),
    task({ total: 0, done: 17 }),
    task({ name: "ภาษาไทย/感情分析/判断" }),
    task({ done: 0, elapsedSeconds: 0 }),
  ];
  const overalls: OverallLineView[] = [
    overall(),
    overall({ tasksDone: 112, tasksPlanned: 340, samplesPerSecond: 1234.5, etaSeconds: 3 * 86_400, cacheHits: 1_234_567, retries: 98_765, errors: 4321, inFlight: 256, limit: 4096 }),
    overall({ etaSeconds: Number.NaN, limit: undefined }),
  ];

  it.each([FITS_60, FITS_200, 30])("no line is wider than %i columns", (width) => {
    for (const t of tasks) expect(displayWidth(formatTaskLine(t, width)), formatTaskLine(t, width)).toBeLessThanOrEqual(width);
    for (const o of overalls) expect(displayWidth(formatOverallLine(o, width)), formatOverallLine(o, width)).toBeLessThanOrEqual(width);
  });

  it("at 200 columns shows everything in full, with a bar", () => {
    expect(formatTaskLine(task(), FITS_200)).toBe(`sentiment/id [${"#".repeat(14)}${".".repeat(16)}]  45% 90/200 10.0/s ETA 11s`);
    expect(formatOverallLine(overall(), FITS_200)).toBe("tasks 1/3 12.3/s ETA 1m02s cache 5 retries 3 errors 0 concurrency 12/16");
  });

  it("at 60 columns shortens labels and keeps tasks, ETA, retries and errors", () => {
    expect(formatOverallLine(overall(), FITS_60)).toBe("tasks 1/3 12.3/s ETA 1m02s cache 5 retry 3 err 0 conc 12/16");
    const crowded = formatOverallLine(overalls[1]!, FITS_60);
    expect(crowded).toMatch(/^tasks 112\/340 .*ETA 72h00m.*retry 98765 err 4321/);
    expect(crowded).not.toMatch(/conc/);
    // The bar shrinks to fit beside the name, and goes before the name is cut.
    expect(formatTaskLine(task(), FITS_60)).toBe("sentiment/id [########.........]  45% 90/200 10.0/s ETA 11s");
    expect(formatTaskLine(task({ name: "lindsea/minimal-pairs/th (judge)" }), FITS_60)).toBe("lindsea/minimal-pairs/th (judge)  45% 90/200 10.0/s ETA 11s");
    const long = formatTaskLine(task({ name: "x".repeat(100) }), FITS_60);
    expect(long).toMatch(/^x+… +45% 90\/200 10\.0\/s ETA 11s$/);
    expect(displayWidth(long)).toBe(FITS_60);
  });

  it("counts wide characters as two columns and never prints control characters", () => {
    expect(displayWidth("感情")).toBe(4);
    expect(displayWidth("ที่นี่")).toBe(2); // Thai vowel and tone marks above a consonant take no column
    expect(truncateToWidth("感情分析", 5)).toBe("感情…");
    expect(printable("evil\x1b[2Jtask\n")).toBe("evil?[2Jtask?");
    expect(formatTaskLine(task({ name: "a\x1b]0;pwned\x07" }), FITS_60)).not.toMatch(/[\x00-\x1f]/);
  });

  it("drops the lowest-priority segments first and keeps the order", () => {
    const segs = [
      { text: "first", priority: 1 },
      { text: "second", priority: 3 },
      { text: "third", short: "3rd", priority: 2 },
    ];
    expect(fitSegments(segs, 100)).toBe("first second third");
    expect(fitSegments(segs, 16)).toBe("first second 3rd");
    expect(fitSegments(segs, 12)).toBe("first 3rd");
    expect(fitSegments(segs, 3)).toBe("3rd");
    expect(fitSegments(segs, 2)).toBe("f…");
  });

  it("formats durations", () => {
    expect(formatDuration(5)).toBe("5s");
    expect(formatDuration(125)).toBe("2m05s");
    expect(formatDuration(7260)).toBe("2h01m");
    expect(formatDuration(Number.NaN)).toBe("?");
  });
});

describe("the progress reporter without a terminal", () => {
  it("prints a summary line every interval and a line per finished task", () => {
    const stream = new PassThrough();
    let text = "";
    stream.on("data", (d) => {
      text += String(d);
    });
    let t = 0;
    const p = createProgressReporter({ stream, lineIntervalMs: 1000, now: () => t });
    p.plan?.(2);
    p.startTask("sentiment/id", 10);
    p.sent?.(at);
    p.retry?.(at, { attempt: 1, maxAttempts: 6, kind: "api", status: 429, delayMs: 10 });
    t = 500;
    p.advance(2);
    p.cached?.(at);
    t = 1500;
    p.advance(3);
    p.endTask();
    p.close();
    expect(text.split("\n").filter(Boolean)).toEqual([
      "sentiment/id: 50% 5/10 3.3/s ETA 2s | tasks 0/2 3.3/s ETA 5s cache 1 retries 1 errors 0 concurrency 1",
      "sentiment/id: 50% 5/10 3.3/s ETA 2s",
    ]);
  });
});

describe("the progress reporter redrawing in place", () => {
  it("moves the cursor back over its own lines only, and gives tasks only the rows the screen has", () => {
    const stream = Object.assign(new PassThrough(), { columns: 60, rows: 4 });
    let text = "";
    stream.on("data", (d) => {
      text += String(d);
    });
    let t = 0;
    const p = createProgressReporter({ stream, redrawInPlace: true, redrawMs: 0, now: () => t });
    p.plan?.(4);
    for (const key of ["first/task", "second/task", "third/task"]) p.startTask(key, 10);
    t = 1000;
    p.advance(1);
    p.log("a message");
    p.close();
    // The last redraw (at close): two task lines (4 rows - 2) and the overall line, after going 2 rows up.
    const frames = text.split("\r");
    const last = frames[frames.length - 1]!;
    expect(last.startsWith("\x1b[2A")).toBe(true);
    const shown = last.replace(/\x1b\[[0-9]*[A-Za-z]/g, "").split("\n").filter(Boolean);
    expect(shown).toEqual([expect.stringMatching(/^second\/task /), expect.stringMatching(/^third\/task /), expect.stringMatching(/^tasks 0\/4 /)]);
    for (const line of text.replace(/\x1b\[[0-9]*[A-Za-z]/g, "").split(/[\r\n]/)) expect(line.length).toBeLessThanOrEqual(59);
    expect(text).toContain("a message\n");
  });
});

describe("run statistics", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("count requests, retries, errors, cache hits and tokens per stage", () => {
    let t = 0;
    const stats = createRunStats({ now: () => t, wallClock: () => new Date(Date.UTC(2026, 0, 1) + t) });
    stats.plan(1);
    stats.startTask("a", 3);
    stats.sent(at);
    stats.retry(at, { attempt: 1, maxAttempts: 6, kind: "api", status: 500, delayMs: 5 });
    stats.retry(at, { attempt: 2, maxAttempts: 6, kind: "network", delayMs: 5 });
    stats.answered(at, { promptTokens: 100, completionTokens: 7, totalTokens: 107 });
    stats.sent({ task: "b", stage: "generate" });
    stats.failed({ task: "b", stage: "generate" }, { kind: "api", status: 400, attempts: 1, message: "bad" });
    stats.cached({ task: "a", stage: "judge" });
    stats.advance(2);
    stats.advance(1, true);
    t = 2500;
    stats.endTask();
    expect(stats.overall()).toMatchObject({ tasksDone: 1, tasksPlanned: 1, retries: 2, errors: 1, cacheHits: 1, inFlight: 0 });
    const session = stats.session(false);
    expect(session).toMatchObject({
      wallSeconds: 2.5,
      requests: 2,
      retries: 2,
      errors: 1,
      cacheHits: 1,
      tokens: { input: 100, output: 7 },
      retriesBy: { "500": 1, network: 1 },
      samples: { done: 3, fromStore: 1 },
      stages: { generate: { requests: 2, cacheHits: 0 }, judge: { requests: 0, cacheHits: 1 } },
      byTask: { a: { requests: 1, cacheHits: 1, retries: 2, errors: 0 }, b: { requests: 1, errors: 1 } },
    });
    expect(formatRunSummary(session)).toBe(
      "run statistics: wall time 2.5s · 2 request(s) sent · 1 cache hit(s) · 2 retries (500: 1, network: 1) · 1 error(s) · tokens 100 in / 7 out",
    );
    expect(formatRunSummary(session, FITS_60).split("\n")).toEqual([
      "run statistics: wall time 2.5s · 2 request(s) sent",
      "  1 cache hit(s) · 2 retries (500: 1, network: 1)",
      "  1 error(s) · tokens 100 in / 7 out",
    ]);
  });

  it("time each phase of the session: setup until the first phase, each phase until the next or the end", () => {
    let t = 0;
    const stats = createRunStats({ now: () => t });
    t = 300;
    stats.phase("answer");
    t = 3400;
    stats.phase("judge");
    t = 4000;
    stats.phase("score");
    t = 4250;
    const session = stats.session(false);
    expect(session.phases).toEqual({ setup: 0.3, answer: 3.1, judge: 0.6, score: 0.25 });
    expect(formatRunSummary(session).split(" · ").slice(0, 2)).toEqual(["run statistics: wall time 4.3s", "setup 0.3s, answer 3.1s, judge 0.6s, score 0.3s"]);
    // On a 60-column terminal the phases go to a line of their own rather than being cut.
    expect(formatRunSummary(session, 59).split("\n").slice(0, 2)).toEqual(["run statistics: wall time 4.3s", "  setup 0.3s, answer 3.1s, judge 0.6s, score 0.3s"]);
    // A session stopped during setup says nothing more than its wall time.
    expect(formatRunSummary(createRunStats({ now: () => 0 }).session(true)).split(" · ")[0]).toBe("run statistics: wall time 0.0s");
  });

  it("are appended to run-stats.json, one session per run, valid by the run-format schema", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-stats-"));
    dirs.push(dir);
    const session = createRunStats().session(false);
    await appendRunSession(dir, session);
    const { path, replacedUnreadable } = await appendRunSession(dir, { ...session, aborted: true });
    expect(replacedUnreadable).toBe(false);
    const stats = runStatsSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    expect(stats.sessions.map((s) => s.aborted)).toEqual([false, true]);
    writeFileSync(path, "{not json");
    expect((await appendRunSession(dir, session)).replacedUnreadable).toBe(true);
    expect(runStatsSchema.parse(JSON.parse(readFileSync(path, "utf8"))).sessions).toHaveLength(1);
  });
});
