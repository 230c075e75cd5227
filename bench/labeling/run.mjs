#!/usr/bin/env node
// bench/labeling: sustained submissions per second and p50/p99 latency of the labeling server with
// L concurrent labelers on loopback for S seconds (default 50 and 30). The server runs in its own
// process; each labeler asks for its first sample, then submits in a loop (each answer carries the
// next sample). Afterwards every acknowledged submission must be in SQLite and in the results JSONL
// exactly once. Usage: node bench/labeling/run.mjs [SECONDS] [LABELERS] [fsync|no-fsync]   (needs a build)
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { Pool } from "undici";

const seconds = Number(process.argv[2] ?? 30);
const labelers = Number(process.argv[3] ?? 50);
/** "fsync" (the server's default: every commit synced) or "no-fsync" (`label serve --no-fsync`). */
const fsyncMode = process.argv[4] ?? "fsync";
// Enough lines that the labelers do not run out (the run says so if they do).
const lines = Math.max(10_000, seconds * 10_000);
const here = dirname(fileURLToPath(import.meta.url));

// BENCH_SERVER_NODE_ARGS: extra node flags for the server process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const serverNodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
const child = spawn(process.execPath, [...serverNodeArgs, join(here, "server-child.mjs"), String(lines), String(labelers), fsyncMode], { stdio: ["ignore", "pipe", "inherit"] });
const [first] = await once(createInterface({ input: child.stdout }), "line");
const { url, tokens, dataDir } = JSON.parse(first);
const pool = new Pool(url, { connections: labelers, pipelining: 1 });

async function call(token, method, path, body) {
  const res = await pool.request({
    method,
    path,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.body.json();
  if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

const latencies = [];
const acked = [];
let stop = false;
async function labeler(i) {
  const token = tokens[i];
  let item = (await call(token, "GET", "/api/task/bench/next")).item;
  while (!stop && item) {
    const t0 = performance.now();
    const r = await call(token, "POST", "/api/results/bench", { line: item.line, feedback: { verdict: item.line % 2 ? "good" : "bad", score: 1 + (item.line % 5) } });
    latencies.push(performance.now() - t0);
    acked.push(`${r.stored.labeler}:${r.stored.line}`);
    item = r.item;
  }
}

// Warm-up (JIT, SQLite page cache), not counted.
await Promise.all(tokens.slice(0, 5).map(async (t) => {
  let item = (await call(t, "GET", "/api/task/bench/next")).item;
  for (let k = 0; k < 200 && item; k++) item = (await call(t, "POST", "/api/results/bench", { line: item.line, feedback: { verdict: "good", score: 3 } })).item;
}));
const warm = (await call(tokens[0], "GET", "/api/task/bench/progress")).labels;

const start = performance.now();
setTimeout(() => {
  stop = true;
}, seconds * 1000);
await Promise.all(tokens.map((_, i) => labeler(i)));
const elapsed = (performance.now() - start) / 1000;
await pool.close();
child.kill("SIGTERM");
await once(child, "exit");

latencies.sort((a, b) => a - b);
const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
const db = new Database(join(dataDir, "labels.sqlite"), { readonly: true });
const stored = db.prepare("SELECT l.name AS labeler, a.item AS line FROM assignments a JOIN labelers l ON l.id = a.labeler_id WHERE a.state = 'done'").all();
db.close();
const storedKeys = new Set(stored.map((r) => `${r.labeler}:${r.line}`));
const fileLines = readFileSync(join(dataDir, "results", "bench_results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const fileKeys = fileLines.map((l) => `${l.labeler}:${l.line}`);
const fileKeySet = new Set(fileKeys);
const lost = acked.filter((k) => !storedKeys.has(k) || !fileKeySet.has(k)).length;
const duplicated = fileKeys.length - fileKeySet.size + (stored.length - storedKeys.size);
const lineTwice = stored.length - new Set(stored.map((r) => r.line)).size;

console.log(`${fsyncMode}: labelers ${labelers}, ${seconds} s, dataset ${lines} lines, warm-up ${warm} labels`);
if (elapsed < seconds * 0.95) console.log(`the dataset ran out after ${elapsed.toFixed(1)} s: give more lines`);
console.log(`submissions acknowledged: ${acked.length} in ${elapsed.toFixed(1)} s = ${(acked.length / elapsed).toFixed(0)}/s`);
console.log(`latency p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms`);
console.log(`stored in SQLite: ${stored.length} (= warm-up + acknowledged: ${stored.length === warm + acked.length}); results file lines: ${fileLines.length}`);
console.log(`lost: ${lost}, duplicated: ${duplicated}, a line labeled twice (1 label per sample): ${lineTwice}`);
rmSync(dataDir, { recursive: true, force: true });
process.exit(lost === 0 && duplicated === 0 && lineTwice === 0 && stored.length === warm + acked.length ? 0 : 1);
