#!/usr/bin/env node
// Corpus chrF++ and BLEU as whole processes, side by side: sacrebleu's command line
// (`sacrebleu REF -i HYP -m chrf --chrf-word-order 2 -b`, `-m bleu -b`) and one node process of
// yardstick's registered metric (metric-child.mjs: read the files, corpus score plus per-sample
// scores, print), both on the same N synthetic segment pairs, start-up included. Runs alternate
// (which side goes first flips each repeat); medians and the ratio of the medians are printed, and
// both sides' scores are compared. Build first: `npx tsc --build packages/metrics`.
// Usage: node bench/metrics/text/whole-process.mjs --sacrebleu PATH [--count N] [--repeats R]
//   PATH: the sacrebleu command (e.g. a virtualenv's bin/sacrebleu, outside this repository); also
//   read from SACREBLEU.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { makeSegmentPairs } from "./synthetic-data.mjs";

const { values } = parseArgs({
  options: {
    sacrebleu: { type: "string", default: process.env.SACREBLEU },
    count: { type: "string", default: "10000" },
    repeats: { type: "string", default: "5" },
  },
});
if (values.sacrebleu === undefined || !existsSync(values.sacrebleu)) {
  console.error("whole-process.mjs: --sacrebleu PATH (or SACREBLEU) must name the sacrebleu command");
  process.exit(2);
}
const count = Number(values.count);
const repeats = Number(values.repeats);
const child = join(import.meta.dirname, "metric-child.mjs");
const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

/** Runs a command; wall seconds, CPU seconds (with /usr/bin/time) and its stdout. */
function timed(cmd, args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(timeBin ?? cmd, timeBin ? ["-f", "__cpu %U %S", cmd, ...args] : args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (err += d));
    p.on("error", reject);
    p.on("close", (code) => {
      const wall = (performance.now() - t0) / 1000;
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}: ${err.slice(-2000)}`));
      const m = /__cpu ([\d.]+) ([\d.]+)/.exec(err);
      resolve({ wall, cpu: m ? Number(m[1]) + Number(m[2]) : undefined, out: out.trim() });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "metrics-whole-"));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
try {
  const pairs = makeSegmentPairs(count);
  const hyp = join(dir, "mt.hyp");
  const ref = join(dir, "mt.ref");
  writeFileSync(hyp, `${pairs.hyps.join("\n")}\n`);
  writeFileSync(ref, `${pairs.refs.join("\n")}\n`);
  const metrics = [
    ["chrF++", ["-m", "chrf", "--chrf-word-order", "2"], "chrf++"],
    ["BLEU (13a)", ["-m", "bleu"], "bleu"],
  ];
  console.log(`node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "?"}, ${count} segment pairs, ${repeats} runs per side`);
  const summary = [];
  for (const [label, flags, id] of metrics) {
    const sides = {
      sacrebleu: () => timed(values.sacrebleu, [ref, "-i", hyp, ...flags, "-b", "-w", "4"]),
      yardstick: () => timed(process.execPath, [child, id, hyp, ref]),
    };
    const runs = { sacrebleu: [], yardstick: [] };
    const scores = {};
    console.log(`\n${label}\n| run | side | load (1 min) | wall s | CPU s | score |\n|---|---|---|---|---|---|`);
    for (let r = 0; r < repeats; r++) {
      for (const side of r % 2 === 0 ? ["sacrebleu", "yardstick"] : ["yardstick", "sacrebleu"]) {
        const load = loadavg()[0];
        const t = await sides[side]();
        runs[side].push(t);
        scores[side] = t.out;
        console.log(`| ${r + 1} | ${side} | ${load.toFixed(2)} | ${t.wall.toFixed(3)} | ${t.cpu?.toFixed(2) ?? "–"} | ${t.out} |`);
      }
    }
    const s = median(runs.sacrebleu.map((t) => t.wall));
    const y = median(runs.yardstick.map((t) => t.wall));
    summary.push({ label, s, y, scores, pairs: runs.sacrebleu.map((t, i) => t.wall / runs.yardstick[i].wall) });
  }
  console.log("\n| metric | sacrebleu median wall s | yardstick median wall s | × sacrebleu (medians) | × sacrebleu, each pair | scores (sacrebleu / yardstick) |");
  console.log("|---|---|---|---|---|---|");
  for (const r of summary) {
    console.log(
      `| ${r.label} | ${r.s.toFixed(3)} | ${r.y.toFixed(3)} | **${(r.s / r.y).toFixed(1)}×** | ${r.pairs.map((p) => p.toFixed(1)).join(" · ")} | ${r.scores.sacrebleu} / ${r.scores.yardstick} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
