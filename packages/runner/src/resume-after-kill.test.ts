import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";

const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "yardstick.js");

const readRecords = (path: string): { sample: string; promptHash: string; error?: unknown }[] =>
  existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .flatMap((l) => {
          try {
            return [JSON.parse(l)];
          } catch {
            return []; // a line torn by kill -9
          }
        })
    : [];

function runCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

/** A toy task of `total` rows evaluated by the CLI against `serverUrl`, without the request cache. */
function setUpRun(total: number, serverUrl: string) {
  const tasks = makeSentimentTask(total);
  const out = join(tasks, "run");
  return {
    out,
    responses: join(out, "responses.jsonl"),
    // --no-cache: the run store alone must prevent re-sending.
    args: ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${serverUrl}/v1`, "--out", out, "--concurrency", "4", "--no-cache"],
    env: { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) },
  };
}

/** Starts the run and sends `signal` once at least `records` answers are stored. */
async function interruptAfter(run: ReturnType<typeof setUpRun>, records: number, signal: NodeJS.Signals) {
  const first = runCli(run.args, run.env);
  const deadline = Date.now() + 30_000;
  while (readRecords(run.responses).length < records && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  first.child.kill(signal);
  return first;
}

describe("resume after kill -9", () => {
  it("continues where it stopped and never re-sends a request whose answer was stored", async () => {
    const server = await startDevServer({ port: 0, latencyMs: 10, policy: (req) => toyAnswer(req.lastUserText) });
    try {
      const total = 400;
      const run = setUpRun(total, server.url);
      const { out, responses, args, env } = run;
      const first = await interruptAfter(run, 100, "SIGKILL");
      expect(await first.exited).toBe(null);
      const stored = readRecords(responses);
      expect(stored.length).toBeGreaterThanOrEqual(100);
      expect(stored.length).toBeLessThan(total);
      expect(existsSync(join(out, "results.json"))).toBe(false);

      const second = runCli(args, env);
      expect(await second.exited).toBe(0);
      expect(second.stderr()).toContain("resuming");

      const stats = server.stats();
      for (const rec of stored) expect(stats.byPromptHash[rec.promptHash], `sample ${rec.sample}`).toBe(1);
      const finalRecords = readRecords(responses);
      const answered = new Set(finalRecords.filter((r) => !r.error).map((r) => r.sample));
      expect(answered.size).toBe(total);
      // Requests in flight at the kill may be sent twice (their answers were never stored); nothing else
      // (retries, which say so, aside).
      const sent = (stats.requests["/v1/chat/completions"] ?? 0) - (stats.retries["/v1/chat/completions"] ?? 0);
      expect(sent).toBeGreaterThanOrEqual(total);
      expect(sent - total).toBeLessThanOrEqual(4 + 1);
      const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
      expect(results.en.nlu.toy.n).toBe(total);
      expect(results.en.nlu.toy.normalized_accuracy).toBe(100);
    } finally {
      await server.close();
    }
  });

  it("Ctrl-C stops taking samples, aborts the requests in flight (stored as interrupted), and the next run finishes", async () => {
    const server = await startDevServer({ port: 0, latencyMs: 20, policy: (req) => toyAnswer(req.lastUserText) });
    try {
      const total = 200;
      const run = setUpRun(total, server.url);
      const { responses, args, env } = run;
      const first = await interruptAfter(run, 40, "SIGINT");
      expect(await first.exited).toBe(130);
      expect(first.stderr()).toMatch(/interrupted: stopping the requests in flight/);
      const stored = readRecords(responses);
      const answered = stored.filter((r) => !r.error);
      // The requests in flight were aborted and stored as interrupted, not as answers.
      for (const r of stored.filter((r) => r.error)) expect(JSON.stringify(r.error)).toContain("interrupted");
      const received = server.stats().requests["/v1/chat/completions"] ?? 0;
      // Every request the server received was answered and stored, or was one of the (at most 4) in flight.
      expect(received - answered.length).toBeGreaterThanOrEqual(0);
      expect(received - answered.length).toBeLessThanOrEqual(4);
      const second = runCli(args, env);
      expect(await second.exited).toBe(0);
      // The next run sends exactly the samples without a stored answer.
      expect(server.stats().requests["/v1/chat/completions"]).toBe(received + total - answered.length);
    } finally {
      await server.close();
    }
  });
});
