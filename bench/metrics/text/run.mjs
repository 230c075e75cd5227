#!/usr/bin/env node
// Text-metric throughput: corpus chrF++ and BLEU over 10,000 segment pairs and ROUGE-L over
// 10,000 summaries, through the registered MetricV1 objects (corpus score + per-sample scores).
// Imports the built package: run `npx tsc --build packages/metrics` first.
// Usage: node bench/metrics/text/run.mjs [--count N] [--repeats R] [--write-data DIR]
//   --write-data DIR also writes the generated data as one-segment-per-line files so that
//   bench/metrics/text/compare_python.py can time sacrebleu on exactly the same input.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { textMetrics } from "../../../packages/metrics/dist/index.js";
import { makeSegmentPairs, makeSummaries } from "./synthetic-data.mjs";

const { values } = parseArgs({
  options: { count: { type: "string", default: "10000" }, repeats: { type: "string", default: "5" }, "write-data": { type: "string" } },
});
const count = Number(values.count);
const repeats = Number(values.repeats);

const pairs = makeSegmentPairs(count);
const summaries = makeSummaries(count);
if (values["write-data"]) {
  const dir = values["write-data"];
  mkdirSync(dir, { recursive: true });
  // Summaries are multi-line, so they are written with "\n" escaped as the two characters \n.
  writeFileSync(join(dir, "mt.hyp"), `${pairs.hyps.join("\n")}\n`);
  writeFileSync(join(dir, "mt.ref"), `${pairs.refs.join("\n")}\n`);
  writeFileSync(join(dir, "sum.pred"), `${summaries.preds.map((s) => s.replaceAll("\n", "\\n")).join("\n")}\n`);
  writeFileSync(join(dir, "sum.ref"), `${summaries.refs.map((s) => s.replaceAll("\n", "\\n")).join("\n")}\n`);
}

const mtInputs = pairs.hyps.map((prediction, i) => ({ sampleId: String(i), prediction, reference: pairs.refs[i] }));
const sumInputs = summaries.preds.map((prediction, i) => ({ sampleId: String(i), prediction, reference: summaries.refs[i] }));

const cases = [
  ["chrF++ (corpus, 10k pairs)", "chrf++", mtInputs, {}, "chrf++"],
  ["BLEU 13a (corpus, 10k pairs)", "bleu", mtInputs, {}, "bleu"],
  ["ROUGE-L (10k summaries)", "rouge", sumInputs, { rouge_types: ["rougeL"] }, "rougeL"],
  ["ROUGE-L + stemmer (10k summaries)", "rouge", sumInputs, { rouge_types: ["rougeL"], use_stemmer: true }, "rougeL"],
];

const rows = [];
for (const [label, id, inputs, options, key] of cases) {
  const times = [];
  const cpu = [];
  let score = Number.NaN;
  for (let r = 0; r < repeats; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = await textMetrics[id].compute(inputs, options);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    score = result.scores[key];
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  rows.push({
    case: label,
    "median s": (median / 1000).toFixed(3),
    "min s": (times[0] / 1000).toFixed(3),
    // CPU time of the whole process (all threads): less sensitive to other load on the machine.
    "median cpu s": (cpu[Math.floor(cpu.length / 2)] / 1000).toFixed(3),
    "µs/segment": ((median * 1000) / inputs.length).toFixed(1),
    score: score.toFixed(4),
  });
}

console.log(`node ${process.version}, ${cpus()[0]?.model ?? "cpu"}, ${count} segments, ${repeats} repeats (first run includes JIT warm-up)`);
console.table(rows);
