#!/usr/bin/env node
// bench/resume (issue 13, benchmark 6): `yardstick run` killed with SIGKILL at random points and
// restarted on the same --out folder (no request cache: the run store alone must prevent re-sending),
// K times, then run to the end. For each kill: the requests the dev server received during that run
// minus the answers that run stored — requests lost in flight, which the next run sends again. The
// target: at most the in-flight limit (the concurrency) per kill.
// Usage: node bench/resume/run.mjs [N=20000] [kills=50] [concurrency=64] [latencyMs=20] [seed=13]
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, generateRecords, startDevServerProcess, startHarness } from "../lib/processes.mjs";
import { makeTask } from "../throughput/make-task.mjs";

const n = Number(process.argv[2] ?? 20_000);
const kills = Number(process.argv[3] ?? 50);
const concurrency = Number(process.argv[4] ?? 64);
const latencyMs = Number(process.argv[5] ?? 20);
const seed = Number(process.argv[6] ?? 13);

/** mulberry32: the kill points are random but the same for the same seed. */
function random(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Counts the lines appended to a file as it grows (reads only the new bytes). */
function lineCounter(path) {
  let offset = 0;
  let lines = 0;
  const buf = Buffer.alloc(1 << 20);
  return () => {
    let size;
    try {
      size = statSync(path).size;
    } catch {
      return lines;
    }
    if (size <= offset) return lines;
    const fd = openSync(path, "r");
    try {
      while (offset < size) {
        const got = readSync(fd, buf, 0, Math.min(buf.length, size - offset), offset);
        if (got === 0) break;
        for (let i = buf.indexOf(0x0a, 0); i !== -1 && i < got; i = buf.indexOf(0x0a, i + 1)) lines++;
        offset += got;
      }
    } finally {
      closeSync(fd);
    }
    return lines;
  };
}

/** Samples with a stored answer (torn lines skipped). */
const answeredSamples = (out) => new Set(generateRecords(out).filter((r) => r.status === "ok").map((r) => r.sample)).size;

const server = await startDevServerProcess(["--policy", "fixed:Answer: Positive", "--latency-ms", String(latencyMs)]);
const dir = mkdtempSync(join(tmpdir(), "yardstick-bench-resume-"));
try {
  await makeTask(dir, n);
  const out = join(dir, "run");
  const settings = { taskDir: dir, url: server.url, out, concurrency, cacheDir: join(dir, "cache") };
  // Kill points: K sorted uniform draws over the stored answers, so the kills spread over the run.
  const draw = random(seed);
  const points = Array.from({ length: kills }, () => Math.floor(draw() * n)).sort((a, b) => a - b);
  const count = lineCounter(join(out, "responses.jsonl"));
  const perKill = [];
  let answeredBefore = 0;
  let receivedBefore = 0;
  for (const point of points) {
    const run = startHarness(settings);
    // Kill once the store holds this many answers (at the latest right after this run's first one).
    const at = Math.max(point, count() + 1);
    while (count() < at) {
      await new Promise((r) => setTimeout(r, 2));
      if (run.child.exitCode !== null) break;
    }
    run.child.kill("SIGKILL");
    if ((await run.result) !== null) throw new Error("the run finished before it could be killed: use more samples or fewer kills");
    // Requests the killed process had written to its sockets may still be reaching the server: let
    // them land, or they would be counted against the next run.
    await new Promise((r) => setTimeout(r, 300));
    const answered = answeredSamples(out);
    const received = await server.chatRequests();
    perKill.push({ at: answered, excess: received - receivedBefore - (answered - answeredBefore) });
    answeredBefore = answered;
    receivedBefore = received;
  }
  const last = await startHarness(settings).result;
  if (last === null || last.code !== 0) throw new Error(`the last run exited with ${last?.code}`);
  const answered = answeredSamples(out);
  const received = await server.chatRequests();
  if (answered !== n) throw new Error(`${answered} of ${n} samples answered after the last run`);
  const excesses = perKill.map((k) => k.excess);
  const max = Math.max(...excesses);
  const mean = excesses.reduce((a, b) => a + b, 0) / excesses.length;
  const row = { samples: n, kills, concurrency, latencyMs, received, duplicates: received - n, maxExcessPerKill: max, meanExcessPerKill: +mean.toFixed(1), perKill };
  console.log(JSON.stringify(row));
  console.log(`\n| N | kills | concurrency | requests received | − samples | max excess per kill | ÷ concurrency | mean per kill | ≤ in-flight limit |`);
  console.log("|---|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${fmt(n)} | ${kills} | ${concurrency} | ${fmt(received)} | ${fmt(received - n)} | **${max}** | ${(max / concurrency).toFixed(2)} | ${mean.toFixed(1)} | ${max <= concurrency ? "yes" : "**no**"} |`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.stop();
}
