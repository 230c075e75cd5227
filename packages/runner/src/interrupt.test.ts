import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseResponseLine, runStatsSchema } from "@yardstick/run-format";
import { startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";

const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "yardstick.js");

interface StoredRecord {
  sample: string;
  status: string;
  error?: { kind: string; message: string; attempts: number };
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

/**
 * An HTTP server on 127.0.0.1 that takes every request and never answers (after answering the first
 * `modelLists` GET /v1/models with a list naming "toy"); `seen` lists the paths asked for.
 */
async function startSilentServer(modelLists = 0): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  let listed = 0;
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? "");
    if (req.url === "/v1/models" && listed < modelLists) {
      listed++;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: [{ id: "toy", object: "model" }] }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const TRANSLATION_CONFIG = join(dirname(fileURLToPath(import.meta.url)), "__fixtures__", "seahelm_translation");

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
      // Exactly the requests that reached the server and hung are interrupted (8, the concurrency):
      // calls still waiting for a slot had not left, so they are neither records nor requests.
      const hung = hanging.stats().faults.hang ?? 0;
      expect(interrupted.length).toBe(hung);
      for (const r of interrupted) {
        expect(r.error?.kind).toBe("interrupted");
        expect(r.error?.message).toContain("interrupted");
        expect(r.error?.attempts).toBe(1);
      }
      // Every record reads back.
      for (const line of readFileSync(responses, "utf8").split("\n").filter((l) => l !== "")) expect(parseResponseLine(line).ok, line).toBe(true);
      // The session counts them as interrupted, not as errors, and counts only what was sent.
      const session = runStatsSchema.parse(JSON.parse(readFileSync(join(out, "run-stats.json"), "utf8"))).sessions.at(-1)!;
      expect(session.interrupted).toBe(interrupted.length);
      expect(session.errors).toBe(0);
      expect(session.requests).toBe(answered + hung);
      // Nor are their samples done, nor the stopped task: the progress and the session count the answered ones.
      expect(session.samples.done).toBe(answered);
      expect(session.tasks).toEqual({ planned: 1, done: 0 });
      expect(first.stderr()).toContain(`${interrupted.length} interrupted (sent again on resume)`);
      expect(existsSync(join(out, "results.json"))).toBe(false);
      // Scored as it stands, the stopped store has 20 answers and no errors: an interrupted call is no answer.
      const scored = runCli(["score-run", out], env);
      expect((await scored.exited).code, scored.stderr()).toBe(0);
      expect(scored.stderr()).not.toContain("unreadable");
      const partial = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
      // Unanswered: every sample the stage had taken up (its sample record written), the interrupted ones among them.
      const taken = readdirSync(join(out, "samples")).flatMap((f) => readRecords(join(out, "samples", f))).length;
      expect(taken - answered).toBeGreaterThanOrEqual(interrupted.length);
      expect(Object.values(partial.meta.tasks)).toEqual([{ samples: answered, errors: 0, unanswered: taken - answered, retries: 0, perSampleKey: expect.any(String) }]);
    } finally {
      await hanging.close();
    }

    // The rerun against a healthy server sends only what was not answered, then scores everything.
    const healthy = await startDevServer({ port: 0, policy: (req) => toyAnswer(req.lastUserText) });
    try {
      const second = runCli(args(healthy.url), env);
      expect((await second.exited).code, second.stderr()).toBe(0);
      expect(second.stderr()).toContain("resuming");
      expect(second.stderr()).not.toContain("unreadable");
      expect(healthy.stats().requests["/v1/chat/completions"]).toBe(total - answered);
      expect(existsSync(join(out, "results.json"))).toBe(true);
    } finally {
      await healthy.close();
    }
  }, 60_000);

  it("stopped before any request was answered, the run says so and exits 130: interrupted calls are no failures for fail-fast", async () => {
    // Every request hangs, so the 16 in flight are all interrupted: more than fail-fast's 10 first failures.
    const hanging = await startDevServer({ port: 0, policy: (req) => toyAnswer(req.lastUserText), faults: { rateHang: 1 } });
    const tasks = makeSentimentTask(40);
    const out = join(tasks, "run");
    try {
      const run = runCli(["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${hanging.url}/v1`, "--out", out, "--concurrency", "16", "--no-cache"], {});
      await until(() => (hanging.stats().faults.hang ?? 0) >= 16, 30_000);
      run.child.kill("SIGINT");
      const { code } = await run.exited;
      expect(code, run.stderr()).toBe(130);
      expect(run.stderr()).toContain("run the same command again to continue");
      expect(run.stderr()).not.toContain("requests all failed");
      const stored = readRecords(join(out, "responses.jsonl"));
      expect(stored.length).toBe(16);
      expect(stored.every((r) => r.status === "error" && r.error?.kind === "interrupted")).toBe(true);
      expect(run.stderr()).toContain("16 request(s) sent");
      expect(run.stderr()).toContain("16 interrupted (sent again on resume)");
    } finally {
      await hanging.close();
    }
  }, 60_000);

  // Hanging at the reachability probe (the first GET /v1/models), then at the served-model lookup (the second).
  it.each([0, 1])(
    "stops within a second while the server hangs before the run starts (GET /v1/models answered %i time(s)), and writes nothing",
    async (answered) => {
      const silent = await startSilentServer(answered);
      const tasks = makeSentimentTask(5);
      const out = join(tasks, "run");
      try {
        const run = runCli(["run", tasks, "--model", "openai-compatible:toy", "--base-url", `${silent.url}/v1`, "--out", out, "--no-cache"], {});
        await until(() => silent.seen.length > answered, 30_000);
        expect(silent.seen).toEqual(Array.from({ length: answered + 1 }, () => "/v1/models"));
        const sentAt = performance.now();
        run.child.kill("SIGINT");
        const { code, at } = await run.exited;
        expect(code, run.stderr()).toBe(130);
        expect(at - sentAt).toBeLessThan(1000);
        expect(run.stderr()).toContain("stopped before the first request; nothing was written");
        expect(existsSync(out)).toBe(false);
      } finally {
        await silent.close();
      }
    },
    60_000,
  );

  it("one Ctrl-C while scoring (a MetricX endpoint that never answers) quits within a second: every answer kept, the session recorded as stopped", async () => {
    const dev = await startDevServer({ port: 0, policy: () => "Terjemahan: Kucing tidur." });
    const metricx = await startSilentServer();
    const out = join(mkdtempSync(join(tmpdir(), "yardstick-run-")), "run");
    try {
      const run = runCli(
        ["run", TRANSLATION_CONFIG, "--model", "openai-compatible:toy", "--base-url", `${dev.url}/v1`, "--out", out, "--no-cache", "--metricx-url", metricx.url],
        {},
      );
      await until(() => metricx.seen.length > 0, 30_000);
      expect(metricx.seen.length).toBeGreaterThan(0);
      const sentAt = performance.now();
      run.child.kill("SIGINT");
      const { code, at } = await run.exited;
      expect(code).toBe(130);
      expect(at - sentAt).toBeLessThan(1000);
      expect(run.stderr()).toContain(`interrupted while scoring: every answer is stored; run the same command again to score them (no request is sent again): ${out}`);
      // Every answer was stored before scoring began; no half-written results.
      expect(readRecords(join(out, "responses.jsonl")).filter((r) => r.status === "ok").length).toBe(3);
      expect(existsSync(join(out, "results.json"))).toBe(false);
      const stats = runStatsSchema.parse(JSON.parse(readFileSync(join(out, "run-stats.json"), "utf8")));
      expect(stats.sessions.at(-1)?.aborted).toBe(true);
      // The rerun (scoring without MetricX) sends no request to the model again.
      const before = dev.stats().requests["/v1/chat/completions"];
      const rerun = runCli(["run", TRANSLATION_CONFIG, "--model", "openai-compatible:toy", "--base-url", `${dev.url}/v1`, "--out", out, "--no-cache"], {});
      expect((await rerun.exited).code, rerun.stderr()).toBe(0);
      expect(dev.stats().requests["/v1/chat/completions"]).toBe(before);
      expect(existsSync(join(out, "results.json"))).toBe(true);
    } finally {
      await metricx.close();
      await dev.close();
    }
  }, 60_000);

  // One Ctrl-C already exits this fast here, so this checks that two in a row exit cleanly with 130
  // (no crash, no hang on the second handler).
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
