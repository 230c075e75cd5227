// Profiling aid: runs the yardstick CLI's main with the given arguments in this process (heap tuned
// as the bin does) and prints process.memoryUsage() every 100 ms to stderr (seconds, RSS, heap used
// / heap total, external, in MB), then the peak RSS. Where the memory of a large run goes over time:
//   node bench/lib/memory-trace-child.mjs score-run STORE --quiet
import { setFlagsFromString } from "node:v8";
import { main, tuneHeapForBatchRuns } from "@yardstick/runner";

tuneHeapForBatchRuns();
// BENCH_HEAP_GROWING_PERCENT=N tries another heap growth than the CLI's.
if (process.env.BENCH_HEAP_GROWING_PERCENT) setFlagsFromString(`--heap-growing-percent=${process.env.BENCH_HEAP_GROWING_PERCENT}`);
const t0 = performance.now();
const mb = (b) => Math.round(b / 2 ** 20);
const timer = setInterval(() => {
  const m = process.memoryUsage();
  process.stderr.write(`${((performance.now() - t0) / 1000).toFixed(1)}s rss ${mb(m.rss)} heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} ext ${mb(m.external)}\n`);
}, 100);
const io = { stdout: { write: () => true }, stderr: process.stderr, env: process.env, cwd: process.cwd() };
const code = await main(process.argv.slice(2), io);
clearInterval(timer);
process.stderr.write(`exit ${code}, peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`);
