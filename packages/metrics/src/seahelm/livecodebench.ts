/**
 * SEA-HELM LiveCodeBenchMetric: pass@1 of the last ```python block of the response against the
 * problem's public and private tests (all must pass; the first failure ends the sample).
 *
 * Each test runs in its own `python3` process through the function_execution runner (fresh
 * temporary directory, stripped environment, reliability guard, time limit with a hard kill, no
 * network, memory limit; see ultraeval/function-execution.ts for what is and is not isolated):
 * - stdin/stdout problems: the test input is the program's `sys.stdin` (a StringIO, as upstream) and
 *   the trimmed stdout must equal the trimmed expected output;
 * - functional problems (`func_name`): the code's `Solution().<func_name>` (or the function itself
 *   when there is no `class Solution`) is called with the input, one argument per line (a one-line
 *   input is one argument), and must return the expected value (a tuple counts as a list).
 * Like upstream's harness, the program sees `sys`, `StringIO` (stdin) or `json`, `ast` and typing's
 * Dict/List/Tuple/Set/Sequence/Mapping (functional) without importing them.
 *
 * Upstream pastes the expected output into the program as Python source, so a JSON `true`,
 * `false` or `null` is a NameError and the test fails whatever the code returns; it reads each line
 * of a multi-line input with `ast.literal_eval`, so a JSON `true` argument arrives as the string
 * "true". Here values are read as JSON first, then as a Python literal, then kept as text;
 * `upstreamPythonLiterals: true` restores upstream's reading. Inputs are handed over exactly
 * (upstream's `'''...'''` literal would interpret backslashes in them).
 */
import { cpus } from "node:os";
import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";
import { pyStrip } from "@yardstick/core";
import { z } from "zod";
import { schemaOptionsCheck } from "../options-check.js";
import { type ExecutionStatus, mapLimit, runPythonScript, sandboxOptionsShape, sandboxRunOptions } from "../ultraeval/function-execution.js";
import { predictionText, requireSamples } from "./common.js";
import { type LiveCodeBenchTest, liveCodeBenchProblem } from "./livecodebench-tests.js";
import { parseOptions } from "./options.js";

export const LIVECODEBENCH_ID = "seahelm-livecodebench";

export const seahelmLiveCodeBenchOptionsSchema = z.strictObject({
  /** Extract the code from the raw response (upstream); false: from the postprocessed prediction. */
  useRawResponse: z.boolean().default(true),
  /** Upstream's run_timeout per test. */
  timeoutSeconds: z.number().positive().max(600).default(6),
  /** argv prefix that runs Python. */
  command: z.array(z.string().min(1)).min(1).default(["python3"]),
  /** Samples tested at the same time. */
  concurrency: z.number().int().positive().max(64).optional(),
  /** Read expected outputs as Python source and input lines with ast.literal_eval only, as upstream. */
  upstreamPythonLiterals: z.boolean().default(false),
  /** `memoryLimitMb` (2048) and `requireIsolation` (false), as function_execution. */
  ...sandboxOptionsShape,
});
export type LiveCodeBenchOptions = z.infer<typeof seahelmLiveCodeBenchOptionsSchema>;

const CODE_BLOCK = /```(?:python)?\n((?:[^`]|`(?!``))*?)\n```/gi;

/** The last fenced code block, trimmed; the whole response when there is none (upstream). */
export function extractLiveCodeBenchCode(response: string): string {
  let last: string | undefined;
  for (const m of response.matchAll(CODE_BLOCK)) last = m[1];
  return last === undefined ? response : pyStrip(last);
}

/** A Python string literal for `text` (JSON's string syntax is a subset of Python's). */
const pyString = (text: string) => JSON.stringify(text);

/** The program for one stdin/stdout test. */
export function stdinProgram(code: string, test: LiveCodeBenchTest): string {
  return `import sys\nfrom io import StringIO\nsys.stdin = StringIO(${pyString(test.input)})\n\n${code}\n`;
}

// Reads a value the way the harness is configured to: JSON, then a Python literal, then text.
const VALUE_READER = `
def _ys_read(text, json_first):
    if json_first:
        try:
            return json.loads(text)
        except Exception:
            pass
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
`;

