import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, type DevServerRequest, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// `yardstick run --batch` on a judged task: the answers go through the evaluated model's batch
// API, the judge calls through the judge model's, with the online run's scores.

const plugin = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "judge-plugin.ts");
const ROWS = Array.from({ length: 6 }, (_, i) => ({ id: `r${i}`, q: `question ${i}`, label: i % 2 === 0 ? "yes" : "no" }));

function answer(req: DevServerRequest): string {
  if (req.lastUserText.startsWith("GRADE")) {
    const ref = /ref=(\w+)/.exec(req.lastUserText)?.[1];
    const said = /answer=Answer: (\w+)/.exec(req.lastUserText)?.[1];
    return `<grade>${ref === said ? "PASS" : "FAIL"}</grade>`;
  }
  return "Answer: yes";
}

let server: DevServer;
let judgeServer: DevServer;
let dir: string;
beforeAll(async () => {
  server = await startDevServer({ policy: answer, models: ["gen"] });
  judgeServer = await startDevServer({ policy: answer, models: ["grader"] });
  dir = mkdtempSync(join(tmpdir(), "ys-batch-judge-"));
});
afterAll(async () => {
  await server.close();
  await judgeServer.close();
});

const online = (s: DevServer): number => s.stats().requests["/v1/chat/completions"] ?? 0;

describe("yardstick run --batch with a judge", () => {
  it("sends the answers and the judge calls as batches and scores as the online run does", async () => {
    const cfg = join(dir, "graded.judged.json");
    writeFileSync(cfg, JSON.stringify({ name: "graded", rows: ROWS }));
    const run = (out: string, ...more: string[]) => [
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
      "--no-cache",
      ...more,
    ];
    expect(await main(run("online"), captureIO({ YARDSTICK_CACHE_DIR: join(dir, "cache") }, dir))).toBe(0);
    const before = [online(server), online(judgeServer)];
    expect(await main(run("batch", "--batch", "--batch-poll-seconds", "0.05"), captureIO({ YARDSTICK_CACHE_DIR: join(dir, "cache") }, dir))).toBe(0);
    expect([online(server), online(judgeServer)]).toEqual(before);
    expect(server.stats().batches).toEqual({ created: 1, requests: ROWS.length });
    // Judge prompts repeat (ref yes/no × the same answer): each distinct request is sent once.
    expect(judgeServer.stats().batches).toEqual({ created: 1, requests: 2 });
    const results = (out: string) => JSON.parse(readFileSync(join(dir, out, "results.json"), "utf8"));
    expect(results("batch").en.judged.graded.pass_rate).toBe(50);
    expect(results("batch")).toEqual(results("online"));
  });
});
