#!/usr/bin/env node
// bench/faults: the combined fault matrix. `yardstick run` at default settings (concurrency 16,
// default retries and timeouts) of N samples against the dev server with a fixed latency, once
// fault-free and once per fault (each alone, then all combined), side by side in one run. Reports
// each run's wall time over the fault-free time, the Retry-After waits the run was asked to honour,
// and how every sample ended (scored, or an error of which kind).
// Usage: node bench/faults/run.mjs [N] [latencyMs] [scenario,...]  (the fault-free run always comes first)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer } from "@yardstick/testing";
import { makeTask } from "../throughput/make-task.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.argv[2] ?? 1000);
const latencyMs = Number(process.argv[3] ?? 100);
const only = process.argv[4]?.split(",");
/** yardstick's default --concurrency. */
const concurrency = 16;
const retryAfterSeconds = 1;

/** The combined case: 10% each of 429, 500, reset and malformed JSON, 2% hangs. */
const scenarios = {
  "fault-free": {},
  "429 10%": { rate429: 0.1 },
  "500 10%": { rate500: 0.1 },
  "reset 10%": { rateReset: 0.1 },
  "malformed 10%": { rateMalformed: 0.1 },
  "hang 2%": { rateHang: 0.02 },
  combined: { rate429: 0.1, rate500: 0.1, rateReset: 0.1, rateMalformed: 0.1, rateHang: 0.02 },
};

/** One `yardstick run` in a child process (the CLI's main, as bench/throughput does). */
function harness(taskDir, url) {
  const out = join(taskDir, "run");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, "..", "throughput", "harness-child.mjs"), taskDir, url, out, String(concurrency), join(taskDir, "cache")], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
    });
    child.on("exit", (code) => (code === 0 ? resolve({ ...JSON.parse(text.trim().split("\n").pop()), out }) : reject(new Error(`harness exited ${code}`))));
  });
}

/** How each sample ended: its last generate record. */
function endings(out) {
  const last = new Map();
  for (const line of readFileSync(join(out, "responses.jsonl"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line);
    if (r.stage === "generate") last.set(r.sample, r);
  }
  const ended = { ok: 0 };
  for (const r of last.values()) {
    const kind = r.status === "ok" ? "ok" : `error:${r.error?.kind}`;
    ended[kind] = (ended[kind] ?? 0) + 1;
  }
  return { samples: last.size, ended };
}

const rows = [];
// The fault-free run goes first and again last; their mean is the baseline (a loaded machine drifts).
const order = [...Object.keys(scenarios).filter((name) => name === "fault-free" || !only || only.includes(name)), "fault-free (again)"];
for (const name of order) {
  const faults = scenarios[name] ?? {};
  const server = await startDevServer({ port: 0, latencyMs, seed: 7, policy: { fixed: "Answer: Positive" }, faults: { ...faults, retryAfterSeconds } });
  const dir = mkdtempSync(join(tmpdir(), "yardstick-faults-"));
  try {
    await makeTask(dir, n);
    const run = await harness(dir, server.url);
    if (run.code !== 0 && run.code !== 1) throw new Error(`${name}: yardstick run exited with ${run.code}`);
    const stats = server.stats();
    const attempts = stats.requests["/v1/chat/completions"] ?? 0;
    const injected = Object.values(stats.faults).reduce((a, b) => a + b, 0);
    // Each 429 asked for a Retry-After wait; spread over the run's concurrency, that is the wall
    // time the waits cost at best (the target allows it on top of 2× the fault-free time).
    const honouredSeconds = ((stats.faults["429"] ?? 0) * retryAfterSeconds) / concurrency;
    const { samples, ended } = endings(run.out);
    rows.push({
      scenario: name,
      seconds: +run.seconds.toFixed(2),
      honouredRetryAfterSeconds: +honouredSeconds.toFixed(2),
      attempts,
      injectedFaults: stats.faults,
      injected,
      samples,
      ended,
    });
    console.log(JSON.stringify(rows.at(-1)));
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
const faultFree = (rows[0].seconds + rows.at(-1).seconds) / 2;
for (const r of rows) {
  r.overFaultFree = +(r.seconds / faultFree).toFixed(2);
  r.withinTarget = r.seconds <= 2 * faultFree + r.honouredRetryAfterSeconds;
}
console.log(`\nbaseline: the mean of the two fault-free runs, ${faultFree.toFixed(2)} s (${n} samples, ${latencyMs} ms per request, concurrency ${concurrency})`);
console.log(`\n| scenario | wall (s) | × fault-free | Retry-After honoured / concurrency (s) | ≤ 2× + honoured | attempts | samples ended |`);
console.log(`|---|---|---|---|---|---|---|`);
for (const r of rows) {
  const ended = Object.entries(r.ended).map(([k, v]) => `${k} ${v}`).join(", ");
  console.log(`| ${r.scenario} | ${r.seconds} | ${r.overFaultFree} | ${r.honouredRetryAfterSeconds} | ${r.withinTarget ? "yes" : "**no**"} | ${r.attempts} | ${ended} |`);
}
