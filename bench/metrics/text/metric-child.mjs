#!/usr/bin/env node
// One whole process of yardstick's corpus text metric, as `sacrebleu REF -i HYP -m ... -b` is one:
// reads one segment per line from HYP and REF, computes the registered MetricV1 (corpus score plus
// every per-sample score) and prints the corpus score. Used by whole-process.mjs.
// Usage: node bench/metrics/text/metric-child.mjs chrf++|bleu HYP REF
import { readFileSync } from "node:fs";
import { textMetrics } from "../../../packages/metrics/dist/index.js";

const [id, hypPath, refPath] = process.argv.slice(2);
const lines = (path) => {
  const text = readFileSync(path, "utf8");
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
};
const hyps = lines(hypPath);
const refs = lines(refPath);
const result = await textMetrics[id].compute(
  hyps.map((prediction, i) => ({ sampleId: String(i), prediction, reference: refs[i] })),
  {},
);
console.log(result.scores[id].toFixed(4));
