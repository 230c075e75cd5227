#!/usr/bin/env node
// Throughput of the openai-compatible provider against the local dev server at zero latency.
// Usage: node packages/models/bench/throughput.mjs [requests=20000] [concurrency=64] [--separate]
// --separate runs the dev server in a child process (closer to a real deployment: two event loops).
// Build first: npx tsc --build packages/testing packages/models
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createOpenAICompatible } from "@yardstick/models";
import { startDevServer } from "@yardstick/testing";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const separate = process.argv.includes("--separate");
const total = Number(args[0] ?? 20_000);
const concurrency = Number(args[1] ?? 64);

let url;
let stop;
if (separate) {
  const bin = fileURLToPath(new URL("../../testing/dist/dev-server-cli.js", import.meta.url));
  const child = spawn(process.execPath, [bin, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise((resolve) => createInterface({ input: child.stdout }).once("line", resolve));
  stop = async () => child.kill("SIGTERM");
} else {
  const server = await startDevServer();
  url = server.url;
  stop = () => server.close();
}

const provider = createOpenAICompatible({ modelId: "bench", baseURLs: [`${url}/v1`], maxConcurrency: concurrency });
const request = (i) => ({ kind: "chat", messages: [{ role: "user", content: `Question ${i}: what is ${i} + ${i}?` }], params: { maxTokens: 32, temperature: 0 } });

// Warm-up: open the pool's connections and JIT the hot path.
await Promise.all(Array.from({ length: 500 }, (_, i) => provider.generate(request(i))));

const latencies = new Float64Array(total);
let next = 0;
const cpuStart = process.cpuUsage();
const started = performance.now();
async function worker() {
  while (next < total) {
    const i = next++;
    const t0 = performance.now();
    const r = await provider.generate(request(i));
    latencies[i] = performance.now() - t0;
    if (r.text === "") throw new Error("empty answer");
  }
}
await Promise.all(Array.from({ length: concurrency * 2 }, worker));
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStart);
latencies.sort();
const pct = (p) => latencies[Math.min(total - 1, Math.floor(p * total))].toFixed(2);
console.log(
  JSON.stringify({
    requests: total,
    concurrency,
    serverInProcess: !separate,
    seconds: Number(seconds.toFixed(2)),
    requestsPerSecond: Math.round(total / seconds),
    p50ms: Number(pct(0.5)),
    p99ms: Number(pct(0.99)),
    cpuMicrosPerRequest: Math.round((cpu.user + cpu.system) / total),
    limitAtEnd: provider.limiter.limit,
  }),
);
await provider.close();
await stop();
