/**
 * function_execution: run generated code against the dataset's tests in a separate `python3` process.
 *
 * What is enforced per program: a fresh temporary working directory (removed afterwards); an environment
 * with only PATH, LANG, HOME and TMPDIR (pointing into that directory) — no proxy variables, no tokens;
 * `python3 -I -B` (ignores PYTHON* variables and user site-packages); stdin at /dev/null and unreadable
 * inside the program; upstream's SIGALRM limit around `exec` plus a hard SIGKILL of the whole process
 * group `timeoutSeconds + 1` s after start; upstream's reliability guard (os.remove, os.kill,
 * subprocess.Popen, ... set to None); no network: a new network namespace with no interface up
 * (sandbox.ts; without unshare or namespaces, one warning and the network stays reachable, or the run
 * is refused with `requireIsolation` / YARDSTICK_SANDBOX=strict); address space limited to
 * `memoryLimitMb` (RLIMIT_AS) and CPU time to 2 × timeout + 2 s (RLIMIT_CPU, for a child the
 * wall-clock kill missed). Not isolated: the file system (read access as the user running yardstick),
 * other processes' view, the number of threads.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { type MetricContext, MetricError, type MetricResult, type MetricV1 } from "@yardstick/core";
import { z } from "zod";
import { averageKeys, DEFAULT_PASS_KS, ultraevalMeanAggregate, ultraevalPassAtK } from "./aggregations.js";
import { checkInputs, parseOptions } from "./define.js";
import { PYTHON_RUNNER } from "./python-runner.js";
import { detectNetworkIsolation, SANDBOX_PATH, sandboxRequiredByEnv, warnNoIsolation } from "./sandbox.js";
import { describe, type Fail, failFor, toCall, type UltraevalCall } from "./sample.js";

const ID = "ultraeval:function_execution";

/** Sandbox options shared by every metric that runs generated code through this runner. */
export const sandboxOptionsShape = {
  /** Address-space limit of each program in MiB (RLIMIT_AS); null: no limit. */
  memoryLimitMb: z.number().int().min(64).max(1_048_576).nullable().default(2048),
  /** Refuse to run code when the network cannot be cut (also YARDSTICK_SANDBOX=strict). */
  requireIsolation: z.boolean().default(false),
};

export const functionExecutionOptionsSchema = z.strictObject({
  name: z.string().min(1).optional(),
  /** Upstream's TIMEOUT. */
  timeoutSeconds: z.number().positive().max(600).default(3),
  /** argv prefix that runs Python; the runner script and its arguments are appended. */
  command: z.array(z.string().min(1)).min(1).default(["python3"]),
  aggregation: z.enum(["pass_k", "mean"]).default("pass_k"),
  ks: z.array(z.number().int().positive()).min(1).optional(),
  /** Programs run at the same time. */
  concurrency: z.number().int().positive().max(64).optional(),
  ...sandboxOptionsShape,
});
export type FunctionExecutionOptions = z.infer<typeof functionExecutionOptionsSchema>;

export type ExecutionStatus = "passed" | "timed out" | `failed: ${string}`;

const MBPP_KEYS = ["text", "code", "task_id", "test_setup_code", "test_list", "challenge_test_list"];

function stringField(doc: Record<string, unknown>, key: string, fail: Fail): string {
  const v = doc[key];
  if (typeof v !== "string") fail(`expected doc.${key} to be a string, got ${describe(v)}`);
  return v;
}

/** The program upstream executes for one completion (HumanEval, or MBPP when the MBPP keys are present). */
export function buildCheckProgram(doc: Record<string, unknown>, completion: string, fail: Fail = failFor(ID)): string {
  if (MBPP_KEYS.every((k) => k in doc)) {
    const list = doc["test_list"];
    if (!Array.isArray(list) || list.some((t) => typeof t !== "string")) fail(`expected doc.test_list to be a list of strings, got ${describe(list)}`);
    const tests = (list as string[]).join("\n");
    return `"""${stringField(doc, "text", fail)}\n${tests}"""\n${completion}\n${tests}`;
  }
  const prompt = stringField(doc, "prompt", fail);
  const test = stringField(doc, "test", fail);
  const entry = stringField(doc, "entry_point", fail);
  return `${prompt}${completion}\n${test}\ncheck(${entry})`;
}

export interface PythonRunOptions {
  timeoutSeconds: number;
  command: readonly string[];
  signal?: AbortSignal;
  /** RLIMIT_AS in MiB; default 2048; null: none. */
  memoryLimitMb?: number | null;
  /** Refuse to run when the network cannot be isolated (YARDSTICK_SANDBOX=strict does the same). */
  requireIsolation?: boolean;
  /** The unshare executable (default "unshare" on PATH). */
  unshare?: string;
  /** Where the one "no network isolation" warning goes (default: stderr). */
  log?: (message: string) => void;
}

