import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createOpenAICompatible } from "@yardstick/models";
import { type DevServerFaults, startDevServer } from "@yardstick/testing";
import { describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { evaluate } from "./evaluate.js";

interface StoredRecord {
  sample: string;
  stage: string;
  status: string;
  error?: { kind: string; status?: number; attempts: number };
}

/** The last generate record of each sample: how it ended. */
function endings(out: string): Map<string, StoredRecord> {
  const last = new Map<string, StoredRecord>();
  for (const line of readFileSync(join(out, "responses.jsonl"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as StoredRecord;
    if (r.stage === "generate") last.set(r.sample, r);
  }
  return last;
}

const LATENCY_MS = 100;
const RETRY_AFTER_S = 0.5;
const CONCURRENCY = 16;
const MAX_ATTEMPTS = 6;

/** A run of `samples` samples at the CLI's default concurrency against a dev server with `faults`. */
async function run(samples: number, faults: DevServerFaults, settings: { backoff?: { baseMs: number; maxMs: number } } = {}) {
  const server = await startDevServer({ port: 0, latencyMs: LATENCY_MS, seed: 3, policy: (req) => toyAnswer(req.lastUserText), faults });
  const tasks = makeSentimentTask(samples);
  const out = join(tasks, "run");
  // Default provider settings but the attempt-time floor, scaled down with the 100 ms latency (1 s by default).
  const model = createOpenAICompatible({ modelId: "toy", baseURL: `${server.url}/v1`, maxConcurrency: CONCURRENCY, attemptTimeoutFloorMs: 400, ...settings });
  try {
    const started = performance.now();
    const report = await evaluate({ tasks, model, out, cache: false, concurrency: CONCURRENCY, maxAttempts: MAX_ATTEMPTS });
    const seconds = (performance.now() - started) / 1000;
    return { seconds, report, out, stats: server.stats() };
  } finally {
    await model.close();
    await server.close();
  }
}

describe("a run under combined faults", () => {
  it("finishes within 2× the fault-free time plus the Retry-After waits, every sample scored or failed with its real kind", async () => {
    // 300 samples: at 200 the retry chains of the last few samples (fixed waits, whatever the run's size) made it flaky on a loaded machine.
    const samples = 300;
    // Side by side: the fault-free time is the mean of a run before and one after (a loaded machine drifts).
    const before = await run(samples, {});
    const faulty = await run(samples, {
      rate429: 0.1,
      rate500: 0.1,
      rateReset: 0.1,
      rateMalformed: 0.1,
      rateHang: 0.02,
      retryAfterSeconds: RETRY_AFTER_S,
    });
    const after = await run(samples, {});
    const clean = { seconds: (before.seconds + after.seconds) / 2 };
    // Every sample ends: answered, or a recorded error after at most MAX_ATTEMPTS attempts.
    const ended = endings(faulty.out);
    expect(ended.size).toBe(samples);
    const kinds = new Set<string>();
    for (const r of ended.values()) {
      if (r.status === "ok") continue;
      expect(r.error!.attempts).toBe(MAX_ATTEMPTS);
      kinds.add(r.error!.kind);
    }
    // The injected faults are 429/500 (api), resets (network), garbled JSON (invalid-response), hangs (timeout).
    for (const kind of kinds) expect(["api", "network", "invalid-response", "timeout"]).toContain(kind);
    expect(faulty.report.results).toBeDefined();
    const attempts = faulty.stats.requests["/v1/chat/completions"] ?? 0;
    expect(attempts).toBeLessThanOrEqual(samples * MAX_ATTEMPTS);
    // Each 429 asked for a wait; spread over the concurrency that is what honouring them costs in wall time.
    const honoured = ((faulty.stats.faults["429"] ?? 0) * RETRY_AFTER_S) / CONCURRENCY;
    expect(faulty.stats.faults.hang ?? 0).toBeGreaterThan(0);
    expect(faulty.seconds, `fault-free ${clean.seconds.toFixed(2)} s, honoured Retry-After ${honoured.toFixed(2)} s`).toBeLessThanOrEqual(
      2 * clean.seconds + honoured,
    );
  }, 60_000);

  it("records each fault as its own kind once the attempts run out", async () => {
    const cases: [DevServerFaults["script"], string, number | undefined][] = [
      [Array(MAX_ATTEMPTS).fill("malformed"), "invalid-response", undefined],
      [Array(MAX_ATTEMPTS).fill("reset"), "network", undefined],
      [Array(MAX_ATTEMPTS).fill("500"), "api", 500],
    ];
    for (const [script, kind, status] of cases) {
      // A server failing every attempt gets the full backoff: shortened here to keep the test fast.
      const r = await run(1, { script, retryAfterSeconds: 0 }, { backoff: { baseMs: 5, maxMs: 20 } });
      const [only] = [...endings(r.out).values()];
      expect(only?.error, kind).toMatchObject({ kind, attempts: MAX_ATTEMPTS, ...(status !== undefined ? { status } : {}) });
    }
  }, 60_000);
});
