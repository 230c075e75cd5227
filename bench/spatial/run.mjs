#!/usr/bin/env node
// Canvases per second of `yardstick spatial generate` (all six tasks, files written), for 3 and 7
// shapes and each output format. Imports the built package: run `npx tsc --build packages/spatial` first.
// Usage: node bench/spatial/run.mjs [--count N] [--repeats R]
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeDataset } from "../../packages/spatial/dist/index.js";

const { values } = parseArgs({
  options: { count: { type: "string", default: "5000" }, repeats: { type: "string", default: "3" }, workers: { type: "string" }, quick: { type: "boolean", default: false } },
});
const count = Number(values.count);
const repeats = Number(values.repeats);
const workers = values.workers === undefined ? undefined : Number(values.workers);
const load = loadavg()[0].toFixed(2);
const root = mkdtempSync(join(tmpdir(), "bench-spatial-"));
const rows = [];
try {
  for (const shapes of [3, 7]) {
    const variants = [["original", false], ["seahelm", false], ["ultraeval", false], ["seahelm", true]];
    for (const [format, images] of values.quick ? variants.slice(0, 1) : variants) {
      const rates = [];
      const cpuRates = [];
      for (let r = 0; r < repeats; r++) {
        const out = join(root, `${shapes}-${format}-${images}-${r}`);
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        await writeDataset(out, { shapes, count, seed: `bench-${r}`, format, images, ...(workers ? { workers } : {}) });
        const seconds = (performance.now() - t0) / 1000;
        const cpu = process.cpuUsage(c0);
        rates.push(count / seconds);
        cpuRates.push(count / ((cpu.user + cpu.system) / 1e6));
        rmSync(out, { recursive: true, force: true });
      }
      rates.sort((a, b) => a - b);
      cpuRates.sort((a, b) => a - b);
      const median = rates[Math.floor(rates.length / 2)];
      const cpuMedian = cpuRates[Math.floor(cpuRates.length / 2)];
      rows.push({
        shapes,
        format: images ? `${format} --images` : format,
        median: Math.round(median),
        min: Math.round(rates[0]),
        max: Math.round(rates.at(-1)),
        cpu: Math.round(cpuMedian),
      });
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(
  `node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "?"}, load average ${load} at start, ${count} canvases per run, ${repeats} runs, workers ${workers ?? "default (up to 4)"}`,
);
console.log("| shapes | format | canvases/s wall (median) | min | max | canvases per CPU-second (median) |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.shapes} | ${r.format} | ${r.median} | ${r.min} | ${r.max} | ${r.cpu} |`);
