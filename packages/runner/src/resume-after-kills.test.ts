/**
 * Issue #13 (a) at CI scale: a run killed with SIGKILL at several random moments and restarted each
 * time finishes with every answer, never asks again for an answer it stored, and re-sends in all at
 * most the requests that were in flight at the kills. (bench/resume does the same with 72 kills.)
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mulberry32 } from "@yardstick/core";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";

const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "yardstick.js");
const CONCURRENCY = 4;
/**
 * Samples that can be in flight (sent, answer not yet stored): the OpenAI-compatible provider has its
 * own limiter (at most CONCURRENCY requests on the wire), so the engine runs twice as many sample
 * workers. A sample whose answer has arrived frees its request slot at once but holds its worker
 * until its records reach the OS, so up to 2 × CONCURRENCY samples can be lost to one kill.
 */
const SAMPLE_WORKERS = 2 * CONCURRENCY;
const KILLS = 4;

/** The answered records of the store (a line torn by the kill is skipped: it is cut on resume). */
function answered(path: string): { sample: string; promptHash: string }[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .flatMap((l) => {
      try {
        const r = JSON.parse(l);
        return r.status === "ok" ? [r] : [];
      } catch {
        return [];
      }
    });
}

/**
 * How many answers the store holds, counted cheaply: the dev server runs in this thread, and parsing
 * the whole file every few milliseconds starved it long enough on a busy CI machine for an attempt to
 * time out and be retried (a send that is no re-send after a kill).
 */
function answeredCount(path: string): number {
  if (!existsSync(path)) return 0;
  return readFileSync(path, "utf8").split('"status":"ok"').length - 1;
}

describe("resume after several kill -9 at random moments", () => {
  it("finishes with every answer; re-sent requests are at most those in flight at the kills", async () => {
    const server = await startDevServer({ port: 0, latencyMs: 5, policy: (req) => toyAnswer(req.lastUserText) });
    try {
      const total = 300;
      const tasks = makeSentimentTask(total);
      const out = join(tasks, "run");
      const responses = join(out, "responses.jsonl");
      const args = [cli, "run", tasks, "--model", "openai-compatible:toy", "--base-url", `${server.url}/v1`, "--out", out];
      args.push("--concurrency", String(CONCURRENCY), "--no-cache", "--quiet");
      const env = { ...process.env, YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "ys-cache-")) };
      const random = mulberry32(13);
      // Sends of each prompt once its answer was stored: they must not grow afterwards.
      const sendsWhenStored = new Map<string, number>();
      for (let kill = 0; kill < KILLS; kill++) {
        const before = answered(responses).length;
        // Kill once 10 to 50 more answers are stored: a random moment with requests in flight.
        const target = before + 10 + Math.floor(random() * 40);
        const child = spawn(process.execPath, args, { env, stdio: "ignore" });
        const exited = new Promise((resolve) => child.on("exit", resolve));
        const deadline = Date.now() + 30_000;
        while (answeredCount(responses) < target && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
        child.kill("SIGKILL");
        await exited;
        const stats = server.stats();
        for (const r of answered(responses)) sendsWhenStored.set(r.promptHash, sendsWhenStored.get(r.promptHash) ?? stats.byPromptHash[r.promptHash] ?? 0);
      }
      expect(answered(responses).length).toBeLessThan(total);
      const last = spawn(process.execPath, args, { env, stdio: "ignore" });
      expect(await new Promise((resolve) => last.on("exit", resolve))).toBe(0);

      const stats = server.stats();
      for (const [hash, sends] of sendsWhenStored) expect(stats.byPromptHash[hash], hash).toBe(sends);
      expect(new Set(answered(responses).map((r) => r.sample)).size).toBe(total);
      // Re-sent after the kills: new requests beyond one per sample. A retry (an attempt that timed out
      // on a starved machine, say) is not a re-send: it says so (ATTEMPT_HEADER) and is left out.
      const sent = (stats.requests["/v1/chat/completions"] ?? 0) - (stats.retries["/v1/chat/completions"] ?? 0);
      expect(sent - total).toBeLessThanOrEqual(KILLS * SAMPLE_WORKERS);
      const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
      expect(results.en.nlu.toy.normalized_accuracy).toBe(100);
    } finally {
      await server.close();
    }
  }, 120_000);
});
