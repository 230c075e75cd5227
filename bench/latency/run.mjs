#!/usr/bin/env node
// bench/latency (issue 13, benchmark 2): a latency-bound run. The dev server (its own process) waits a
// fixed time before each answer; `yardstick run` of N samples at concurrency C can at best take
// N × latency / C. Reports the wall time over that ideal (target: within 5%).
// Usage: node bench/latency/run.mjs [N=10000] [latencyMs=100] [concurrency=64]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, startDevServerProcess, startHarness } from "../lib/processes.mjs";
import { makeTask } from "../throughput/make-task.mjs";

const n = Number(process.argv[2] ?? 10_000);
const latencyMs = Number(process.argv[3] ?? 100);
const concurrency = Number(process.argv[4] ?? 64);
const idealSeconds = (n * latencyMs) / concurrency / 1000;

const server = await startDevServerProcess(["--policy", "fixed:Answer: Positive", "--latency-ms", String(latencyMs)]);
const dir = mkdtempSync(join(tmpdir(), "yardstick-bench-latency-"));
try {
  await makeTask(dir, n);
  // Process wall time: from spawning the process to its exit (Node start and module loading included).
  const t0 = performance.now();
  const run = startHarness({ taskDir: dir, url: server.url, out: join(dir, "run"), concurrency, cacheDir: join(dir, "cache") });
  const r = await run.result;
  const processSeconds = (performance.now() - t0) / 1000;
  if (r === null || r.code !== 0) throw new Error(`yardstick run exited with ${r?.code}`);
  const sent = await server.chatRequests();
  if (sent !== n) throw new Error(`the server received ${sent} requests for ${n} samples`);
  const row = {
    samples: n,
    latencyMs,
    concurrency,
    idealSeconds: +idealSeconds.toFixed(2),
    // `yardstick run` itself (the CLI's main: loading, requests, run store, scoring, results).
    runSeconds: +r.seconds.toFixed(2),
    processSeconds: +processSeconds.toFixed(2),
    runOverIdeal: +(r.seconds / idealSeconds).toFixed(3),
    processOverIdeal: +(processSeconds / idealSeconds).toFixed(3),
    peakRssMB: Math.round(r.maxRssMB),
  };
  console.log(JSON.stringify(row));
  console.log(`\n| N | latency | concurrency | ideal | yardstick run | ÷ ideal | process (incl. Node start) | ÷ ideal | within 5% | peak RSS |`);
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${fmt(n)} | ${latencyMs} ms | ${concurrency} | ${row.idealSeconds} s | ${row.runSeconds} s | **${row.runOverIdeal}** | ${row.processSeconds} s | ${row.processOverIdeal} | ${row.processOverIdeal <= 1.05 ? "yes" : "**no**"} | ${row.peakRssMB} MB |`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.stop();
}
