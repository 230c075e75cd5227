#!/usr/bin/env node
// bench/ultraeval-ppl: `yardstick run` of an mmlu-sized UltraEval ppl task (hellaswag's ppl config and
// transform, ROWS rows × 4 options, general_torch_ppl_norm + log_prob) against the dev server, beside
// a bare undici loop sending the same requests (one /v1/completions per row with its 4 options as a
// prompt array, echo + logprobs, max_tokens 0) to the same server process; and, for scale, a bare
// loop with one request per option (what yardstick sent before prompt arrays).
// Usage: node bench/ultraeval-ppl/run.mjs [ROWS] [CONCURRENCY]   (build first: npm run build)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const rows = Number(process.argv[2] ?? 14000);
const concurrency = Number(process.argv[3] ?? 64);
const OPTIONS = 4;

const endings = (i) => [`puts the tray ${i} in the oven.`, `throws tray ${i} away.`, `paints the dough ${i % 7} blue.`, `sings to dough number ${i}.`];
const context = (i) => `Baking cookies: A woman puts dough number ${i} on a tray. she `;

/** An UltraEval folder with the corpus's hellaswag ppl config and ROWS rows in UltraEval's format. */
function makeTask(dir, count) {
  const ds = join(dir, "datasets", "hellaswag");
  mkdirSync(join(ds, "config"), { recursive: true });
  mkdirSync(join(ds, "data"), { recursive: true });
  writeFileSync(
    join(ds, "config", "hellaswag_ppl.json"),
    JSON.stringify({
      task_name: "hellaswag",
      path: "datasets/hellaswag/data/hellaswag.jsonl",
      description: "",
      transform: "datasets/hellaswag/transform_ppl_v1.py",
      fewshot: 0,
      generate: { method: "loglikelihood", params: "" },
      postprocess: "general_torch_ppl_norm",
      metric: { accuracy: { evaluation: { type: "log_prob" } } },
    }),
  );
  const lines = [];
  for (let i = 0; i < count; i++) {
    const scores = Object.fromEntries(endings(i).map((e, j) => [e, j === 0 ? 1 : 0]));
    lines.push(
      JSON.stringify({
        passage: "",
        activity_label: "Baking cookies",
        ctx_a: `A woman puts dough number ${i} on a tray.`,
        ctx_b: "she",
        question: `A woman puts dough number ${i} on a tray. she`,
        target_scores: scores,
        answer: "",
      }),
    );
  }
  writeFileSync(join(ds, "data", "hellaswag.jsonl"), `${lines.join("\n")}\n`);
  return join(dir, "datasets");
}

async function startServer() {
  const child = spawn(process.execPath, [join(root, "packages/testing/dist/dev-server-cli.js"), "--port", "0", "--policy", "fixed:puts the tray in the oven"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const rl = createInterface({ input: child.stdout });
  const url = await new Promise((resolve) => rl.once("line", resolve));
  return { url, stop: () => child.kill("SIGTERM") };
}

/** ROWS rows' requests from `concurrency` lanes; `batched`: one request per row with a prompt array, else one per option. */
async function bareLoop(url, count, batched) {
  const pool = new Pool(new URL(url).origin, { connections: concurrency, pipelining: 1 });
  const bodies = batched ? count : count * OPTIONS;
  let next = 0;
  const t0 = performance.now();
  const lane = async () => {
    for (;;) {
      const k = next++;
      if (k >= bodies) return;
      const row = batched ? k : Math.floor(k / OPTIONS);
      const ctx = context(row);
      const prompt = batched ? endings(row).map((e) => ctx + e) : ctx + endings(row)[k % OPTIONS];
      const res = await pool.request({
        path: "/v1/completions",
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "bench", prompt, max_tokens: 0, echo: true, logprobs: 1 }),
      });
      const body = await res.body.json();
      if (!body.choices || body.choices.length !== (batched ? OPTIONS : 1)) throw new Error(`bad response: ${JSON.stringify(body).slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return seconds;
}

/** `yardstick run` in a child process (the throughput bench's harness: the CLI's main, heap tuned as the bin does). */
function harness(taskDir, url, dir) {
  rmSync(join(dir, "run"), { recursive: true, force: true });
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(here, "..", "throughput", "harness-child.mjs"), taskDir, url, join(dir, "run"), String(concurrency), join(dir, "cache")],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
    });
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(text.trim().split("\n").pop())) : reject(new Error(`harness exited ${code}`))));
  });
}

const server = await startServer();
const dir = mkdtempSync(join(tmpdir(), "yardstick-bench-ppl-"));
try {
  const taskDir = makeTask(dir, rows);
  await bareLoop(server.url, Math.min(rows, 2000), true); // warm the server's JIT so neither side pays for it
  const bareBatched = await bareLoop(server.url, rows, true);
  const barePerOption = await bareLoop(server.url, rows, false);
  const h = await harness(taskDir, server.url, dir);
  if (h.code !== 0) throw new Error(`yardstick run exited with ${h.code}`);
  // A tenth-size run gives the fixed cost (process start, module loading, scoring, writing results),
  // hence yardstick's marginal rate.
  const tenth = Math.max(1, Math.round(rows / 10));
  const small = await harness(makeTask(join(dir, "small"), tenth), server.url, join(dir, "small"));
  const marginalSeconds = (h.seconds - small.seconds) * (rows / (rows - tenth));
  console.log(
    JSON.stringify({
      rows,
      options: OPTIONS,
      concurrency,
      bareBatched: { seconds: +bareBatched.toFixed(2), rowsPerSecond: Math.round(rows / bareBatched) },
      barePerOption: { seconds: +barePerOption.toFixed(2), rowsPerSecond: Math.round(rows / barePerOption) },
      yardstick: {
        seconds: +h.seconds.toFixed(2),
        rowsPerSecond: Math.round(rows / h.seconds),
        fixedCostSeconds: +(h.seconds - marginalSeconds).toFixed(2),
        marginalRowsPerSecond: Math.round(rows / marginalSeconds),
        peakRssMB: Math.round(h.maxRssMB),
      },
      ratio: +(bareBatched / h.seconds).toFixed(3),
      marginalRatio: +(bareBatched / marginalSeconds).toFixed(3),
      ratioToPerOptionLoop: +(barePerOption / h.seconds).toFixed(3),
    }),
  );
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
