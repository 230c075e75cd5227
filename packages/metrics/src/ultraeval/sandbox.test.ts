/**
 * The sandbox of the generated-code runner, with real processes: a TCP server on 127.0.0.1 that the
 * program tries to reach, unshare as installed (or a missing one for the fallback), real allocations
 * against RLIMIT_AS, and the runner script killed by RLIMIT_CPU.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ConfigError, type MetricInput, MetricError } from "@yardstick/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createUltraevalFunctionExecution, runPythonProgram, runPythonScript } from "./function-execution.js";
import { PYTHON_RUNNER } from "./python-runner.js";
import { detectNetworkIsolation, SANDBOX_ENV } from "./sandbox.js";

let server: Server;
let port: number;
let connections = 0;
beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.on("error", () => {}); // the program may close first
    socket.end("hello\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  delete process.env[SANDBOX_ENV];
});

const connect = () => `import socket\ns = socket.create_connection(("127.0.0.1", ${port}), timeout=2)\nassert s.recv(5) == b"hello"\n`;
const run = (program: string, extra: Partial<Parameters<typeof runPythonProgram>[1]> = {}) =>
  runPythonProgram(program, { timeoutSeconds: 5, command: ["python3"], ...extra });

describe("network isolation", () => {
  // First in the file: the fallback warning is given once per process and unshare path.
  it("the program cannot reach a server on 127.0.0.1, or the run warns (once) that it can", async () => {
    const isolation = await detectNetworkIsolation();
    const log: string[] = [];
    connections = 0;
    const first = await run(connect(), { log: (m) => log.push(m) });
    const second = await run(connect(), { log: (m) => log.push(m) });
    if (isolation.available) {
      expect(first).toMatch(/^failed: .*(unreachable|Errno)/i);
      expect(second).toBe(first);
      expect(connections).toBe(0);
      expect(log).toEqual([]);
    } else {
      expect([first, second]).toEqual(["passed", "passed"]);
      expect(connections).toBe(2);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatch(/code runs without network isolation: .*install util-linux or run with user namespaces enabled/);
      connections = 0;
      await expect(run(connect(), { requireIsolation: true })).rejects.toThrow(/refusing to run generated code/);
      expect(connections).toBe(0);
    }
  });

  it("the control: outside the sandbox the same code reaches the server", async () => {
    connections = 0;
    const dir = mkdtempSync(join(tmpdir(), "ys-sandbox-"));
    try {
      writeFileSync(join(dir, "p.py"), connect());
      // Asynchronous, so the server in this process accepts while python runs.
      await promisify(execFile)("python3", [join(dir, "p.py")]);
      expect(connections).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("without a working unshare: one warning per process, then the code runs with the network", async () => {
    const log: string[] = [];
    const missing = { unshare: "/nonexistent/unshare", log: (m: string) => log.push(m) };
    connections = 0;
    expect(await run(connect(), missing)).toBe("passed");
    expect(await run("x = 1\n", missing)).toBe("passed");
    expect(connections).toBe(1);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^warning: code runs without network isolation: .*\/nonexistent\/unshare.*; install util-linux or run with user namespaces enabled/);
  });

  it("requireIsolation and YARDSTICK_SANDBOX=strict refuse to run code that cannot be isolated", async () => {
    connections = 0;
    const missing = { unshare: "/nonexistent/unshare" };
    await expect(run(connect(), { ...missing, requireIsolation: true })).rejects.toThrow(MetricError);
    process.env[SANDBOX_ENV] = "strict";
    await expect(runPythonScript(connect(), { timeoutSeconds: 5, command: ["python3"], ...missing })).rejects.toThrow(
      /network isolation is required .* but not available: .*install util-linux/,
    );
    expect(connections).toBe(0);
  });
});

describe("memory and CPU limits", () => {
  it("a program allocating past the memory limit fails with a clear reason; below it, it passes", async () => {
    expect(await run("x = bytearray(1024 * 1024 * 1024)\n", { memoryLimitMb: 256 })).toBe("failed: out of memory (limit 256 MiB)");
    expect(await run("x = bytearray(64 * 1024 * 1024)\nassert len(x) > 0\n", { memoryLimitMb: 256 })).toBe("passed");
    const script = await runPythonScript("x = [0] * (400 * 1024 * 1024)\nprint('done')\n", { timeoutSeconds: 5, command: ["python3"], memoryLimitMb: 256 });
    expect(script).toEqual({ status: "failed: out of memory (limit 256 MiB)", stdout: "" });
  });

  it("the default limit is 2 GiB", async () => {
    expect(await run("x = bytearray(3 * 1024 * 1024 * 1024)\n")).toBe("failed: out of memory (limit 2048 MiB)");
  });

  it("function_execution scores an out-of-memory completion as failed and says why", async () => {
    const doc = { prompt: "def f():\n", test: "def check(f):\n    assert f() == 1\n", entry_point: "f" };
    const input: MetricInput = { sampleId: "m", prediction: ["    return 1\n", "    x = bytearray(1 << 30)\n    return 1\n"], reference: "", sample: { id: "m", prompts: [], raw: doc } };
    const metric = createUltraevalFunctionExecution();
    const r = await metric.compute([input], { memoryLimitMb: 128, aggregation: "mean", name: "acc" });
    expect(r.scores).toEqual({ acc: 0.5 });
    expect((r.details!["executions"] as Record<string, string[]>)["m"]).toEqual(["passed", "failed: out of memory (limit 128 MiB)"]);
    await expect(metric.compute([input], { memoryLimitMb: 1 })).rejects.toThrow(ConfigError);
    await expect(metric.compute([input], { requireIsolation: "yes" })).rejects.toThrow(ConfigError);
  });

  it("RLIMIT_CPU ends a busy program that ignores the alarm even when nothing kills it", () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-sandbox-"));
    try {
      const file = join(dir, "p.py");
      writeFileSync(file, "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass\n");
      // The runner script alone, no wall-clock kill: 30 s alarm (ignored), 1 s of CPU.
      const result = spawnSync("python3", ["-I", "-B", "-c", PYTHON_RUNNER, file, "30", "check", "0", "1"], { timeout: 60_000 });
      expect(result.signal).toBe("SIGXCPU");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
