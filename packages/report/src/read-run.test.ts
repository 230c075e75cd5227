import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type FixtureTask, HOSTILE_IMG, HOSTILE_SCRIPT, standardFixtureTasks, writeFixtureStore } from "./__fixtures__/make-store.js";
import { type CompareRuns, compareWithFirst } from "./paired-comparison.js";
import { readRun } from "./read-run.js";
import { buildReportData } from "./report-data.js";
import { writeReport } from "./write-report.js";

const root = mkdtempSync(join(tmpdir(), "yardstick-report-read-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A later generate record of a yesno/en sample of the fixture store, without its request. */
const laterRecord = (sample: string, outcome: Record<string, unknown>) => ({
  task: "yesno/en",
  sample,
  turn: 1,
  stage: "generate",
  key: `k-yesno/en-${sample}`,
  promptHash: `p-${sample}`,
  cached: false,
  ...outcome,
  time: "2026-01-01T00:00:09.500Z",
});

describe("readRun", () => {
  it("joins prompts, responses, extracted answers, gold and scores per sample in dataset order", async () => {
    const dir = join(root, "full");
    writeFixtureStore(dir, standardFixtureTasks());
    const run = await readRun(dir);
    expect(run.problems).toEqual([]);
    expect(run.tasks.map((t) => t.key)).toEqual(["yesno/en", "yesno/id", "colour/en"]);
    const en1 = run.samples.find((s) => s.task === "yesno/en" && s.id === "en-1")!;
    expect(en1.request?.kind).toBe("chat");
    expect(en1.response).toContain(HOSTILE_SCRIPT);
    expect(en1.gold).toBe("yes");
    expect(en1.prediction).toBe("no");
    expect(en1.scores).toEqual({ correct: 0 });
    expect(run.samples.filter((s) => s.task === "yesno/en").map((s) => s.id)).toEqual(["en-0", "en-1", "en-2", "en-3", "en-4", "en-5"]);
    const en3 = run.samples.find((s) => s.id === "en-3")!;
    expect(en3.error).toBe("api 500: server error");
    const one = await readRun(dir, { task: "yesno/id" });
    expect(new Set(one.samples.map((s) => s.task))).toEqual(new Set(["yesno/id"]));
    expect(one.samples.find((s) => s.id === "id-2")).toMatchObject({ response: "Jawaban: ya", gold: "tidak", prediction: "ya" });
    const stats = run.stats.get("yesno/en")!;
    expect(stats).toMatchObject({ calls: 6, answered: 5, errors: 1, cached: 2, promptTokens: 50, completionTokens: 10 });
  });

  it("takes the latest record of a call and counts the earlier ones as retried", async () => {
    const dir = join(root, "retried");
    writeFixtureStore(dir, standardFixtureTasks());
    const retry = laterRecord("en-3", { status: "ok", choices: [{ text: "Answer: yes", finishReason: "stop" }] });
    writeFileSync(join(dir, "responses.jsonl"), `${readFileSync(join(dir, "responses.jsonl"), "utf8")}${JSON.stringify(retry)}\n`);
    const run = await readRun(dir);
    const en3 = run.samples.find((s) => s.id === "en-3")!;
    expect(en3.error).toBeUndefined();
    expect(en3.response).toBe("Answer: yes");
    // The retry carries no request: the one sent first is kept.
    expect(en3.request?.kind).toBe("chat");
    expect(run.stats.get("yesno/en")).toMatchObject({ calls: 7, retried: 1, errors: 0, answered: 6, firstTime: "2026-01-01T00:00:00.000Z", lastTime: "2026-01-01T00:00:09.500Z" });
    expect(buildReportData([run]).tasks[0]).toMatchObject({ retried: 1, wallSeconds: 9.5 });
  });

  it("counts a call the run's stop cut short (interrupted) as neither answered nor failed", async () => {
    const dir = join(root, "interrupted");
    writeFixtureStore(dir, standardFixtureTasks());
    const interrupted = laterRecord("en-2", {
      status: "error",
      error: { kind: "interrupted", attempts: 0, message: "POST /v1/chat/completions interrupted (the run was stopped) after 0 attempt(s); a rerun sends it again" },
    });
    // en-2's answer is replaced by the interrupted call.
    const others = readFileSync(join(dir, "responses.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l !== "" && !(l.includes('"task":"yesno/en"') && l.includes('"sample":"en-2"')));
    writeFileSync(join(dir, "responses.jsonl"), `${[...others, JSON.stringify(interrupted)].join("\n")}\n`);
    const run = await readRun(dir);
    expect(run.problems).toEqual([]);
    expect(run.samples.find((s) => s.id === "en-2")!.error).toContain("interrupted");
    // Of the 6 calls: 4 answered, 1 failed (en-3's 500), en-2 interrupted.
    expect(run.stats.get("yesno/en")).toMatchObject({ calls: 6, answered: 4, errors: 1 });
  });

  it("lists what a partial store lacks and keeps the rest", async () => {
    const dir = join(root, "partial");
    writeFixtureStore(dir, standardFixtureTasks(), { skip: ["results", "scores"] });
    writeFileSync(join(dir, "responses.jsonl"), `${readFileSync(join(dir, "responses.jsonl"), "utf8")}{"task": "torn by a cra\n`);
    const run = await readRun(dir);
    expect(run.problems.join("\n")).toMatch(/results\.json is missing/);
    expect(run.problems.join("\n")).toMatch(/responses\.jsonl line 14 is unreadable/);
    expect(run.samples.find((s) => s.id === "id-0")?.response).toBe("Jawaban: ya");
    expect(run.samples.find((s) => s.id === "id-0")?.scores).toBeUndefined();
  });

  it("says a store is missing, and refuses a newer format with the reason", async () => {
    const missing = await readRun(join(root, "nothing-here"));
    expect(missing.problems[0]).toMatch(/does not exist/);
    const dir = join(root, "newer");
    writeFixtureStore(dir, standardFixtureTasks());
    const manifest = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
    writeFileSync(join(dir, "run.json"), JSON.stringify({ ...manifest, formatVersion: 99 }));
    writeFileSync(join(dir, "results.json"), JSON.stringify({ formatVersion: 99 }));
    const run = await readRun(dir);
    expect(run.problems.join("\n")).toMatch(/run\.json: .*newer yardstick \(run-store format 99/);
    expect(run.problems.join("\n")).toMatch(/results\.json was written by a newer yardstick/);
    // The records that still read are shown.
    expect(run.samples.length).toBeGreaterThan(0);
  });
});

describe("readRun with samplesPerTask", () => {
  const bigTask = (): FixtureTask => ({
    name: "big",
    language: "en",
    competency: "nlu",
    samples: Array.from({ length: 30 }, (_, i) => ({ id: `b-${i}`, prompt: `Question ${i}?`, answer: i % 7 === 3 ? null : "Answer: yes", gold: i % 2 ? "yes" : "no" })),
  });

  it("keeps the first samples of each task by dataset position, and counts and notes every record", async () => {
    const dir = join(root, "capped");
    writeFixtureStore(dir, [bigTask(), ...standardFixtureTasks()]);
    // Sample records arrive in answer order, not dataset order.
    const samplesFile = join(dir, "samples", "big_en.jsonl");
    const lines = readFileSync(samplesFile, "utf8").trim().split("\n");
    writeFileSync(samplesFile, `${[...lines.slice(15), ...lines.slice(0, 15)].reverse().join("\n")}\n`);
    // A sample the browser leaves out was asked twice: the later record is its answer.
    const retry = { task: "big/en", sample: "b-24", turn: 1, stage: "generate", status: "ok", key: "k", promptHash: "p", cached: false, choices: [{ text: "Answer: no", finishReason: "stop" }], time: "2026-01-01T00:00:05.000Z" };
    writeFileSync(join(dir, "responses.jsonl"), `${readFileSync(join(dir, "responses.jsonl"), "utf8")}${JSON.stringify(retry)}\n`);

    const all = await readRun(dir);
    const capped = await readRun(dir, { samplesPerTask: 10 });
    expect(capped.samples.filter((s) => s.task === "big/en").map((s) => s.id)).toEqual(Array.from({ length: 10 }, (_, i) => `b-${i}`));
    expect(capped.samples.find((s) => s.id === "b-3")).toMatchObject({ error: "api 500: server error", gold: "yes", prediction: "" });
    expect(capped.samples.find((s) => s.id === "b-4")?.request?.kind).toBe("chat");
    // Tasks within the limit keep every sample.
    expect(capped.samples.filter((s) => s.task === "yesno/en")).toHaveLength(6);
    // Errors at 3, 10, 17 and 24; b-24's retry answered it.
    expect(capped.stats.get("big/en")).toMatchObject({ calls: 31, retried: 1, answered: 27, errors: 3, promptTokens: 260, completionTokens: 52 });
    expect(capped.stats).toEqual(all.stats);
    expect(capped.problems).toEqual([
      expect.stringMatching(/^the sample browser holds the first 10 of the 30 samples of big\/en \(by dataset position\); its counts and scores cover all of them; `yardstick show .* --task big\/en --sample ID` prints any sample$/),
    ]);
    expect(all.problems).toEqual([]);
  });

  it("keeps the first answered samples of a task without sample records", async () => {
    const dir = join(root, "capped-no-samples");
    writeFixtureStore(dir, [bigTask()], { skip: ["samples"] });
    const run = await readRun(dir, { samplesPerTask: 4 });
    expect(run.samples.map((s) => s.id)).toEqual(["b-0", "b-1", "b-2", "b-3"]);
    expect(run.stats.get("big/en")).toMatchObject({ calls: 30, answered: 26, errors: 4 });
    expect(run.problems.join("\n")).toMatch(/holds the first 4 answered samples of big\/en/);
  });

  it("counts each multi-turn sample by its last turn, whether or not it is kept", async () => {
    const dir = join(root, "turns");
    writeFixtureStore(dir, [{ ...bigTask(), samples: bigTask().samples.slice(0, 3) }]);
    const rec = (sample: string, turn: number, status: "ok" | "error", promptTokens: number) => ({
      task: "big/en",
      sample,
      turn,
      stage: "generate",
      status,
      key: `k-${sample}-${turn}`,
      promptHash: "p",
      cached: false,
      ...(status === "ok" ? { choices: [{ text: "Answer: yes", finishReason: "stop" }] } : { error: { kind: "api", status: 500, attempts: 1, message: "boom" } }),
      usage: { promptTokens, completionTokens: 1, totalTokens: promptTokens + 1 },
      latencyMs: 7,
      time: "2026-01-01T00:00:01.000Z",
    });
    // Second turns of b-0 (failed) and b-1 (answered); b-2 has its first turn only.
    const extra = [rec("b-0", 2, "error", 100), rec("b-1", 2, "ok", 1000)];
    writeFileSync(join(dir, "responses.jsonl"), `${readFileSync(join(dir, "responses.jsonl"), "utf8")}${extra.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const all = await readRun(dir);
    // b-0 and b-1 count by their second turn, b-2 by its first (10 prompt tokens, 2 completion tokens).
    expect(all.stats.get("big/en")).toMatchObject({ calls: 5, retried: 0, answered: 2, errors: 1, promptTokens: 1110, completionTokens: 4, latencyCount: 3 });
    expect((await readRun(dir, { samplesPerTask: 1 })).stats).toEqual(all.stats);
    expect(all.samples.find((s) => s.id === "b-0")?.error).toBe("api 500: boom");
  });

  it("compares runs over every sample, also those their browsers leave out", async () => {
    const a = join(root, "paired-a");
    const b = join(root, "paired-b");
    writeFixtureStore(a, [bigTask()]);
    writeFixtureStore(b, [bigTask()], { model: "other" });
    const seen: number[] = [];
    const compare: CompareRuns = (x, y) => {
      seen.push(Object.keys(x.tasks["big/en"]!.items).length, Object.keys(y.tasks["big/en"]!.items).length);
      return { rows: [], correction: "holm", alpha: 0.05 };
    };
    const runs = [await readRun(a, { samplesPerTask: 5 }), await readRun(b, { samplesPerTask: 5 })];
    expect(await compareWithFirst(runs, compare)).toHaveLength(1);
    expect(seen).toEqual([30, 30]);
    const summary = await writeReport({ runs: [a], out: join(root, "paired-report.html"), samplesPerTask: 5 });
    expect(summary.samples).toBe(5);
  });
});

describe("buildReportData", () => {
  it("stores each distinct string once and marks outcomes of 0/1 scores", async () => {
    const dir = join(root, "data");
    writeFixtureStore(dir, standardFixtureTasks());
    const data = buildReportData([await readRun(dir)]);
    expect(new Set(data.strings).size).toBe(data.strings.length);
    expect(data.samples.task.length).toBe(13);
    const i = data.samples.id.indexOf(data.strings.indexOf("en-1"));
    expect(data.samples.outcome[i]).toBe(2);
    expect(data.tasks[0]).toMatchObject({ key: "yesno/en", mainScore: "accuracy", binary: true, errors: 1, cached: 2 });
    expect(data.tasks[0]?.ci).toEqual([30, 60]);
    expect(data.runs[0]?.heatmap).toContainEqual({ language: "en", competency: "vision", score: 200 / 3 });
  });
});

describe("writeReport", () => {
  it("writes one file whose data cannot close its script element", async () => {
    const dir = join(root, "html");
    writeFixtureStore(dir, standardFixtureTasks());
    const out = join(root, "html-report", "report.html");
    const summary = await writeReport({ runs: [dir], out });
    const html = readFileSync(out, "utf8");
    expect(summary.samples).toBe(13);
    expect(html).not.toContain(HOSTILE_IMG);
    expect(html).not.toContain("window.__pwned='script'</script>");
    // Exactly our three script elements: the data, Chart.js and the page.
    expect(html.match(/<script[\s>]/g)?.length).toBe(3);
    expect(html).not.toMatch(/(src|href)=["']?https?:/);
    const json = html.slice(html.indexOf('id="report-data">') + 17, html.indexOf("</script>"));
    expect(JSON.parse(json).strings).toContain(`Sure: ${HOSTILE_IMG} ${HOSTILE_SCRIPT} no`);
  });
});
