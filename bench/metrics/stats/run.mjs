// Benchmark for @yardstick/metrics stats: summarize() on 100,000 scores × 1,000 bootstrap resamples.
// Build first:  npx tsc --build packages/metrics && node bench/metrics/stats/run.mjs [timed runs, default 10]
import { performance } from "node:perf_hooks";
import { compareRuns, pairedBootstrap, summarize } from "../../../packages/metrics/dist/stats/index.js";

const N = 100_000;
const RESAMPLES = 1000;
const RUNS = Number(process.argv[2] ?? 10);

// Deterministic mixed scores: a 0/1 half and a graded half.
const scores = new Float64Array(N);
for (let i = 0; i < N; i++) scores[i] = i % 2 === 0 ? ((i * 2654435761) >>> 16) & 1 : (Math.sin(i) + 1) / 2;
const other = scores.map((v, i) => (i % 7 === 0 ? 1 - v : v));

function time(label, fn) {
  fn(0); // warm-up (JIT)
  const ms = [];
  let last;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    last = fn(r + 1);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)];
  console.log(
    `${label}: median ${median.toFixed(1)} ms, min ${ms[0].toFixed(1)} ms, max ${ms.at(-1).toFixed(1)} ms (${RUNS} runs)`,
  );
  return { label, medianMs: median, minMs: ms[0], maxMs: ms.at(-1), runs: RUNS, last };
}

console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
const s = time(`summarize ${N} scores x ${RESAMPLES} resamples`, (seed) =>
  summarize(scores, { seed, resamples: RESAMPLES }),
);
console.log(`  -> mean ${s.last.mean.toFixed(5)}, stderr ${s.last.stderr.toFixed(6)}, ci [${s.last.ci.map((x) => x.toFixed(5)).join(", ")}]`);
time(`pairedBootstrap ${N} pairs x ${RESAMPLES} resamples`, (seed) =>
  pairedBootstrap(scores, other, { seed, resamples: RESAMPLES }),
);

const tasks = 10;
const perTask = 10_000;
const run = (src) => ({
  tasks: Object.fromEntries(
    Array.from({ length: tasks }, (_, t) => [
      `task${t}`,
      { items: Object.fromEntries(Array.from({ length: perTask }, (_, i) => [`s${i}`, src[t * perTask + i]])) },
    ]),
  ),
});
const runA = run(scores);
const runB = run(other);
time(`compareRuns ${tasks} tasks x ${perTask} items (incl. zod validation)`, (seed) => compareRuns(runA, runB, { seed }));
