import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, type DevServerRequest, startDevServer, startHubServer, testJudge } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grade } from "./__fixtures__/judge-plugin.js";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// `yardstick run` with a judge stage: the judge model by role (--judge-model, --judge-base-url, or
// the config's judge model name), a baseline run, run.json's judge role, and score-run re-scoring
// a judged run without a request. The tasks, judge and metric come from a plugin (--plugin).

const plugin = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "judge-plugin.ts");
const ROWS = Array.from({ length: 8 }, (_, i) => ({ id: `r${i}`, q: `question ${i}`, label: i % 2 === 0 ? "yes" : "no" }));

/** The evaluated model says "yes" (right on even rows); "base" says "no". */
function answer(req: DevServerRequest): string {
  if (req.lastUserText.startsWith("GRADE")) {
    const ref = /ref=(\w+)/.exec(req.lastUserText)?.[1];
    const said = /answer=Answer: (\w+)/.exec(req.lastUserText)?.[1];
    return `<grade>${ref === said ? "PASS" : "FAIL"}</grade>`;
  }
  return req.model === "base" ? "Answer: no" : "Answer: yes";
}

let server: DevServer;
let judgeServer: DevServer;
let dir: string;
let cacheDir: string;
beforeAll(async () => {
  const models = ["gen", "base", "grader", "from-config"];
  server = await startDevServer({ port: 0, policy: answer, models });
  judgeServer = await startDevServer({ port: 0, policy: answer, models });
  dir = mkdtempSync(join(tmpdir(), "ys-judge-run-"));
  cacheDir = join(dir, "cache");
});
afterAll(async () => {
  await server.close();
  await judgeServer.close();
});

