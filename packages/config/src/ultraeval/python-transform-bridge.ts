/**
 * The python3 bridge: UltraEval transforms without a TypeScript port run as the original Python
 * files, in one long-lived `python3` worker (python/ultraeval_transform_worker.py, shipped in this
 * package) that speaks JSON lines over stdio. The worker starts on the first call and serves every
 * task of the run; it holds the event loop only while calls are pending and is killed when the
 * process exits, so a run never waits on it. A worker that dies is started again on the next call.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { DataLoadError, packageFile } from "@yardstick/core";
import type { TransformContext, TransformResult, UltraEvalRecord } from "./transforms/types.js";

/** The driver script, beside `dist/` and `src/` in the package. */
export const PYTHON_TRANSFORM_WORKER = packageFile(import.meta.url, "@yardstick/config", "python/ultraeval_transform_worker.py");

export interface PythonBridgeRequest {
  /** The UltraEval checkout root: on the worker's import path (`UltraEval.tasks...` resolves there). */
  root: string;
  /** The config's `transform`, relative to `root`. */
  transformPath: string;
  record: UltraEvalRecord;
  ctx: TransformContext;
  /** Named in errors: the task (or config) the record belongs to. */
  task?: string;
  /** The `random.Random` seed handed to the transform. */
  seed?: number;
}

export interface UltraEvalTransformBridge {
  /** Whether `transformPath` can run here: python3 present and the file under `root`; else why not. */
  status(root: string | undefined, transformPath: string): { ok: true } | { ok: false; reason: string };
  run(request: PythonBridgeRequest): Promise<TransformResult>;
  /** Ends the worker (it exits when its stdin closes). */
  close(): Promise<void>;
}

export interface PythonBridgeOptions {
  /** The interpreter; default `python3`. */
  python?: string;
}

interface Pending {
  resolve: (r: TransformResult) => void;
  reject: (e: Error) => void;
  what: string;
}

const pythonChecks = new Map<string, string | undefined>();

/** Undefined when `python --version` runs; else why it does not. Cached per interpreter. */
export function pythonProblem(python = "python3"): string | undefined {
  if (!pythonChecks.has(python)) {
    const r = spawnSync(python, ["--version"], { encoding: "utf8", timeout: 10_000 });
    const problem = r.error
      ? `${python} is not available (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})`
      : r.status !== 0
        ? `${python} --version exited with ${r.status}`
        : undefined;
    pythonChecks.set(python, problem);
  }
  return pythonChecks.get(python);
}

/** Whether the bridge can run `transformPath` of the checkout at `root` with `python`; else why not. */
export function pythonBridgeStatus(root: string | undefined, transformPath: string, python = "python3"): { ok: true } | { ok: false; reason: string } {
  const problem = pythonProblem(python);
  if (problem) return { ok: false, reason: problem };
  if (root === undefined) return { ok: false, reason: "no UltraEval root was found (no folder above the config holds datasets/)" };
  const file = path.resolve(root, transformPath);
  if (!existsSync(file)) return { ok: false, reason: `the transform file ${file} is not there` };
  return { ok: true };
}

function describe(req: PythonBridgeRequest): string {
  return `${req.task ? `task ${req.task}: ` : ""}transform ${req.transformPath}`;
}

/** A worker reply's result as a TransformResult; anything else is the transform's fault, said so. */
function toResult(value: unknown, what: string): TransformResult {
  const isText = (v: unknown): v is string => typeof v === "string";
  const isTexts = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText);
  const r = value as Record<string, unknown> | null;
  if (typeof r !== "object" || r === null || !isText(r.input)) throw new DataLoadError(`${what} returned ${JSON.stringify(value)?.slice(0, 200)}, expected a dict with a text "input"`);
  const output = r.output ?? "";
  const processed = r.processed_output ?? output;
  const asText = (v: unknown, key: string): string | string[] => {
    if (isText(v) || isTexts(v)) return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    throw new DataLoadError(`${what} returned a "${key}" that is neither text nor a list of texts: ${JSON.stringify(v)?.slice(0, 200)}`);
  };
  return { input: r.input, output: asText(output, "output"), processedOutput: asText(processed, "processed_output") };
}

