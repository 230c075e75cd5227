import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { main } from "./main.js";
import { escapeForTerminal } from "./show-command.js";
import { viewCommand } from "./view-command.js";

// report, view and show on a real run store written by `yardstick run` against the local dev server.

let server: DevServer;
let cacheDir: string;
let runDir: string;
const root = mkdtempSync(join(tmpdir(), "yardstick-report-cli-"));
const env = (): NodeJS.ProcessEnv => ({ YARDSTICK_CACHE_DIR: cacheDir });

/** Sample 2 answers with a terminal escape sequence and markup; every fourth sample is wrong. */
function policy(lastUserText: string): string {
  const i = Number(/sentence number (\d+)/.exec(lastUserText)?.[1] ?? 0);
  if (i === 2) return "Answer: Neutral \u001b[2J\u001b]0;owned\u0007 <script>alert(1)</script>";
  return i % 4 === 3 ? "Answer: Positive" : toyAnswer(lastUserText);
}

beforeAll(async () => {
  server = await startDevServer({ port: 0, policy: (req) => policy(req.lastUserText) });
  cacheDir = mkdtempSync(join(tmpdir(), "yardstick-cache-"));
  runDir = join(root, "run");
  const io = captureIO(env());
  const code = await main(["run", makeSentimentTask(12), "--model", "openai-compatible:report-model", "--base-url", `${server.url}/v1`, "--out", runDir, "--quiet"], io);
  expect(code, io.err()).toBe(0);
});
afterAll(async () => {
  await server.close();
});

describe("yardstick run", () => {
  it("writes report.html into the run store at the end of the run", () => {
    const html = readFileSync(join(runDir, "report.html"), "utf8");
    expect(html).toContain('<script type="application/json" id="report-data">');
    expect(html).toContain("sentence number 11");
  });
});

