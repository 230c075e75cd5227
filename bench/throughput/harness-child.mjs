// Runs `yardstick run` in this process and reports its wall time and peak RSS as one JSON line.
// Usage: harness-child.mjs TASK_DIR URL OUT CONCURRENCY CACHE_DIR [--cache] [--report] [--memory-trace]
//   --cache         use the request cache in CACHE_DIR (default: --no-cache)
//   --report        write report.html as the CLI does by default (default: --no-report)
//   --memory-trace  also report the peak of process.memoryUsage() (heap, external, array buffers),
//                   sampled every 50 ms (where the memory goes; RSS itself is maxRssMB)
import { main, tuneHeapForBatchRuns } from "@yardstick/runner";

tuneHeapForBatchRuns(); // as the yardstick bin does

const [taskDir, url, out, concurrency, cacheDir, ...extra] = process.argv.slice(2);
const useCache = extra.includes("--cache");
const memoryTrace = extra.includes("--memory-trace");
const report = extra.includes("--report");
const io = {
  stdout: { write: () => true },
  stderr: process.stderr,
  env: { ...process.env, YARDSTICK_CACHE_DIR: cacheDir },
  cwd: process.cwd(),
};
const peak = { rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
const sampler = memoryTrace
  ? setInterval(() => {
      const m = process.memoryUsage();
      for (const k of Object.keys(peak)) peak[k] = Math.max(peak[k], m[k]);
    }, 50)
  : undefined;
const t0 = performance.now();
const code = await main(
  ["run", taskDir, "--model", "openai-compatible:bench", "--base-url", `${url}/v1`, "--concurrency", concurrency, "--out", out, "--quiet", ...(useCache ? [] : ["--no-cache"]), ...(report ? [] : ["--no-report"])],
  io,
);
const seconds = (performance.now() - t0) / 1000;
if (sampler) clearInterval(sampler);
const mb = (b) => Math.round(b / 2 ** 20);
const memory = memoryTrace ? { memoryPeakMB: Object.fromEntries(Object.entries(peak).map(([k, v]) => [k, mb(v)])) } : {};
process.stdout.write(`${JSON.stringify({ code, seconds, maxRssMB: process.resourceUsage().maxRSS / 1024, ...memory })}\n`);