function config(name: string, more: Record<string, unknown> = {}): string {
  const path = join(dir, `${name}.judged.json`);
  writeFileSync(path, JSON.stringify({ name, rows: ROWS, ...more }));
  return path;
}
const sent = (s: DevServer): number => s.stats().requests["/v1/chat/completions"] ?? 0;
const io = () => captureIO({ YARDSTICK_CACHE_DIR: cacheDir }, dir);
const run = (cfg: string, out: string, ...more: string[]): string[] => [
  "run",
  cfg,
  "--model",
  "openai-compatible:gen",
  "--base-url",
  `${server.url}/v1`,
  "--plugin",
  plugin,
  "--out",
  join(dir, out),
  "--no-report",
  "--quiet",
  ...more,
];
const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const judgeRecords = (out: string) =>
  readFileSync(join(dir, out, "responses.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .filter((r) => r.stage === "judge");

describe("yardstick run with a judge", () => {
  it("judges on --judge-model at --judge-base-url, records the judge role, and score-run re-scores without a request", async () => {
    const cfg = config("graded", { judgeModel: "from-config" });
    const [main0, judge0] = [sent(server), sent(judgeServer)];
    const out = io();
    const code = await main(run(cfg, "a", "--judge-model", "openai-compatible:grader", "--judge-base-url", `${judgeServer.url}/v1`), out);
    expect(out.err()).toBe("");
    expect(code).toBe(0);
    expect(sent(server) - main0).toBe(ROWS.length);
    expect(sent(judgeServer) - judge0).toBe(ROWS.length);
    const manifest = json(join(dir, "a", "run.json"));
    expect(manifest.models.judge).toMatchObject({ provider: "openai-compatible", modelId: "grader", baseURLs: [`${judgeServer.url}/v1`] });
    expect(manifest.fingerprintParts.options.judgeModel).toBe(manifest.models.judge.identity);
    expect(judgeRecords("a").map((r) => r.call)).toEqual(ROWS.map(() => "own"));
    const results = readFileSync(join(dir, "a", "results.json"), "utf8");
    expect(JSON.parse(results).en.judged.graded.pass_rate).toBe(50);

    const [main1, judge1] = [sent(server), sent(judgeServer)];
    const rescore = io();
    expect(await main(["score-run", join(dir, "a"), "--plugin", plugin, "--quiet"], rescore)).toBe(0);
    expect([sent(server), sent(judgeServer)]).toEqual([main1, judge1]);
    expect(readFileSync(join(dir, "a", "results.json"), "utf8")).toBe(results);
  });

  it("uses the config's judge model on the main --base-url when no --judge-model is given, and says so", async () => {
    const cfg = config("graded", { judgeModel: "from-config" });
    const before = sent(server);
    const out = io();
    const code = await main([...run(cfg, "b").filter((a) => a !== "--quiet")], out);
    expect(code).toBe(0);
    expect(out.err()).toContain(`judge model: openai-compatible:from-config (the judge model the config names; --judge-model to choose another) at ${server.url}/v1`);
    // The answers come from the cache (same model, same requests); the judge calls are new (another judge model).
    expect(sent(server) - before).toBe(ROWS.length);
    expect(json(join(dir, "b", "run.json")).models.judge.modelId).toBe("from-config");
  });

  it("refuses before any request a judge that is not installed, options it refuses, or no judge model at all", async () => {
    const before = sent(server);
    const missing = io();
    expect(await main(run(config("unknown-judge", { judge: "nope", judgeModel: "m" }), "c"), missing)).not.toBe(0);
    expect(missing.err()).toMatch(/task unknown-judge\/en needs the judge "nope", which is not installed/);
    const refused = io();
    expect(await main(run(config("bad-options", { judgeOptions: { colour: "red" }, judgeModel: "m" }), "d"), refused)).not.toBe(0);
    expect(refused.err()).toMatch(/task bad-options\/en gives the judge "grade" options it refuses \(judge\.options\): judge "grade": unknown option colour/);
    const noModel = io();
    expect(await main(run(config("no-judge-model"), "e"), noModel)).not.toBe(0);
    expect(noModel.err()).toMatch(/task no-judge-model\/en has a judge but its config names no judge model: pass --judge-model/);
    expect(sent(server)).toBe(before);
    expect(existsSync(join(dir, "e", "responses.jsonl"))).toBe(false);
  });

  it("hands a --baseline run's answers to the judge, and the baseline enters the fingerprint", async () => {
    const cfg = config("pairwise", { judgeModel: "grader", judgeOptions: { pairwise: true } });
    // The baseline: another model's run of the same config (judged too: it is the same task).
    const baseArgs = run(cfg, "base").map((a) => (a === "openai-compatible:gen" ? "openai-compatible:base" : a));
    expect(await main(baseArgs, io())).toBe(0);
    const out = io();
    expect(await main(run(cfg, "vs-base", "--baseline", join(dir, "base")), out)).toBe(0);
    const calls = judgeRecords("vs-base");
    expect(calls.filter((r) => r.call === "baseline")).toHaveLength(ROWS.length);
    // The baseline ("no") is right on odd rows; the judge request carried its answer.
    const odd = calls.find((r) => r.call === "baseline" && r.sample === "r1");
    expect(odd.judgement.label).toBe("PASS");
    expect(odd.request.messages[0].content).toContain("answer=Answer: no");
    const manifest = json(join(dir, "vs-base", "run.json"));
    expect(manifest.fingerprintParts.options.baseline).toBe(json(join(dir, "base", "run.json")).fingerprint);
  });
});

// SEA-HELM's own judged configs, verbatim, with the built-in judges: a criteria task and a pairwise
// one (its baseline answers are in the rows) judged by the dev server's replies.
const CORPUS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "config", "src", "__fixtures__", "seahelm_tasks");
const rowsOf = (file: string) =>
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "judged-rows", file), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("SEA-HELM judged configs end to end", () => {
  it("answers, judges with the built-in criteria and pairwise judges, and scores with no judge error", async () => {
    const hub = await startHubServer({
      datasets: {
        "aisingapore/Cultural-Evaluation-Kalahi-Judge": { tl: { eval: rowsOf("kalahi.jsonl"), examples: [] } },
        // The config has a Tagalog MT-Bench too (selected by --langs tl): the same rows serve.
        "aisingapore/MultiTurn-Chat-MT-Bench": { en: { eval: rowsOf("mt-bench.jsonl"), examples: [] }, tl: { eval: rowsOf("mt-bench.jsonl"), examples: [] } },
      },
    });
    const dev = await startDevServer({ port: 0, models: ["gen", "judge"] });
    try {
      const out = join(dir, "seahelm-judged");
      const args = ["run", join(CORPUS, "cultural", "kalahi_judge"), join(CORPUS, "multi_turn", "mt_bench"), "--tasks", "kalahi-judge,mt-bench", "--langs", "tl,en"];
      const more = ["--model", "openai-compatible:gen", "--base-url", `${dev.url}/v1`, "--judge-model", "openai-compatible:judge", "--out", out, "--no-report", "--quiet"];
      const cli = captureIO({ YARDSTICK_CACHE_DIR: cacheDir, YARDSTICK_HF_ENDPOINT: hub.url }, dir);
      expect(await main([...args, ...more], cli), cli.err()).toBe(0);
      const results = json(join(out, "results.json"));
      expect(results.meta.tasks["kalahi-judge/tl"]).toMatchObject({ samples: 2, errors: 0, unanswered: 0 });
      expect(results.meta.tasks["mt-bench/en"]).toMatchObject({ samples: 4, errors: 0, unanswered: 0 });
      const calls = judgeRecords("seahelm-judged");
      // One call per criterion of a kalahi row (3 + 2); both orders of both turns of an MT-Bench row.
      expect(calls.filter((r) => r.task === "kalahi-judge/tl")).toHaveLength(5);
      expect(calls.filter((r) => r.task === "mt-bench/en")).toHaveLength(4 * 2 * 2);
      expect(calls.filter((r) => r.task === "mt-bench/tl")).toHaveLength(4 * 2 * 2);
      expect(calls.every((r) => r.status === "ok" && r.judgement.error === undefined)).toBe(true);
    } finally {
      await hub.close();
      await dev.close();
    }
  });
});

// The plugin's judge keeps the judge contract.
testJudge(grade, {
  cases: [
    {
      sample: { id: "r0", prompts: [{ q: "question 0" }], label: "yes", raw: {} },
      answers: [
        { stage: "generate", turn: 1, texts: ["Answer: yes"], text: "Answer: yes" },
        { stage: "generate", turn: 1, texts: ["Answer: no"], text: "Answer: no", run: "baseline" },
      ],
      options: { pairwise: true },
      task: { key: "graded/en", name: "graded", language: "en", competency: "", data: { id: "inline-rows" }, fewshot: 0, prompt: { id: "plain-question" }, mode: "generate", endpoint: "chat", generation: {}, postprocessors: [], metrics: [], mainScore: "pass_rate", errorResponses: "replace" },
      expectedRequests: 2,
      replies: [{ response: "<grade>FAIL</grade>", expected: { score: 0, label: "FAIL" } }],
    },
  ],
  invalidOptions: [{ colour: "red" }],
});
