#!/usr/bin/env node
// bench/startup: what a command costs before it does its work, side by side in one run: the
// `yardstick` bin (the rolldown bundle, dist/bin/yardstick.js) against the same CLI loaded module by
// module (dist/cli.js). Each is timed as a whole process (spawn to exit), alternating, for
// `--help` and for `run` of a 10-sample task against the dev server (--no-cache --no-report).
//
// Usage: node bench/startup/run.mjs [repeats=7]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevServerProcess } from "../lib/processes.mjs";
import { makeTask } from "../throughput/make-task.mjs";

const repeats = Number(process.argv[2] ?? 7);
const root = join(import.meta.dirname, "..", "..");
const sides = { bundle: join(root, "packages/runner/dist/bin/yardstick.js"), modules: join(root, "packages/runner/dist/cli.js") };

const server = await startDevServerProcess(["--policy", "fixed:Answer: Positive"]);
const dir = mkdtempSync(join(tmpdir(), "yardstick-bench-startup-"));
try {
  await makeTask(dir, 10);
  const commands = {
    "--help": () => ["--help"],
    "run (10 samples)": (i) => ["run", join(dir, "bench"), "--model", "openai-compatible:bench", "--base-url", `${server.url}/v1`, "--no-cache", "--no-report", "--quiet", "--out", join(dir, `run-${i}`)],
  };
  const times = {};
  let i = 0;
  for (let r = 0; r < repeats; r++) {
    for (const [name, args] of Object.entries(commands)) {
      const order = r % 2 === 0 ? ["bundle", "modules"] : ["modules", "bundle"];
      for (const side of order) {
        const t0 = performance.now();
        const p = spawnSync(process.execPath, [sides[side], ...args(i++)], { encoding: "utf8" });
        const seconds = (performance.now() - t0) / 1000;
        if (p.status !== 0) throw new Error(`${side} ${name} exited ${p.status}: ${p.stderr.slice(-500)}`);
        ((times[name] ??= {})[side] ??= []).push(seconds);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`| command | modules one by one (median s) | bundle (median s) | bundle ÷ modules |`);
  console.log("|---|---|---|---|");
  for (const [name, t] of Object.entries(times)) {
    console.log(`| \`${name}\` | ${median(t.modules).toFixed(3)} | ${median(t.bundle).toFixed(3)} | **${(median(t.bundle) / median(t.modules)).toFixed(2)}** |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.stop();
}
