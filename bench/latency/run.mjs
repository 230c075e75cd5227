#!/usr/bin/env node
// bench/latency (issue 13, benchmark 2): a latency-bound run. The dev server (its own process)
// answers each request a fixed time after it arrives; N samples at concurrency C can at best take
// N × latency / C. Beside a bare undici loop sending the same requests to the same server, it runs
// the installed `yardstick` bin as a user would (a whole process, Node start included), once with
// `--no-report` and once as the CLI runs by default (report.html written), and reports each wall time
// over that ideal (target: within 5%), with where the time went (run-stats.json phases, stored records).
// Usage: node bench/latency/run.mjs [N=10000] [latencyMs=100] [concurrency=64]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bareLoop } from "../lib/bare-loop.mjs";
import { fmt, generateRecords, startDevServerProcess, timedProcess } from "../lib/processes.mjs";
import { makeTask } from "../throughput/make-task.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = join(root, "packages/runner/dist/bin/yardstick.js");
const n = Number(process.argv[2] ?? 10_000);
const latencyMs = Number(process.argv[3] ?? 100);
const concurrency = Number(process.argv[4] ?? 64);
const idealSeconds = (n * latencyMs) / concurrency / 1000;

const server = await startDevServerProcess(["--policy", "fixed:Answer: Positive", "--latency-ms", String(latencyMs)]);
const dir = mkdtempSync(join(tmpdir(), "yardstick-bench-latency-"));

/** `yardstick run` of the task as a whole process; its wall time, peak RSS and where the time went. */
async function runYardstick(name, flags) {
  const out = join(dir, name);
  const before = await server.chatRequests();
  const r = await timedProcess(
    process.execPath,
    [bin, "run", dir, "--model", "openai-compatible:bench", "--base-url", `${server.url}/v1`, "--concurrency", String(concurrency), "--out", out, "--quiet", "--no-cache", ...flags],
    {},
    join(dir, `${name}.log`),
  );
  if (r.code !== 0) throw new Error(`yardstick run exited with ${r.code}: ${r.log.slice(-2000)}`);
  const sent = (await server.chatRequests()) - before;
  if (sent !== n) throw new Error(`the server received ${sent} requests for ${n} samples`);
  const session = JSON.parse(readFileSync(join(out, "run-stats.json"), "utf8")).sessions.at(-1);
  // Each stored answer: when it came back (`time`) and when its request went out (time − latency).
  const records = generateRecords(out);
  let firstSent = Infinity;
  let lastAnswer = -Infinity;
  for (const rec of records) {
    const answered = Date.parse(rec.time);
    firstSent = Math.min(firstSent, answered - rec.latencyMs);
    lastAnswer = Math.max(lastAnswer, answered);
  }
  const started = Date.parse(session.startedAt);
  return {
    seconds: r.seconds,
    overIdeal: +(r.seconds / idealSeconds).toFixed(3),
    peakRssMB: r.rssMB,
    sessionSeconds: +session.wallSeconds.toFixed(2),
    phases: session.phases,
    // The answer phase's start to the first request: the pre-flight pass over the data.
    toFirstRequestSeconds: +((firstSent - started) / 1000 - session.phases.setup).toFixed(3),
    answeringSpanSeconds: +((lastAnswer - firstSent) / 1000).toFixed(2),
  };
}

try {
  await makeTask(dir, n);
  await bareLoop(server.url, Math.min(n, 2000), concurrency); // warm the server's JIT so no side pays for it
  const bare = await bareLoop(server.url, n, concurrency);
  const noReport = await runYardstick("run-no-report", ["--no-report"]);
  const withReport = await runYardstick("run-default", []);
  const row = { samples: n, latencyMs, concurrency, idealSeconds: +idealSeconds.toFixed(2), bareSeconds: +bare.toFixed(2), noReport, withReport };
  console.log(JSON.stringify(row));
  const yes = (r) => (r.overIdeal <= 1.05 ? "yes" : "**no**");
  const p = noReport.phases;
  console.log(`\n| N | latency | concurrency | ideal | bare loop | ÷ ideal | yardstick --no-report | ÷ ideal | within 5% | default (report.html) | ÷ ideal | within 5% | peak RSS |`);
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${fmt(n)} | ${latencyMs} ms | ${concurrency} | ${row.idealSeconds} s | ${row.bareSeconds} s | ${(bare / idealSeconds).toFixed(3)} | ${noReport.seconds} s | **${noReport.overIdeal}** | ${yes(noReport)} | ${withReport.seconds} s | **${withReport.overIdeal}** | ${yes(withReport)} | ${noReport.peakRssMB} / ${withReport.peakRssMB} MB |`,
  );
  console.log(
    `\nwhere --no-report's ${noReport.seconds} s went: before the session (Node start, the bundle, options) ${(noReport.seconds - noReport.sessionSeconds).toFixed(2)} s · setup ${p.setup} s · pre-flight to the first request ${noReport.toFirstRequestSeconds} s · first request to last answer ${noReport.answeringSpanSeconds} s (bare loop ${row.bareSeconds} s) · score ${p.score} s; report.html adds ${(withReport.seconds - noReport.seconds).toFixed(2)} s`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.stop();
}
