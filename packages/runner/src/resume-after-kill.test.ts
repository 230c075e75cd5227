import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";

const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli.js");

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

describe("resume after kill -9", () => {
  it("continues where it stopped and never re-sends a request whose answer was stored", async () => {
    const server = await startDevServer({ port: 0, latencyMs: 10, policy: (req) => toyAnswer(req.lastUserText) });
    try {
      const total = 400;
      const tasks = makeSentimentTask(total);
      const out = join(tasks, "run");
      const responses = join(out, "responses.jsonl");
      // --no-cache: the run store alone must prevent re-sending.
      const args = ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--concurrency", "4", "--no-cache"];
      const env = { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) };

      const first = runCli(args, env);
      const deadline = Date.now() + 30_000;
      while (readRecords(responses).length < 100 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      first.child.kill("SIGKILL");
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
      // Requests in flight at the kill may be sent twice (their answers were never stored); nothing else.
      const sent = stats.requests["/v1/chat/completions"] ?? 0;
      expect(sent).toBeGreaterThanOrEqual(total);
      expect(sent - total).toBeLessThanOrEqual(4 + 1);
      const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
      expect(results.en.nlu.toy.n).toBe(total);
      expect(results.en.nlu.toy.normalized_accuracy).toBe(100);
    } finally {
      await server.close();
    }
  });

  it("Ctrl-C stops taking samples, stores the answers in flight, and the next run finishes", async () => {
    const server = await startDevServer({ port: 0, latencyMs: 20, policy: (req) => toyAnswer(req.lastUserText) });
    try {
      const total = 200;
      const tasks = makeSentimentTask(total);
      const out = join(tasks, "run");
      const responses = join(out, "responses.jsonl");
      const args = ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--concurrency", "4", "--no-cache"];
      const env = { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) };
      const first = runCli(args, env);
      const deadline = Date.now() + 30_000;
      while (readRecords(responses).length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      first.child.kill("SIGINT");
      expect(await first.exited).toBe(130);
      expect(first.stderr()).toMatch(/interrupted: finishing requests in flight/);
      const stored = readRecords(responses);
      // Every request the server answered was stored as an answer, none as an error.
      expect(stored.filter((r) => r.error)).toEqual([]);
      expect(server.stats().requests["/v1/chat/completions"]).toBe(stored.length);
      const second = runCli(args, env);
      expect(await second.exited).toBe(0);
      expect(server.stats().requests["/v1/chat/completions"]).toBe(total);
    } finally {
      await server.close();
    }
  });
});