const DEFAULT_MEMORY_LIMIT_MB = 2048;

/** The argv prefix that starts the child without network, or [] after a warning when that is not possible. */
async function isolationPrefix(options: PythonRunOptions): Promise<readonly string[]> {
  const unshare = options.unshare ?? "unshare";
  const isolation = await detectNetworkIsolation(unshare);
  if (isolation.available) return isolation.prefix;
  if (options.requireIsolation || sandboxRequiredByEnv()) {
    throw new MetricError(
      `refusing to run generated code: network isolation is required (requireIsolation / YARDSTICK_SANDBOX=strict) but not available: ${isolation.reason}; install util-linux or run with user namespaces enabled`,
      { metricId: ID },
    );
  }
  warnNoIsolation(unshare, isolation.reason, options.log);
  return [];
}

/** RLIMIT_CPU: above any single-threaded program the wall-clock kill lets through. */
const cpuLimitSeconds = (timeoutSeconds: number) => 2 * Math.ceil(timeoutSeconds) + 2;

/** Runs one program; resolves to upstream's status string. */
export async function runPythonProgram(program: string, options: PythonRunOptions): Promise<ExecutionStatus> {
  return (await runInRunner(program, options, false)).status;
}

/**
 * Runs one program as a script (`__name__ == "__main__"`, `sys.exit(0)` is a normal end) and keeps
 * what it printed: for harnesses that compare stdout (LiveCodeBench). Same limits as runPythonProgram.
 */
export async function runPythonScript(program: string, options: PythonRunOptions): Promise<{ status: ExecutionStatus; stdout: string }> {
  return runInRunner(program, options, true);
}

/** Report size kept from the runner: a status string, or (capture) a status plus stdout. */
const REPORT_LIMIT = 65536;
const CAPTURE_REPORT_LIMIT = 32 * 1024 * 1024;

