// The processes the issue-13 benchmarks start: the dev server in its own process, and `yardstick run`
// in a child (bench/throughput/harness-child.mjs: the CLI's main, heap tuned as the bin does).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");

/** Starts `yardstick-dev-server` with these flags; resolves once it prints its URL. */
export async function startDevServerProcess(flags) {
  const child = spawn(process.execPath, [join(root, "packages/testing/dist/dev-server-cli.js"), "--port", "0", ...flags], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const rl = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`dev server exited with ${code}`)));
  });
  return {
    url,
    /** The server's counters (`GET /stats`). */
    async stats() {
      const res = await fetch(`${url}/stats`);
      return res.json();
    },
    /** Chat requests the server has received (answered or not). */
    async chatRequests() {
      return (await this.stats()).requests["/v1/chat/completions"] ?? 0;
    },
    async stop() {
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/**
 * Starts `yardstick run` of the task in `taskDir` against `url` in a child process. `result` resolves
 * to its JSON line ({ code, seconds, maxRssMB, ... }), or to null when the child was killed.
 * `extra`: harness-child's own flags (`--cache`, `--memory-trace`).
 */
export function startHarness({ taskDir, url, out, concurrency, cacheDir, extra = [] }) {
  const child = spawn(
    process.execPath,
    [join(root, "bench", "throughput", "harness-child.mjs"), taskDir, url, out, String(concurrency), cacheDir, ...extra],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let text = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    text += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const result = new Promise((resolve, reject) => {
    child.on("exit", (code, signal) => {
      if (signal !== null) return resolve(null);
      if (code !== 0) return reject(new Error(`harness exited ${code}: ${stderr.slice(-2000)}`));
      resolve(JSON.parse(text.trim().split("\n").pop()));
    });
  });
  return { child, result, stderr: () => stderr };
}

/** Runs the harness to the end; throws unless yardstick exited 0. */
export async function runHarness(settings) {
  const r = await startHarness(settings).result;
  if (r === null || r.code !== 0) throw new Error(`yardstick run exited with ${r?.code}`);
  return r;
}

/** The generate records of a run store's responses.jsonl (a line torn by kill -9 is skipped). */
export function generateRecords(out) {
  let text;
  try {
    text = readFileSync(join(out, "responses.jsonl"), "utf8");
  } catch {
    return [];
  }
  const records = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const r = JSON.parse(line);
      if (r.stage === "generate") records.push(r);
    } catch {
      // torn tail
    }
  }
  return records;
}

/**
 * Runs a command as a whole process under GNU time: wall seconds (spawn to exit) and peak RSS (MB).
 * Its stdout and stderr are kept in `logFile` (and returned as `log`).
 */
export function timedProcess(command, args, env, logFile) {
  return new Promise((resolve, reject) => {
    const timeFile = `${logFile}.time`;
    const child = spawn("/usr/bin/time", ["-o", timeFile, "-f", "%e %M", command, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let log = "";
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      writeFileSync(logFile, log);
      const last = readFileSync(timeFile, "utf8").trim().split("\n").pop();
      const [seconds, kb] = last.split(" ").map(Number);
      resolve({ code, seconds, rssMB: Math.round(kb / 1024), log });
    });
  });
}

export const fmt = (n) => n.toLocaleString("en-US");
