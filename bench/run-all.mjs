#!/usr/bin/env node
// `npm run bench`: every benchmark with the arguments bench/BENCHMARKS.md records, one after
// another (they measure side by side within each script, so they must not run in parallel).
// Build first (`npm run build`). Pass names to run only some: node bench/run-all.mjs throughput score-run
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const all = {
  throughput: ["throughput/run.mjs", "20000", "64"],
  "score-run": ["score-run/run.mjs", "1000000"],
  "metrics-text": ["metrics/text/run.mjs"],
  "metrics-stats": ["metrics/stats/run.mjs"],
  spatial: ["spatial/run.mjs", "--count", "5000", "--repeats", "3"],
  report: ["report/run.mjs"],
  labeling: ["labeling/run.mjs", "30", "50", "fsync"],
  faults: ["faults/run.mjs", "1000", "100"],
  "ultraeval-ppl": ["ultraeval-ppl/run.mjs", "14000", "64"],
  latency: ["latency/run.mjs", "10000", "100", "64"],
  memory: ["memory/run.mjs", "1000000", "64"],
  "cached-rerun": ["cached-rerun/run.mjs", "100000", "64"],
  resume: ["resume/run.mjs", "20000", "50", "64", "20"],
  startup: ["startup/run.mjs", "7"],
};
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !(w in all));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; known: ${Object.keys(all).join(", ")}`);
  process.exit(2);
}
let failed = 0;
for (const [name, [script, ...args]] of Object.entries(all)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n== ${name}: node bench/${script} ${args.join(" ")}`);
  const r = spawnSync(process.execPath, [join(here, script), ...args], { stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`${name} exited with ${r.status}`);
    failed++;
  }
}
process.exit(failed > 0 ? 1 : 0);