async function runInRunner(program: string, options: PythonRunOptions, capture: boolean): Promise<{ status: ExecutionStatus; stdout: string }> {
  const isolation = await isolationPrefix(options);
  const memoryMb = options.memoryLimitMb === undefined ? DEFAULT_MEMORY_LIMIT_MB : options.memoryLimitMb;
  const outOfMemory: ExecutionStatus = memoryMb === null ? "failed: out of memory" : `failed: out of memory (limit ${memoryMb} MiB)`;
  const dir = await mkdtemp(join(tmpdir(), "yardstick-exec-"));
  try {
    const file = join(dir, "program.py");
    await writeFile(file, program, "utf8");
    const python = options.command[0]!;
    const [exe, ...prefix] = [...isolation, ...options.command];
    const env = { PATH: SANDBOX_PATH, LANG: "C.UTF-8", HOME: dir, TMPDIR: dir };
    const limits = [String(memoryMb === null ? 0 : memoryMb * 1024 * 1024), String(cpuLimitSeconds(options.timeoutSeconds))];
    const args = [...prefix, "-I", "-B", "-c", PYTHON_RUNNER, file, String(options.timeoutSeconds), capture ? "capture" : "check", ...limits];
    const limit = capture ? CAPTURE_REPORT_LIMIT : REPORT_LIMIT;
    return await new Promise<{ status: ExecutionStatus; stdout: string }>((resolve, reject) => {
      const child = spawn(exe!, args, {
        cwd: dir,
        env,
        detached: true,
        stdio: ["ignore", "ignore", "pipe", "pipe"],
      });
      const chunks: Buffer[] = [];
      let reportBytes = 0;
      let overflow = false;
      let stderr = "";
      let killedForTime = false;
      const killGroup = () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          // The group is already gone.
        }
      };
      const timer = setTimeout(() => {
        killedForTime = true;
        killGroup();
      }, (options.timeoutSeconds + 1) * 1000);
      const onAbort = () => killGroup();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      child.stdio[3]?.on("data", (chunk: Buffer) => {
        if (reportBytes + chunk.length > limit) overflow = true;
        else chunks.push(chunk);
        reportBytes += chunk.length;
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString("utf8");
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(new MetricError(`cannot start ${exe}: ${error.message}`, { metricId: ID, cause: error }));
      });
      let exitCode: number | null = null;
      let exitSignal: NodeJS.Signals | null = null;
      child.on("exit", (code, signal) => {
        exitCode = code;
        exitSignal = signal;
      });
      child.on("close", () => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        killGroup(); // stray children the program left behind
        if (options.signal?.aborted) {
          reject(new MetricError("aborted", { metricId: ID }));
          return;
        }
        if (overflow) {
          resolve({ status: `failed: output larger than ${limit} bytes`, stdout: "" });
          return;
        }
        const report = Buffer.concat(chunks).toString("utf8");
        const parsed = parseReport(report, capture);
        if (parsed) {
          resolve(parsed);
          return;
        }
        // No report: killed, crashed, or the interpreter failed before running the program.
        if (isolation.length > 0 && (exitCode === 126 || exitCode === 127) && /failed to execute/.test(stderr)) {
          reject(new MetricError(`cannot start ${python}: ${stderr.trim()}`, { metricId: ID }));
          return;
        }
        if (exitSignal === "SIGXCPU") {
          resolve({ status: "timed out", stdout: "" });
          return;
        }
        if (!killedForTime && /\bMemoryError\b/.test(stderr)) {
          resolve({ status: outOfMemory, stdout: "" });
          return;
        }
        if (!killedForTime && stderr !== "" && report === "") {
          resolve({ status: `failed: ${stderr.trim().split("\n").pop() ?? "python error"}`, stdout: "" });
          return;
        }
        resolve({ status: "timed out", stdout: "" });
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function parseReport(report: string, capture: boolean): { status: ExecutionStatus; stdout: string } | undefined {
  try {
    const value = JSON.parse(report) as unknown;
    if (!capture && typeof value === "string") return { status: value as ExecutionStatus, stdout: "" };
    if (capture && typeof value === "object" && value !== null) {
      const { status, stdout } = value as { status?: unknown; stdout?: unknown };
      if (typeof status === "string" && typeof stdout === "string") return { status: status as ExecutionStatus, stdout };
    }
  } catch {
    // Not JSON: a partial report.
  }
  return undefined;
}

/** Runner options from a metric's parsed options and context: limits, isolation, abort signal, log. */
export function sandboxRunOptions(
  o: { timeoutSeconds: number; command: readonly string[]; memoryLimitMb: number | null; requireIsolation: boolean },
  ctx?: { signal?: AbortSignal; log?: (message: string) => void },
): PythonRunOptions {
  return {
    timeoutSeconds: o.timeoutSeconds,
    command: o.command,
    memoryLimitMb: o.memoryLimitMb,
    requireIsolation: o.requireIsolation,
    ...(ctx?.signal ? { signal: ctx.signal } : {}),
    ...(ctx?.log ? { log: ctx.log } : {}),
  };
}

export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function completions(call: UltraevalCall, fail: Fail): string[] {
  return call.results.map((r, i) => {
    if (typeof r !== "string") fail(`completion ${i} is ${describe(r)}, expected a string`);
    return r;
  });
}

export function createUltraevalFunctionExecution(): MetricV1 {
  return {
    specVersion: "v1",
    id: ID,
    description: "UltraEval function_execution: run HumanEval/MBPP tests on the generated code in python3 (pass@k)",
    textPairs: false,
    checkOptions: (options) => void parseOptions(ID, functionExecutionOptionsSchema, options),
    async compute(inputs, options, ctx?: MetricContext): Promise<MetricResult> {
      const o = parseOptions(ID, functionExecutionOptionsSchema, options);
      const jobs: { sample: number; program: string }[] = [];
      const calls = checkInputs(ID, inputs).map((input, sample) => {
        const call = toCall(input, ID);
        const fail = failFor(ID, call.sampleId);
        for (const c of completions(call, fail)) jobs.push({ sample, program: buildCheckProgram(call.doc, c, fail) });
        return call;
      });
      const limit = o.concurrency ?? Math.max(1, Math.min(4, cpus().length));
      const run = sandboxRunOptions(o, ctx);
      const statuses = await mapLimit(jobs, limit, (job) => runPythonProgram(job.program, run));
      const bySample = calls.map(() => [] as ExecutionStatus[]);
      statuses.forEach((s, i) => {
        bySample[jobs[i]!.sample]!.push(s);
      });
      const perSample = calls.map((call, i) => {
        const fail = failFor(ID, call.sampleId);
        const passed = bySample[i]!.map((s) => s === "passed");
        const scores =
          o.aggregation === "pass_k"
            ? ultraevalPassAtK(passed, o.ks ?? DEFAULT_PASS_KS, fail)
            : { [o.name ?? "function_execution"]: ultraevalMeanAggregate(passed, fail) };
        return { sampleId: call.sampleId, scores };
      });
      return {
        scores: averageKeys(perSample),
        perSample,
        details: { executions: Object.fromEntries(calls.map((c, i) => [c.sampleId, bySample[i]])) },
      };
    },
  };
}

export const ultraevalFunctionExecution = createUltraevalFunctionExecution();
