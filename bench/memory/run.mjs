#!/usr/bin/env node
// bench/memory (issue 13, benchmark 3): peak RSS of `yardstick run` end to end (answering, scoring,
// results) of N samples against the dev server (zero latency, its own process), and of a tenth-size
// run beside it: a run that streams has the same peak at both sizes.
// Usage: node bench/memory/run.mjs [N=1000000] [concurrency=64] [--cache] [--report]
//   --no-cache by default, as bench/throughput; --cache uses a fresh request cache (SQLite) folder.
//   --report writes report.html at the end, as `yardstick run` does by default (default: --no-report).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, runHarness, startDevServerProcess } from "../lib/processes.mjs";
import { makeTask } from "../throughput/make-task.mjs";

const args = process.argv.slice(2);
const positional = args.filter((a) => !a.startsWith("--"));
const n = Number(positional[0] ?? 1_000_000);
const concurrency = Number(positional[1] ?? 64);
const cache = args.includes("--cache");
const report = args.includes("--report");
const targetMB = 300;

async function measure(samples, url) {
  const dir = mkdtempSync(join(tmpdir(), "yardstick-bench-memory-"));
  try {
    await makeTask(dir, samples);
    const extra = ["--memory-trace", ...(cache ? ["--cache"] : []), ...(report ? ["--report"] : [])];
    const r = await runHarness({ taskDir: dir, url, out: join(dir, "run"), concurrency, cacheDir: join(dir, "cache"), extra });
    return { samples, seconds: +r.seconds.toFixed(1), peakRssMB: Math.round(r.maxRssMB), memoryPeakMB: r.memoryPeakMB };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const server = await startDevServerProcess(["--policy", "fixed:Answer: Positive"]);
try {
  const small = await measure(Math.max(1, Math.round(n / 10)), server.url);
  console.log(JSON.stringify(small));
  const full = await measure(n, server.url);
  console.log(JSON.stringify(full));
  const ratio = full.peakRssMB / small.peakRssMB;
  console.log(`\n| samples | cache | report | peak RSS at ${fmt(small.samples)} | peak RSS at ${fmt(n)} | ratio | < ${targetMB} MB | wall at ${fmt(n)} |`);
  console.log("|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${fmt(n)} | ${cache ? "on" : "off"} | ${report ? "yes" : "no"} | ${small.peakRssMB} MB | ${full.peakRssMB} MB | ${ratio.toFixed(2)} | ${full.peakRssMB < targetMB ? "yes" : "**no**"} | ${full.seconds} s |`,
  );
} finally {
  await server.stop();
}
