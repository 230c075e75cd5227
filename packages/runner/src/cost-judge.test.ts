import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, type DevServerRequest, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// `yardstick run --dry-run` on a judged task: the judge stage is estimated by running the real judge
// stage over placeholder answers, and nothing reaches either server.

const plugin = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "judge-plugin.ts");
const ROWS = Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, q: `question ${i}`, label: i % 2 === 0 ? "yes" : "no" }));

function answer(req: DevServerRequest): string {
  if (req.lastUserText.startsWith("GRADE")) {
    const ref = /ref=(\w+)/.exec(req.lastUserText)?.[1];
    const said = /answer=Answer: (\w+)/.exec(req.lastUserText)?.[1];
    return `<grade>${ref === said ? "PASS" : "FAIL"}</grade>`;
  }
  // Answers (and so judge prompts) differ per question, as real ones do.
  return `Answer: yes, for ${/question \d+/.exec(req.lastUserText)?.[0] ?? "this"}`;
}

let server: DevServer;
let judgeServer: DevServer;
let dir: string;
beforeAll(async () => {
  server = await startDevServer({ port: 0, policy: answer, models: ["gen"] });
  judgeServer = await startDevServer({ port: 0, policy: answer, models: ["grader"] });
  dir = mkdtempSync(join(tmpdir(), "ys-cost-judge-"));
});
afterAll(async () => {
  await server.close();
  await judgeServer.close();
});

const sent = (s: DevServer): number => s.stats().requests["/v1/chat/completions"] ?? 0;

describe("yardstick run --dry-run with a judge stage", () => {
  it("estimates the judge requests over placeholder answers, sends nothing, and comes within 10% of the real run", async () => {
    const cfg = join(dir, "graded.judged.json");
    writeFileSync(cfg, JSON.stringify({ name: "graded", rows: ROWS }));
    const prices = join(dir, "prices.json");
    writeFileSync(prices, JSON.stringify({ models: { gen: { input: 1, output: 2 }, grader: { input: 3, output: 6 } } }));
    const env = { YARDSTICK_CACHE_DIR: join(dir, "cache") };
    const args = (out: string, ...more: string[]) => [
      "run",
      cfg,
      "--model",
      "openai-compatible:gen",
      "--base-url",
      `${server.url}/v1`,
      "--judge-model",
      "openai-compatible:grader",
      "--judge-base-url",
      `${judgeServer.url}/v1`,
      "--plugin",
      plugin,
      "--out",
      join(dir, out),
      "--no-report",
      "--quiet",
      ...more,
    ];
    // A smaller run first: its answers and judgements are cached, and give the recorded means.
    const warm = captureIO(env, dir);
    const warmCode = await main(args("warm", "--limit", "3"), warm);
    expect(warm.err()).toBe("");
    expect(warmCode).toBe(0);

    const before = [sent(server), sent(judgeServer)];
    const dry = captureIO(env, dir);
    const dryCode = await main(args("full", "--dry-run", "--prices", prices), dry);
    expect(dry.err()).toBe("");
    expect(dryCode).toBe(0);
    expect([sent(server), sent(judgeServer)]).toEqual(before);
    const report = dry.out();
    const total = (stage: string) => {
      const m = new RegExp(`^${stage}\\s+total \\(([^)]*)\\)\\s+(\\d+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+(\\S+)`, "m").exec(report);
      if (!m) throw new Error(`no ${stage} total in:\n${report}`);
      const n = (s: string) => Number(s.replaceAll(",", ""));
      return { model: m[1], requests: n(m[2]!), input: n(m[3]!), output: n(m[4]!), cost: m[5] };
    };
    const gen = total("generate");
    const judge = total("judge");
    expect(gen).toMatchObject({ model: "openai-compatible:gen", requests: 9 });
    expect(judge).toMatchObject({ model: "openai-compatible:grader", requests: 9 });
    expect(report).toMatch(/judge\s+graded\/en\s+9\s+[\d,]+\s+[\d,]+\s+recorded mean \d+/);
    expect(report).not.toContain("not estimated");

    expect(await main(args("full"), captureIO(env, dir))).toBe(0);
    const all = readFileSync(join(dir, "full", "responses.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const records = all.filter((r) => r.status === "ok" && !r.cached);
    const usage = (stage: string) => {
      const rs = records.filter((r) => r.stage === stage);
      return { requests: rs.length, input: rs.reduce((a, r) => a + r.usage.promptTokens, 0), output: rs.reduce((a, r) => a + r.usage.completionTokens, 0) };
    };
    const within = (estimate: number, actual: number) => Math.abs(estimate - actual) <= 0.1 * actual;
    for (const [estimate, actual] of [
      [gen, usage("generate")],
      [judge, usage("judge")],
    ] as const) {
      expect(actual.requests).toBe(estimate.requests);
      expect(within(estimate.input, actual.input)).toBe(true);
      expect(within(estimate.output, actual.output)).toBe(true);
    }
  });
});
