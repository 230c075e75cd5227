import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";

const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "yardstick.js");

interface StoredRecord {
  sample: string;
  status: string;
  error?: { kind: string; message: string };
}

const readRecords = (path: string): StoredRecord[] =>
  existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as StoredRecord)
    : [];

function runCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on("exit", (code) => resolve({ code, at: performance.now() })));
  return { child, exited, stderr: () => stderr };
}

const until = async (ready: () => boolean, ms: number): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!ready() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
};

describe("Ctrl-C", () => {
  it("stops within a second while requests hang, records them as interrupted, and a rerun finishes the run", async () => {
    const total = 60;
    const answered = 20;
    // The first 20 requests are answered, every later one hangs (the server never replies).
    const hanging = await startDevServer({
      port: 0,
      policy: (req) => toyAnswer(req.lastUserText),
      faults: { script: Array.from({ length: answered }, () => null), rateHang: 1 },
    });
    const tasks = makeSentimentTask(total);
    const out = join(tasks, "run");
    const responses = join(out, "responses.jsonl");
    const env = { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) };
    const args = (url: string) => ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${url}/v1`, "--out", out, "--concurrency", "8", "--no-cache"];
    try {
      const first = runCli(args(hanging.url), env);
      await until(() => readRecords(responses).length >= answered, 30_000);
      // Let the next requests reach the server and hang there.
      await until(() => (hanging.stats().faults.hang ?? 0) >= 8, 10_000);
      expect(hanging.stats().faults.hang ?? 0).toBeGreaterThanOrEqual(8);
      const sentAt = performance.now();
      first.child.kill("SIGINT");
      const { code, at } = await first.exited;
      expect(at - sentAt, first.stderr()).toBeLessThan(1500);
      expect(code).toBe(130);
      expect(first.stderr()).toContain("run the same command again to continue");

      const stored = readRecords(responses);
      const ok = stored.filter((r) => r.status === "ok");
      const interrupted = stored.filter((r) => r.status === "error");
      expect(ok.length).toBe(answered);
      expect(interrupted.length).toBeGreaterThanOrEqual(1);
      for (const r of interrupted) expect(r.error?.message).toContain("interrupted");
      expect(existsSync(join(out, "results.json"))).toBe(false);
    } finally {
      await hanging.close();
    }

    // The rerun against a healthy server sends only what was not answered, then scores everything.
    const healthy = await startDevServer({ port: 0, policy: (req) => toyAnswer(req.lastUserText) });
    try {
      const second = runCli(args(healthy.url), env);
      expect((await second.exited).code, second.stderr()).toBe(0);
      expect(second.stderr()).toContain("resuming");
      expect(healthy.stats().requests["/v1/chat/completions"]).toBe(total - answered);
      expect(existsSync(join(out, "results.json"))).toBe(true);
    } finally {
      await healthy.close();
    }
  }, 60_000);

  // One Ctrl-C already exits this fast here, so this checks that two in a row exit cleanly with 130
  // (no crash, no hang on the second handler); it cannot tell the forced exit from the first one's.
  it("two Ctrl-Cs in a row exit with 130 within 1.5 s", async () => {
    const server = await startDevServer({ port: 0, faults: { rateHang: 1 } });
    const tasks = makeSentimentTask(20);
    const out = join(tasks, "run");
    try {
      const run = runCli(
        ["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out, "--concurrency", "4", "--no-cache"],
        { YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) },
      );
      await until(() => (server.stats().faults.hang ?? 0) >= 4, 30_000);
      const sentAt = performance.now();
      run.child.kill("SIGINT");
      run.child.kill("SIGINT");
      const { code, at } = await run.exited;
      expect(code).toBe(130);
      expect(at - sentAt).toBeLessThan(1500);
    } finally {
      await server.close();
    }
  }, 60_000);
});
