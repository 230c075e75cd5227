#!/usr/bin/env node
// bench/throughput: `yardstick run` of N samples against the dev server (zero latency) beside a bare
// undici loop sending the same requests to the same server. Usage: node bench/throughput/run.mjs [N] [concurrency]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { bareLoop } from "../lib/bare-loop.mjs";
import { makeTask } from "./make-task.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const n = Number(process.argv[2] ?? 20000);
const concurrency = Number(process.argv[3] ?? 64);

async function startServer() {
  const child = spawn(process.execPath, [join(root, "packages/testing/dist/dev-server-cli.js"), "--port", "0", "--policy", "fixed:Answer: Positive"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const rl = createInterface({ input: child.stdout });
  const url = await new Promise((resolve) => rl.once("line", resolve));
  return { url, stop: () => child.kill("SIGTERM") };
}

function harness(taskDir, url) {
  const out = join(taskDir, "run");
  const cache = join(taskDir, "cache");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, "harness-child.mjs"), taskDir, url, out, String(concurrency), cache], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
    });
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(text.trim().split("\n").pop())) : reject(new Error(`harness exited ${code}`))));
  });
}

async function measure(samples, url) {
  const dir = mkdtempSync(join(tmpdir(), "yardstick-bench-"));
  try {
    await makeTask(dir, samples);
    const h = await harness(dir, url);
    if (h.code !== 0) throw new Error(`yardstick run exited with ${h.code}`);
    return h;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const server = await startServer();
try {
  await bareLoop(server.url, Math.min(n, 5000), concurrency); // warm the server's JIT so neither side pays for it
  const bareSeconds = await bareLoop(server.url, n, concurrency);
  const full = await measure(n, server.url);
  // A tenth-size run gives the fixed cost (process start, module loading, scoring, writing results),
  // so the marginal rate is the harness's steady request rate.
  const small = await measure(Math.max(1, Math.round(n / 10)), server.url);
  const bareRate = n / bareSeconds;
  const harnessRate = n / full.seconds;
  const marginalRate = (n - Math.round(n / 10)) / (full.seconds - small.seconds);
  console.log(
    JSON.stringify({
      samples: n,
      concurrency,
      bare: { seconds: +bareSeconds.toFixed(2), perSecond: Math.round(bareRate) },
      yardstick: {
        seconds: +full.seconds.toFixed(2),
        perSecond: Math.round(harnessRate),
        fixedCostSeconds: +(small.seconds - Math.round(n / 10) / marginalRate).toFixed(2),
        marginalPerSecond: Math.round(marginalRate),
        peakRssMB: Math.round(full.maxRssMB),
      },
      ratio: +(harnessRate / bareRate).toFixed(3),
      marginalRatio: +(marginalRate / bareRate).toFixed(3),
    }),
  );
} finally {
  server.stop();
}
