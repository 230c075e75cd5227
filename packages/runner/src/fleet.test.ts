import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRunStats, formatRunSummary } from "@yardstick/engine";
import { createOpenAICompatible } from "@yardstick/models";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterEach, describe, expect, it } from "vitest";
import { makeSentimentTask, toyAnswer } from "./__fixtures__/make-task.js";
import { evaluate } from "./evaluate.js";

interface StoredRecord {
  sample: string;
  stage: string;
  status: string;
  error?: { kind: string; status?: number; attempts: number; message: string };
}

/** The last generate record of each sample: how it ended. */
function endings(out: string): StoredRecord[] {
  const last = new Map<string, StoredRecord>();
  for (const line of readFileSync(join(out, "responses.jsonl"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as StoredRecord;
    if (r.stage === "generate") last.set(r.sample, r);
  }
  return [...last.values()];
}

const CONCURRENCY = 8;
const servers: DevServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * A dev server answering the toy task after `latencyMs`; `onRequest(n)` runs as its n-th chat
 * request arrives (to stop a server mid-run).
 */
async function server(latencyMs: number, onRequest?: (n: number) => void, port = 0): Promise<DevServer> {
  let n = 0;
  const s = await startDevServer({
    port,
    latencyMs,
    policy: (req) => {
      onRequest?.(++n);
      return toyAnswer(req.lastUserText);
    },
  });
  servers.push(s);
  return s;
}

const chatRequests = (s: DevServer): number => s.stats().requests["/v1/chat/completions"] ?? 0;

/** A run of the toy task over `baseURLs` with the CLI's default provider settings but `settings`. */
async function run(samples: number, baseURLs: string[], settings: { maxOutageMs?: number } = {}) {
  const tasks = makeSentimentTask(samples);
  const out = join(tasks, "run");
  const model = createOpenAICompatible({ modelId: "toy", baseURLs, maxConcurrency: CONCURRENCY, ...settings });
  const stats = createRunStats();
  try {
    const started = performance.now();
    const report = await evaluate({ tasks, model, out, cache: false, concurrency: CONCURRENCY, progress: stats });
    return { seconds: (performance.now() - started) / 1000, report, out, endpoints: model.endpointStats(), session: stats.session(false) };
  } finally {
    await model.close();
  }
}

describe("a run against several base URLs", () => {
  it("sends most requests to the faster server", async () => {
    const fast = await server(2);
    const slow = await server(40);
    const r = await run(240, [`${slow.url}/v1`, `${fast.url}/v1`]);
    expect(endings(r.out).every((e) => e.status === "ok")).toBe(true);
    const toFast = chatRequests(fast);
    expect(toFast + chatRequests(slow)).toBe(240);
    expect(toFast / 240).toBeGreaterThan(0.7);
    expect(r.endpoints.map((e) => e.requests)).toEqual([chatRequests(slow), toFast]);
    // run-stats.json's session and the summary line show how the attempts were shared.
    expect(r.session.endpoints?.map((e) => [e.url, e.requests, e.errors])).toEqual([
      [`${slow.url}/v1`, chatRequests(slow), 0],
      [`${fast.url}/v1`, toFast, 0],
    ]);
    expect(formatRunSummary(r.session)).toContain(`${fast.url}/v1: ${toFast} attempt(s), 0 failed, mean `);
  }, 20_000);

  it("finishes on the other server when one is stopped mid-run, no sample failing", async () => {
    let stopped: Promise<void> | undefined;
    const doomed: { server?: DevServer } = {};
    const a = await server(5, (n) => {
      if (n === 40) stopped = doomed.server!.close();
    });
    doomed.server = a;
    const b = await server(5);
    const r = await run(300, [`${a.url}/v1`, `${b.url}/v1`]);
    await stopped;
    const ended = endings(r.out);
    expect(ended).toHaveLength(300);
    expect(ended.filter((e) => e.status !== "ok")).toEqual([]);
    expect(chatRequests(b)).toBeGreaterThan(200);
    expect(r.endpoints[0]!.setAside).toBe(1);
  }, 20_000);
});

describe("a run with a replica that is down when it starts", () => {
  it("says so, runs on the others, and gives it requests once it answers", async () => {
    const closed = await startDevServer({ port: 0, policy: () => "" });
    await closed.close();
    let back: Promise<DevServer> | undefined;
    const up = await server(20, (n) => {
      if (n === 40) back = server(20, undefined, closed.port);
    });
    const tasks = makeSentimentTask(600);
    const out = join(tasks, "run");
    const log: string[] = [];
    const downURL = `http://127.0.0.1:${closed.port}/v1`;
    const report = await evaluate({
      tasks,
      model: "openai-compatible:toy",
      baseURL: [`${up.url}/v1`, downURL],
      out,
      cache: false,
      concurrency: CONCURRENCY,
      log: (m) => log.push(m),
    });
    expect(report.aborted).toBe(false);
    expect(log).toContain(`warning: cannot reach the model server at ${downURL} (ECONNREFUSED): set aside and probed until it answers; the run goes on with the other 1 base URL`);
    const ended = endings(out);
    expect(ended).toHaveLength(600);
    expect(ended.filter((e) => e.status !== "ok")).toEqual([]);
    // Nothing was sent to it while it was down; once a probe found it, it got its share.
    expect(chatRequests(await back!)).toBeGreaterThan(50);
    expect(chatRequests(up) + chatRequests(await back!)).toBe(600);
  }, 20_000);
});

describe("a run whose only server goes away", () => {
  it("waits for a server that comes back after 2 s: every sample scored, no attempt spent while it was down", async () => {
    let restarted: Promise<DevServer> | undefined;
    const first = await server(5, (n) => {
      if (n !== 60) return;
      const port = first.port;
      restarted = first
        .close()
        .then(() => new Promise((resolve) => setTimeout(resolve, 2000)))
        .then(() => server(5, undefined, port));
    });
    const r = await run(200, [`${first.url}/v1`]);
    const again = await restarted!;
    const ended = endings(r.out);
    expect(ended).toHaveLength(200);
    expect(ended.filter((e) => e.status !== "ok")).toEqual([]);
    expect(r.seconds).toBeGreaterThan(2);
    // The requests in flight when it stopped were sent twice, the first refused ones too; nothing
    // was sent over and over while it was down.
    // One base URL: its counts are the run's own, not repeated per base URL.
    expect(r.session.endpoints).toBeUndefined();
    const sent = r.endpoints[0]!.requests;
    expect(sent).toBeLessThanOrEqual(200 + 2 * CONCURRENCY);
    expect(chatRequests(again)).toBeGreaterThan(100);
  }, 20_000);

  it("ends with network errors in bounded time when the server never comes back", async () => {
    const only = await server(5, (n) => {
      if (n === 30) void only.close();
    });
    const r = await run(120, [`${only.url}/v1`], { maxOutageMs: 1000 });
    const ended = endings(r.out);
    expect(ended).toHaveLength(120);
    const failed = ended.filter((e) => e.status !== "ok");
    expect(failed.length).toBeGreaterThan(80);
    for (const e of failed) {
      expect(e.error!.kind).toBe("network");
      expect(e.error!.attempts).toBeLessThanOrEqual(6);
    }
    expect(failed.some((e) => /did not answer for 1(\.\d)? s, giving up/.test(e.error!.message))).toBe(true);
    expect(r.seconds).toBeLessThan(8);
  }, 20_000);
});
