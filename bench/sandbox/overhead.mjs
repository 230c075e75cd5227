// Per-program cost of the generated-code sandbox: the same trivial program run through
// runPythonProgram without network isolation and memory limit (the runner as it was), with the
// default sandbox (unshare --net as probed, RLIMIT_AS 2 GiB, RLIMIT_CPU), and through
// `unshare --net --map-root-user` (the unprivileged form). Rounds interleave the variants so load
// changes hit all of them alike. Usage: node bench/sandbox/overhead.mjs [rounds=40]
// (build first: npx tsc --build packages/metrics)
import { runPythonProgram } from "../../packages/metrics/dist/ultraeval/function-execution.js";
import { detectNetworkIsolation } from "../../packages/metrics/dist/ultraeval/sandbox.js";

const rounds = Number(process.argv[2] ?? 40);
const program = "def add(a, b):\n    return a + b\nassert add(1, 2) == 3\n";
const quiet = () => {};
const variants = {
  "no isolation, no limits": { unshare: "/nonexistent/unshare", memoryLimitMb: null, log: quiet },
  "default sandbox": {},
  "unshare --net --map-root-user": { unshare: "/nonexistent/unshare", log: quiet, command: ["unshare", "--net", "--map-root-user", "--", "python3"] },
};
console.log("isolation here:", JSON.stringify(await detectNetworkIsolation()));
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let r = 0; r < rounds + 2; r++) {
  for (const [name, extra] of Object.entries(variants)) {
    const started = process.hrtime.bigint();
    const status = await runPythonProgram(program, { timeoutSeconds: 3, command: ["python3"], ...extra });
    if (status !== "passed") throw new Error(`${name}: ${status}`);
    if (r >= 2) times[name].push(Number(process.hrtime.bigint() - started) / 1e6); // 2 warm-up rounds
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times["no isolation, no limits"]);
for (const [name, xs] of Object.entries(times)) {
  const m = median(xs);
  console.log(`${name.padEnd(32)} median ${m.toFixed(1)} ms/program  (${m - base >= 0 ? "+" : ""}${(m - base).toFixed(1)} ms)  min ${Math.min(...xs).toFixed(1)}`);
}

// Four at a time, as function_execution runs them by default: wall time per program.
const { mapLimit } = await import("../../packages/metrics/dist/ultraeval/function-execution.js");
for (const [name, extra] of Object.entries(variants)) {
  const started = process.hrtime.bigint();
  await mapLimit(Array.from({ length: rounds }), 4, () => runPythonProgram(program, { timeoutSeconds: 3, command: ["python3"], ...extra }));
  console.log(`${name.padEnd(32)} 4 at a time: ${(Number(process.hrtime.bigint() - started) / 1e6 / rounds).toFixed(1)} ms/program wall`);
}
