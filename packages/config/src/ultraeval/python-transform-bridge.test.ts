import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createPythonTransformBridge, pythonProblem, type UltraEvalTransformBridge } from "./python-transform-bridge.js";
import type { UltraEvalRecord } from "./transforms/types.js";

// An UltraEval-shaped root written for these tests; its folder is not named UltraEval, so the
// transform's `from UltraEval.tasks.postprocess import ...` checks the import alias too.
const ROOT = fileURLToPath(new URL("../__fixtures__/ultraeval/bridge-root", import.meta.url));
const TOY = "datasets/toy/transform_gen_v0.py";
const noPython = pythonProblem();

const rec = (fields: Record<string, unknown>, targetScores: [string, number][] = [["a", 1]]): UltraEvalRecord => ({
  fields: { ...fields, target_scores: Object.fromEntries(targetScores) },
  targetScores,
});
const ctx = { taskName: "toy_toy_gen", fewshot: 2 };

describe.skipIf(noPython)(`python3 transform bridge${noPython ? ` (skipped: ${noPython})` : ""}`, () => {
  let bridge: UltraEvalTransformBridge;
  afterEach(async () => {
    await bridge?.close();
  });

  it("runs many records over one worker, keeping target_scores in file order", async () => {
    bridge = createPythonTransformBridge();
    expect(bridge.status(ROOT, TOY)).toEqual({ ok: true });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        bridge.run({
          root: ROOT,
          transformPath: TOY,
          record: rec({ question: `q${i}`, answer: `ans${i}` }, [
            ["10", 0],
            ["3", 1],
          ]),
          ctx,
        }),
      ),
    );
    expect(results[7]!.input).toBe("toy_toy_gen|2|q7|10,3");
    expect(results[7]!.processedOutput).toEqual(["ANS7"]);
    // The output is the worker's process id: one worker served every call.
    expect(new Set(results.map((r) => r.output)).size).toBe(1);
  });

  it("reports a transform that raises with the traceback's last line, and goes on", async () => {
    bridge = createPythonTransformBridge();
    const failing = bridge.run({ root: ROOT, transformPath: TOY, record: rec({ answer: "x" }), ctx, task: "toy_toy_gen" });
    await expect(failing).rejects.toThrow(`task toy_toy_gen: transform ${TOY} raised: KeyError: 'question'`);
    const ok = await bridge.run({ root: ROOT, transformPath: TOY, record: rec({ question: "q", answer: "x" }), ctx });
    expect(ok.input).toBe("toy_toy_gen|2|q|a");
  });

  it("fails the calls in flight when the worker is killed, and starts a new worker for the next call", async () => {
    bridge = createPythonTransformBridge();
    const first = await bridge.run({ root: ROOT, transformPath: TOY, record: rec({ question: "q" }), ctx });
    const pid = Number(first.output);
    const slow = bridge.run({ root: ROOT, transformPath: TOY, record: rec({ question: "q", sleep: 5 }), ctx, task: "toy_toy_gen" });
    await new Promise((r) => setTimeout(r, 200));
    process.kill(pid, "SIGKILL");
    await expect(slow).rejects.toThrow(/task toy_toy_gen: transform datasets\/toy\/transform_gen_v0\.py: the python3 transform worker exited \(signal SIGKILL\)/);
    const again = await bridge.run({ root: ROOT, transformPath: TOY, record: rec({ question: "q" }), ctx });
    expect(Number(again.output)).not.toBe(pid);
  });

  it("names the missing transform file and the missing interpreter", async () => {
    bridge = createPythonTransformBridge();
    const missing = "datasets/toy/transform_ppl_v9.py";
    expect(bridge.status(ROOT, missing)).toEqual({ ok: false, reason: expect.stringContaining("transform_ppl_v9.py is not there") });
    await expect(bridge.run({ root: ROOT, transformPath: missing, record: rec({ question: "q" }), ctx, task: "toy_toy_ppl" })).rejects.toThrow(
      /task toy_toy_ppl: transform datasets\/toy\/transform_ppl_v9\.py: the transform file .*transform_ppl_v9\.py is not there/,
    );
    const noInterpreter = createPythonTransformBridge({ python: "/nonexistent/python3" });
    expect(noInterpreter.status(ROOT, TOY)).toEqual({ ok: false, reason: "/nonexistent/python3 is not available (ENOENT)" });
    await expect(noInterpreter.run({ root: ROOT, transformPath: TOY, record: rec({ question: "q" }), ctx, task: "toy_toy_gen" })).rejects.toThrow(
      `task toy_toy_gen: transform ${TOY} has no TypeScript port and runs through the python3 bridge, but /nonexistent/python3 is not available (ENOENT)`,
    );
  });
});