export function createPythonTransformBridge(options: PythonBridgeOptions = {}): UltraEvalTransformBridge {
  const python = options.python ?? "python3";
  let worker: ChildProcessWithoutNullStreams | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let stderrTail = "";
  const killOnExit = () => worker?.kill();

  // The worker keeps the process alive only while an answer is awaited.
  const holdLoop = (hold: boolean) => {
    if (!worker) return;
    for (const h of [worker, worker.stdout, worker.stderr, worker.stdin] as { ref(): void; unref(): void }[]) {
      if (hold) h.ref();
      else h.unref();
    }
  };

  const failAll = (why: string) => {
    for (const p of pending.values()) p.reject(new DataLoadError(`${p.what}: ${why}`));
    pending.clear();
  };

  const start = (): ChildProcessWithoutNullStreams => {
    const child = spawn(python, ["-u", PYTHON_TRANSFORM_WORKER], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, PYTHONIOENCODING: "utf-8" } });
    worker = child;
    stderrTail = "";
    child.stdin.on("error", () => {}); // a dead worker: reported by "exit" below
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-2000);
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      let reply: { id?: number; ok?: boolean; result?: unknown; error?: string };
      try {
        reply = JSON.parse(line);
      } catch {
        return; // not a protocol line
      }
      const p = reply.id === undefined ? undefined : pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id!);
      if (pending.size === 0) holdLoop(false);
      if (reply.ok) {
        try {
          p.resolve(toResult(reply.result, p.what));
        } catch (e) {
          p.reject(e as Error);
        }
      } else p.reject(new DataLoadError(`${p.what} raised: ${reply.error ?? "an unknown error"}`));
    });
    child.on("error", (e: NodeJS.ErrnoException) => {
      if (worker === child) worker = undefined;
      failAll(e.code === "ENOENT" ? `${python} is not available (${e.code}); the transform has no TypeScript port and needs python3` : `cannot start ${python}: ${e.message}`);
    });
    child.on("exit", (code, signal) => {
      if (worker === child) worker = undefined;
      process.off("exit", killOnExit);
      const lastLine = stderrTail.trim().split("\n").at(-1);
      failAll(`the ${python} transform worker exited (${signal ? `signal ${signal}` : `code ${code}`})${lastLine ? `: ${lastLine}` : ""}`);
    });
    process.on("exit", killOnExit);
    return child;
  };

  return {
    status: (root, transformPath) => pythonBridgeStatus(root, transformPath, python),

    run(req) {
      const what = describe(req);
      const problem = pythonProblem(python);
      if (problem) return Promise.reject(new DataLoadError(`${what} has no TypeScript port and runs through the python3 bridge, but ${problem}`));
      const file = path.resolve(req.root, req.transformPath);
      if (!existsSync(file)) return Promise.reject(new DataLoadError(`${what}: the transform file ${file} is not there (is ${req.root} the UltraEval checkout?)`));
      const child = worker ?? start();
      const id = nextId++;
      return new Promise<TransformResult>((resolve, reject) => {
        if (pending.size === 0) holdLoop(true);
        pending.set(id, { resolve, reject, what });
        const message = {
          id,
          root: req.root,
          file,
          data: req.record.fields,
          target_scores: req.record.targetScores,
          num_sample: req.ctx.fewshot,
          dataset_name: req.ctx.taskName,
          seed: req.seed ?? 1234,
        };
        child.stdin.write(`${JSON.stringify(message)}\n`);
      });
    },

    async close() {
      const child = worker;
      if (!child) return;
      worker = undefined;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.stdin.end();
      const timer = setTimeout(() => child.kill(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