describe("yardstick report", () => {
  it("writes one report of several runs, warning about what a store lacks", async () => {
    const io = captureIO(env(), root);
    const code = await main(["report", "run", "missing-run", "--out", "both.html"], io);
    expect(code, io.err()).toBe(0);
    expect(io.err()).toMatch(/warning: .*missing-run: .*does not exist/);
    expect(io.out()).toMatch(/wrote .*both\.html \(12 samples/);
    expect(existsSync(join(root, "both.html"))).toBe(true);
  });

  it("adds the paired comparison of compare for a second run", async () => {
    const io = captureIO(env(), root);
    const baseline = join(root, "random-run");
    expect(await main(["run", makeSentimentTask(12), "--model", "baseline:random", "--out", baseline, "--quiet"], io), io.err()).toBe(0);
    expect(await main(["report", "run", "random-run", "--out", "paired.html"], io), io.err()).toBe(0);
    const html = readFileSync(join(root, "paired.html"), "utf8");
    const json = html.slice(html.indexOf('id="report-data">') + 17, html.indexOf("</script>"));
    const data = JSON.parse(json) as { comparisons: { a: number; b: number; correction: string; rows: { task: string; n: number; test: string; meanA: number }[] }[] };
    expect(data.comparisons).toHaveLength(1);
    expect(data.comparisons[0]).toMatchObject({ a: 0, b: 1, correction: "holm" });
    expect(data.comparisons[0]?.rows).toEqual([expect.objectContaining({ task: "toy/en", n: 12, test: "mcnemar", meanA: 10 / 12, significant: true })]);
  });

  it("holds --samples-per-task samples of each task in the browser, and compares over every sample", async () => {
    const io = captureIO(env(), root);
    expect(await main(["report", "run", "random-run", "--samples-per-task", "5", "--out", "few.html"], io), io.err()).toBe(0);
    expect(io.out()).toMatch(/wrote .*few\.html \(10 samples/);
    expect(io.err()).toMatch(/warning: .*run: the sample browser holds the first 5 of the 12 samples of toy\/en \(by dataset position\)/);
    const html = readFileSync(join(root, "few.html"), "utf8");
    const data = JSON.parse(html.slice(html.indexOf('id="report-data">') + 17, html.indexOf("</script>"))) as { tasks: { calls: number }[]; comparisons: { rows: { n: number }[] }[] };
    expect(data.tasks.map((t) => t.calls)).toEqual([12, 12]);
    expect(data.comparisons[0]?.rows[0]?.n).toBe(12);
    const all = captureIO(env(), root);
    expect(await main(["report", "run", "--samples-per-task", "all", "--out", "all.html"], all), all.err()).toBe(0);
    expect(all.out()).toMatch(/\(12 samples/);
    const bad = captureIO(env(), root);
    expect(await main(["report", "run", "--samples-per-task", "0"], bad)).toBe(2);
    expect(bad.err()).toMatch(/--samples-per-task/);
  });

  it("refuses when no run folder exists, and needs a run", async () => {
    const io = captureIO(env(), root);
    expect(await main(["report", "nope"], io)).toBe(1);
    expect(io.err()).toMatch(/nothing to report/);
    expect(await main(["report"], captureIO(env(), root))).toBe(2);
  });
});

describe("yardstick show", () => {
  it("prints a sample's prompt, response, extracted answer, gold and scores with control characters escaped", async () => {
    const io = captureIO(env(), root);
    expect(await main(["show", "run", "--task", "toy/en", "--sample", "s2"], io)).toBe(0);
    const out = io.out();
    expect(out).toContain("sentence number 2");
    expect(out).toContain("[user]");
    // The task's max_tokens (16 BPE tokens) cuts the answer inside "<script>".
    expect(out).toContain("Answer: Neutral \\x1b[2J\\x1b]0;owned\\x07 <script");
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(out).toMatch(/── extracted answer ─+\nNeutral\n/);
    expect(out).toMatch(/── gold ─+\nNeutral\n/);
    expect(out).toMatch(/── scores ─+\ncorrect: 1\n/);
  });

  it("shows the first sample by default and names the tasks or samples that exist", async () => {
    const first = captureIO(env(), root);
    expect(await main(["show", "run", "--task", "toy/en"], first)).toBe(0);
    expect(first.out()).toMatch(/sample s0 \(index 0\) of 12/);
    const wrongTask = captureIO(env(), root);
    expect(await main(["show", "run", "--task", "nope"], wrongTask)).toBe(1);
    expect(wrongTask.err()).toMatch(/no task "nope" in this run store; its tasks: toy\/en/);
    const wrongSample = captureIO(env(), root);
    expect(await main(["show", "run", "--task", "toy/en", "--sample", "zz"], wrongSample)).toBe(1);
    expect(wrongSample.err()).toMatch(/no sample "zz" in task toy\/en; 12 samples, e\.g\. s0, s1/);
    expect(await main(["show", "run"], captureIO(env(), root))).toBe(2);
  });

  it("escapes C0, C1 and bidirectional controls but keeps newlines and tabs", () => {
    expect(escapeForTerminal("a\tb\nc\r\u001b[0m\u009b\u202e\u0000")).toBe("a\tb\nc\\r\\x1b[0m\\x9b\\u{202e}\\x00");
  });
});

describe("yardstick view", () => {
  it("serves the report on 127.0.0.1, prints its URL and stops when asked", async () => {
    const io = captureIO(env(), root);
    const stop = new AbortController();
    const running = viewCommand(["run"], io, stop.signal);
    let url: string | undefined;
    for (let i = 0; i < 200 && !url; i++) {
      url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(io.out())?.[1];
      if (!url) await new Promise((r) => setTimeout(r, 25));
    }
    expect(url, io.err()).toBeDefined();
    const page = await fetch(url as string);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("sentence number 11");
    expect((await fetch(`${url}elsewhere`)).status).toBe(404);
    stop.abort();
    expect(await running).toBe(0);
    await expect(fetch(url as string)).rejects.toThrow();
  });

  it("refuses a bad port", async () => {
    const io = captureIO(env(), root);
    expect(await main(["view", "run", "--port", "http"], io)).toBe(2);
    expect(io.err()).toMatch(/--port/);
  });

  it("every command given a run folder says when it does not exist (show said 'no task', export 'score it first')", async () => {
    const nope = join(root, "nope");
    for (const [args, expected] of [
      [["show", "nope", "--task", "x"], `error: nothing to show: ${nope} does not exist`],
      [["export", "nope", "--format", "ultraeval", "--out", "e"], `error: nothing to export: ${nope} does not exist`],
      [["score-run", "nope"], `error: ${nope}: does not exist (give a folder \`yardstick run\` wrote)`],
      [["merge", "nope", "--out", "m"], `error: ${nope}: does not exist (give a folder \`yardstick run\` wrote)`],
    ] as const) {
      const io = captureIO(env(), root);
      expect(await main([...args], io), args.join(" ")).toBe(1);
      expect(io.err().split("\n")[0]).toBe(expected);
    }
  });

  it("refuses when no run folder exists instead of serving an empty page until Ctrl-C", async () => {
    const io = captureIO(env(), root);
    expect(await main(["view", "nope"], io)).toBe(1);
    expect(io.err()).toContain(`nothing to view: ${join(root, "nope")} does not exist`);
    expect(io.out()).not.toContain("http://");
  });
});
