#!/usr/bin/env node
// bench/promptfoo (issue 13, benchmark 5): yardstick and promptfoo evaluate the same N-sample
// classification task against the same dev server, as whole processes, side by side in one run, at
// zero latency and at a fixed per-request latency; a bare undici loop sending the same requests
// gives the floor. Wall time and peak RSS (GNU time's %M) of each.
//
// Usage: node bench/promptfoo/run.mjs [N=5000] [concurrency=64] [latencies=0,100]
//
// promptfoo is installed on demand into bench/peers/promptfoo (git-ignored, outside the workspace
// and its lockfile). It sends telemetry even with PROMPTFOO_DISABLE_TELEMETRY=1, so the whole
// benchmark re-executes itself inside a network namespace with loopback alone (`unshare -n`, then
// `ip link set lo up`): the dev server, yardstick and promptfoo all live there and nothing can leave
// the machine. That needs root (or unprivileged user namespaces); without it the script refuses.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { bareLoop } from "../lib/bare-loop.mjs";
import { timedProcess } from "../lib/processes.mjs";
import { LABELS, makeTask, PREAMBLE } from "../throughput/make-task.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const PROMPTFOO_VERSION = "0.121.20";
const peerDir = join(root, "bench", "peers", "promptfoo");
const promptfooBin = join(peerDir, "node_modules", ".bin", "promptfoo");

const IN_NETNS = "--in-netns"; // set by the re-execution inside the namespace
const positional = process.argv.slice(2).filter((a) => a !== IN_NETNS);
const n = Number(positional[0] ?? 5000);
const concurrency = Number(positional[1] ?? 64);
const latencies = (positional[2] ?? "0,100").split(",").map(Number);

function installPromptfoo() {
  if (existsSync(promptfooBin)) return;
  mkdirSync(peerDir, { recursive: true });
  writeFileSync(join(peerDir, "package.json"), `${JSON.stringify({ name: "bench-peer-promptfoo", private: true })}\n`);
  console.error(`installing promptfoo@${PROMPTFOO_VERSION} into ${peerDir} (once)`);
  execFileSync("npm", ["install", "--no-workspaces", "--no-audit", "--no-fund", `promptfoo@${PROMPTFOO_VERSION}`], { cwd: peerDir, stdio: "inherit" });
}

if (!process.argv.includes(IN_NETNS)) {
  installPromptfoo(); // needs the registry, so before the namespace cuts the network
  try {
    execFileSync("unshare", ["-n", "true"]);
  } catch {
    console.error("bench/promptfoo needs `unshare -n` (root or user namespaces) so that promptfoo's telemetry cannot leave the machine; not running it.");
    process.exit(2);
  }
  const args = [process.execPath, ...process.argv.slice(1), IN_NETNS].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const child = spawn("unshare", ["-n", "sh", "-c", `ip link set lo up && exec ${args}`], { stdio: "inherit" });
  child.on("exit", (code) => process.exit(code ?? 1));
} else {
  await benchmark();
}

