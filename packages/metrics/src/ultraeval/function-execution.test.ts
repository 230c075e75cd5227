import { readFileSync } from "node:fs";
import { ConfigError, type MetricInput, MetricError } from "@yardstick/core";
import { afterEach, describe, expect, it } from "vitest";
import { passAtKEstimate } from "./aggregations.js";
import { buildCheckProgram, createUltraevalFunctionExecution, runPythonProgram } from "./function-execution.js";

const record = JSON.parse(readFileSync(new URL("./__fixtures__/humaneval_issue17.jsonl", import.meta.url), "utf8").trim()) as Record<string, unknown>;
const metric = createUltraevalFunctionExecution();
const run = (program: string, timeoutSeconds = 3) => runPythonProgram(program, { timeoutSeconds, command: ["python3"] });
const input = (prediction: unknown, sampleId = "HumanEval/0"): MetricInput => ({
  sampleId,
  prediction,
  reference: "",
  sample: { id: sampleId, prompts: [], raw: record },
});

describe("function_execution", () => {
  afterEach(() => {
    delete process.env["YARDSTICK_TEST_SECRET"];
  });

  it("passes the canonical HumanEval solution and fails a wrong one", async () => {
    const r = await metric.compute([input([record["canonical_solution"], "    return False\n"])], {});
    expect(r.perSample[0]!.scores).toEqual({ "pass@1": 0.5, "pass@2": 1 });
    expect((r.details!["executions"] as Record<string, string[]>)["HumanEval/0"]).toEqual(["passed", "failed: "]);
  });

  it("pass@k over several completions uses the unbiased estimator", async () => {
    const good = record["canonical_solution"] as string;
    const bad = "    return None\n";
    const r = await metric.compute([input([good, bad, good, bad, good])], { ks: [1, 2, 10] });
    expect(r.scores).toEqual({ "pass@1": passAtKEstimate(5, 3, 1), "pass@2": passAtKEstimate(5, 3, 2) });
    expect(r.scores["pass@2"]).toBeCloseTo(1 - (2 * 1) / (5 * 4), 12);
  });

  it("can average pass/fail instead", async () => {
    const r = await metric.compute([input([record["canonical_solution"], "    return 1/0\n"])], { aggregation: "mean", name: "acc" });
    expect(r.scores).toEqual({ acc: 0.5 });
  });

  it("times out an endless program and kills it", async () => {
    const started = Date.now();
    expect(await run("while True:\n    pass\n", 0.3)).toBe("timed out");
    // A program that blocks SIGALRM handling in C code is still killed at timeout + 1 s.
    expect(await run("import time\nimport signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\ntime.sleep(30)\n", 0.3)).toBe("timed out");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("runs in a fresh directory with a stripped environment and no stdin", async () => {
    process.env["YARDSTICK_TEST_SECRET"] = "x";
    expect(await run("import os\nassert 'YARDSTICK_TEST_SECRET' not in os.environ\nassert sorted(os.listdir('.')) == ['program.py']\n")).toBe("passed");
    expect(await run("input()\n")).toMatch(/^failed/);
    expect(await run("print('noise')\nimport sys\nsys.exit(0)\n")).toBe("failed: 0");
    expect(await run("import os\nos.remove('program.py')\n")).toMatch(/^failed: 'NoneType' object is not callable/);
    expect(await run("exit()\n")).toMatch(/^failed/);
  });

  it("builds the MBPP program when the record has the MBPP keys", async () => {
    const mbpp = { text: "Add two numbers.", code: "", task_id: 1, test_setup_code: "", test_list: ["assert add(1, 2) == 3"], challenge_test_list: [] };
    const program = buildCheckProgram(mbpp, "def add(a, b):\n    return a + b");
    expect(program).toBe('"""Add two numbers.\nassert add(1, 2) == 3"""\ndef add(a, b):\n    return a + b\nassert add(1, 2) == 3');
    expect(await run(program)).toBe("passed");
  });

  it("reports bad input and options", async () => {
    await expect(metric.compute([input(42)], {})).rejects.toThrow(MetricError);
    await expect(metric.compute([{ ...input("x"), sample: { id: "s", prompts: [], raw: {} } }], {})).rejects.toThrow(/doc.prompt/);
    await expect(metric.compute([input([])], {})).rejects.toThrow(/empty list/);
    await expect(metric.compute([input("x")], { timeoutSeconds: -1 })).rejects.toThrow(ConfigError);
  });

  it("kills the program when the run is aborted", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = runPythonProgram("import time\ntime.sleep(30)\n", { timeoutSeconds: 20, command: ["python3"], signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toThrow(/aborted/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("says clearly when Python cannot be started", async () => {
    await expect(metric.compute([input("    return 1\n")], { command: ["/nonexistent/python3"] })).rejects.toThrow(/cannot start/);
  });
});