/** The program for one functional test: the code, then a call of `funcName` checked against the output. */
export function functionalProgram(code: string, funcName: string, test: LiveCodeBenchTest, upstreamPythonLiterals: boolean): string {
  const jsonFirst = upstreamPythonLiterals ? "False" : "True";
  const target = code.includes("class Solution") ? `getattr(Solution(), ${pyString(funcName)})` : funcName;
  const expected = upstreamPythonLiterals ? pyStrip(test.output) : `_ys_read(${pyString(pyStrip(test.output))}, True)`;
  return [
    "import json\nimport sys\nimport ast\nfrom typing import TYPE_CHECKING, Dict, List, Tuple, Set, Sequence, Mapping\n",
    code,
    VALUE_READER,
    `_ys_expected = ${expected}`,
    `_ys_input = ${pyString(test.input)}`,
    `_ys_method = ${target}`,
    "_ys_spread = False",
    `if "\\n" in _ys_input:
    try:
        _ys_args = [_ys_read(line.strip(), ${jsonFirst}) for line in _ys_input.strip().split("\\n") if line.strip()]
        _ys_spread = True
    except Exception:
        _ys_args = _ys_input
else:
    try:
        _ys_args = json.loads(_ys_input)
    except Exception:
        _ys_args = _ys_input`,
    "_ys_result = _ys_method(*_ys_args) if _ys_spread else _ys_method(_ys_args)",
    `if isinstance(_ys_expected, str):
    try:
        _ys_expected = json.loads(_ys_expected)
    except Exception:
        pass`,
    "if isinstance(_ys_result, tuple):\n    _ys_result = list(_ys_result)",
    'if not (_ys_result == _ys_expected):\n    raise AssertionError("expected %r, got %r" % (_ys_expected, _ys_result))',
    "",
  ].join("\n");
}

export interface TestOutcome {
  passed: boolean;
  /** Index of the first failing test and why, when one failed. */
  failure?: { test: number; status: ExecutionStatus | "wrong output" };
}

async function runTests(code: string, funcName: string | null, tests: readonly LiveCodeBenchTest[], o: LiveCodeBenchOptions, ctx?: MetricContext): Promise<TestOutcome> {
  const run = sandboxRunOptions(o, ctx);
  for (let i = 0; i < tests.length; i++) {
    const test = tests[i]!;
    if (funcName !== null) {
      const { status } = await runPythonScript(functionalProgram(code, funcName, test, o.upstreamPythonLiterals), run);
      if (status !== "passed") return { passed: false, failure: { test: i, status } };
    } else {
      const { status, stdout } = await runPythonScript(stdinProgram(code, test), run);
      if (status !== "passed") return { passed: false, failure: { test: i, status } };
      if (pyStrip(stdout) !== pyStrip(test.output)) return { passed: false, failure: { test: i, status: "wrong output" } };
    }
  }
  return { passed: true };
}

export function createSeahelmLiveCodeBenchMetric(): MetricV1 {
  return {
    specVersion: "v1",
    id: LIVECODEBENCH_ID,
    description: "SEA-HELM LiveCodeBench: pass@1 of the generated Python on the public and private tests, run in python3",
    textPairs: false,
    checkOptions: schemaOptionsCheck(LIVECODEBENCH_ID, seahelmLiveCodeBenchOptionsSchema),
    async compute(inputs: readonly MetricInput[], options: Record<string, unknown>, ctx?: MetricContext): Promise<MetricResult> {
      requireSamples(LIVECODEBENCH_ID, inputs);
      const o = parseOptions(LIVECODEBENCH_ID, seahelmLiveCodeBenchOptionsSchema, options);
      const jobs = inputs.map((input) => {
        const response = o.useRawResponse && typeof input.rawResponse === "string" ? input.rawResponse : predictionText(LIVECODEBENCH_ID, input);
        return { code: extractLiveCodeBenchCode(response), ...liveCodeBenchProblem(LIVECODEBENCH_ID, input) };
      });
      const limit = o.concurrency ?? Math.max(1, Math.min(4, cpus().length));
      const outcomes = await mapLimit(jobs, limit, (job) => runTests(job.code, job.funcName, job.tests, o, ctx));
      const passed = outcomes.map((r) => (r.passed ? 1 : 0));
      const failures: Record<string, TestOutcome["failure"]> = {};
      outcomes.forEach((r, i) => {
        if (r.failure) failures[inputs[i]!.sampleId] = r.failure;
      });
      return {
        scores: { "pass@1": (100 * passed.reduce((a: number, b) => a + b, 0)) / inputs.length },
        perSample: inputs.map((input, i) => ({ sampleId: input.sampleId, scores: { "pass@1": 100 * passed[i]! } })),
        details: { failures },
      };
    },
  };
}