async function startServer(latencyMs) {
  const child = spawn(
    process.execPath,
    [join(root, "packages/testing/dist/dev-server-cli.js"), "--port", "0", "--policy", "fixed:Answer: Positive", "--latency-ms", String(latencyMs)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise((resolve) => createInterface({ input: child.stdout }).once("line", resolve));
  return { url, stop: () => child.kill("SIGTERM") };
}

function writePromptfooTask(dir, url) {
  const csv = ["text,label"];
  for (let i = 0; i < n; i++) csv.push(`"this is benchmark sentence number ${i}, neither good nor bad",${LABELS[i % 3]}`);
  writeFileSync(join(dir, "tests.csv"), `${csv.join("\n")}\n`);
  // The same single user message as the yardstick task (see make-task.mjs), as a JSON chat prompt.
  const content = `${PREAMBLE.replace("{answer_tag}", "Answer:")}\n\nSentence: {{text}}`;
  const prompt = JSON.stringify([{ role: "user", content }]);
  writeFileSync(
    join(dir, "promptfooconfig.yaml"),
    `prompts:
  - ${JSON.stringify(prompt)}
providers:
  - id: openai:chat:bench
    config:
      apiBaseUrl: ${url}/v1
      max_tokens: 16
tests: file://${join(dir, "tests.csv")}
defaultTest:
  assert:
    - type: icontains
      value: "{{label}}"
`,
  );
}

async function runPromptfoo(dir) {
  const r = await timedProcess(
    promptfooBin,
    ["eval", "-c", join(dir, "promptfooconfig.yaml"), "--no-cache", "-j", String(concurrency), "--no-progress-bar", "--no-table", "-o", join(dir, "pf-out.json")],
    {
      PROMPTFOO_DISABLE_TELEMETRY: "1",
      PROMPTFOO_DISABLE_UPDATE: "1",
      OPENAI_API_KEY: "sk-bench",
      PROMPTFOO_CONFIG_DIR: join(dir, "pf-home"),
    },
    join(dir, "promptfoo.log"),
  );
  // Exit 100 means "some assertions failed" (two thirds of the gold labels are not Positive).
  if (r.code !== 0 && r.code !== 100) throw new Error(`promptfoo exited ${r.code}: ${r.log.slice(-2000)}`);
  const out = JSON.parse(readFileSync(join(dir, "pf-out.json"), "utf8"));
  const stats = out.results?.stats ?? {};
  if ((stats.successes ?? 0) + (stats.failures ?? 0) !== n) throw new Error(`promptfoo evaluated ${JSON.stringify(stats)}, expected ${n} samples`);
  return r;
}

async function runYardstick(dir, url) {
  const r = await timedProcess(
    process.execPath,
    [join(root, "packages/runner/dist/bin/yardstick.js"), "run", join(dir, "bench"), "--model", "openai-compatible:bench", "--base-url", `${url}/v1`, "--concurrency", String(concurrency), "--no-cache", "--out", join(dir, "ys-run"), "--quiet"],
    {},
    join(dir, "yardstick.log"),
  );
  if (r.code !== 0) throw new Error(`yardstick exited ${r.code}: ${r.log.slice(-2000)}`);
  const results = JSON.parse(readFileSync(join(dir, "ys-run", "results.json"), "utf8"));
  if (!results) throw new Error("yardstick wrote no results.json");
  return r;
}

async function benchmark() {
  const rows = [];
  for (const latency of latencies) {
    const server = await startServer(latency);
    const dir = mkdtempSync(join(tmpdir(), "yardstick-bench-promptfoo-"));
    try {
      await makeTask(dir, n);
      writePromptfooTask(dir, server.url);
      await bareLoop(server.url, Math.min(n, 2000), concurrency); // warm the server's JIT so no side pays for it
      const bare = await bareLoop(server.url, n, concurrency);
      const ys = await runYardstick(dir, server.url);
      const pf = await runPromptfoo(dir);
      const ideal = latency > 0 ? (n * latency) / 1000 / concurrency : undefined;
      rows.push({ latency, bare, ys, pf, ideal });
      console.error(JSON.stringify({ latency, bareSeconds: bare, yardstick: ys.seconds, yardstickMB: ys.rssMB, promptfoo: pf.seconds, promptfooMB: pf.rssMB }));
    } finally {
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`| latency | N | concurrency | bare loop | ideal | yardstick | promptfoo ${PROMPTFOO_VERSION} | promptfoo / yardstick (time) | yardstick / ideal | peak RSS yardstick | peak RSS promptfoo | RSS ratio |`);
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const ideal = r.ideal === undefined ? "–" : `${r.ideal.toFixed(2)} s`;
    const overIdeal = r.ideal === undefined ? "–" : `${(r.ys.seconds / r.ideal).toFixed(3)}`;
    console.log(
      `| ${r.latency} ms | ${n} | ${concurrency} | ${r.bare.toFixed(2)} s | ${ideal} | ${r.ys.seconds.toFixed(2)} s | ${r.pf.seconds.toFixed(2)} s | **${(r.pf.seconds / r.ys.seconds).toFixed(1)}×** | ${overIdeal} | ${r.ys.rssMB} MB | ${r.pf.rssMB} MB | ${(r.ys.rssMB / r.pf.rssMB).toFixed(2)} |`,
    );
  }
}
