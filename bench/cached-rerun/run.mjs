#!/usr/bin/env node
// bench/cached-rerun (issue 13, benchmark 4): a fully cached re-run. `yardstick run` of N samples
// with the request cache on (a fresh cache folder) against the dev server (its own process, zero
// latency), then the same task again into a new --out folder with the same cache: every answer comes
// from the cache. Times the second run (target: at least 20,000 samples/s) and checks it sent nothing.
// Usage: node bench/cached-rerun/run.mjs [N=100000] [concurrency=64]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, runHarness, startDevServerProcess } from "../lib/processes.mjs";
import { makeTask } from "../throughput/make-task.mjs";

const n = Number(process.argv[2] ?? 100_000);
const concurrency = Number(process.argv[3] ?? 64);
const target = 20_000;

const server = await startDevServerProcess(["--policy", "fixed:Answer: Positive"]);
const dir = mkdtempSync(join(tmpdir(), "yardstick-bench-cached-"));
try {
  await makeTask(dir, n);
  const settings = { taskDir: dir, url: server.url, concurrency, cacheDir: join(dir, "cache"), extra: ["--cache"] };
  const first = await runHarness({ ...settings, out: join(dir, "run-1") });
  const sentFirst = await server.chatRequests();
  const second = await runHarness({ ...settings, out: join(dir, "run-2") });
  const sentSecond = (await server.chatRequests()) - sentFirst;
  if (sentSecond !== 0) throw new Error(`the cached re-run sent ${sentSecond} requests`);
  const row = {
    samples: n,
    first: { seconds: +first.seconds.toFixed(2), perSecond: Math.round(n / first.seconds), sent: sentFirst },
    cached: { seconds: +second.seconds.toFixed(2), perSecond: Math.round(n / second.seconds), sent: sentSecond, peakRssMB: Math.round(second.maxRssMB) },
  };
  console.log(JSON.stringify(row));
  console.log(`\n| N | first run (samples/s) | cached re-run | cached re-run (samples/s) | ≥ ${fmt(target)}/s | × first run | requests sent by the re-run | peak RSS |`);
  console.log("|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${fmt(n)} | ${fmt(row.first.perSecond)} | ${row.cached.seconds} s | **${fmt(row.cached.perSecond)}** | ${row.cached.perSecond >= target ? "yes" : "**no**"} | ${(row.cached.perSecond / row.first.perSecond).toFixed(2)} | ${sentSecond} | ${row.cached.peakRssMB} MB |`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.stop();
}
