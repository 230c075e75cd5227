/**
 * seahelm-livecodebench on rows in SEA-HELM's LiveCodeBench format (__fixtures__: public tests as a
 * list, private tests as base64(zlib(pickle(json))) written with Python's pickle), run in python3.
 */
import { readFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import type { MetricInput, Sample } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { createSeahelmLiveCodeBenchMetric, extractLiveCodeBenchCode } from "./livecodebench.js";
import { decodePrivateTests, liveCodeBenchProblem, unpickleString } from "./livecodebench-tests.js";

const read = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const [addition, evenSum, larger] = read("livecodebench_en.jsonl");

function answer(id: string, row: Record<string, unknown>, response: string): MetricInput {
  const sample: Sample = { id, prompts: [{}], metadata: (row.metadata ?? {}) as Record<string, unknown>, raw: row };
  return { sampleId: id, prediction: response, reference: null, rawResponse: response, sample };
}
const fenced = (code: string) => `Here is my solution.\n\`\`\`python\n${code}\n\`\`\`\nIt reads the input.`;

describe("seahelm-livecodebench", () => {
  it("takes the last fenced block, or the whole response when there is none", () => {
    expect(extractLiveCodeBenchCode("```python\nprint(1)\n```\nthen\n```Python\n  print(2)\n```")).toBe("print(2)");
    expect(extractLiveCodeBenchCode("```\nx = 1\n```")).toBe("x = 1");
    expect(extractLiveCodeBenchCode("print(3)")).toBe("print(3)");
  });

  it("reads public tests and decodes the pickled private tests, in both row shapes", () => {
    const p = liveCodeBenchProblem("m", answer("a", addition!, ""));
    expect(p.funcName).toBeNull();
    expect(p.tests).toEqual([
      { input: "1 2\n", output: "3\n" },
      { input: "10 20\n", output: "30\n" },
      { input: "-5 5\n", output: "0\n" },
    ]);
    expect(liveCodeBenchProblem("m", answer("b", evenSum!, "")).funcName).toBe("isSumEven");
    const [hfRow] = read("livecodebench_hf_row.jsonl");
    expect(liveCodeBenchProblem("m", { ...answer("c", hfRow!, ""), sample: { id: "c", prompts: [{}], raw: hfRow! } })).toEqual({
      tests: [
        { input: "1 2\n", output: "3\n" },
        { input: "10 20\n", output: "30\n" },
      ],
      funcName: null,
    });
    // Only a pickled string is read: a pickled list (']' opcode) is refused.
    expect(() => unpickleString(Buffer.from([0x80, 0x04, 0x5d, 0x94, 0x2e]))).toThrow(/other than a string/);
    expect(() => decodePrivateTests(deflateSync(Buffer.from("not a pickle")).toString("base64"))).toThrow();
    expect(() => liveCodeBenchProblem("seahelm-livecodebench", answer("d", { test_cases: { public: "nope" } }, ""))).toThrow(
      /metric seahelm-livecodebench.*cannot read the LiveCodeBench test cases/,
    );
  });

  it("runs stdin problems and functional problems in python3 and scores pass@1", async () => {
    const samples = [
      // stdin: all three tests pass (the private ones too).
      answer("add", addition!, fenced("a, b = map(int, input().split())\nprint(a + b)")),
      // A script with a main guard that reads sys.stdin and ends with sys.exit(0).
      answer("add-main", addition!, fenced("import sys\ndef main():\n    a, b = map(int, sys.stdin.readline().split())\n    print(a + b)\n    sys.exit(0)\nif __name__ == '__main__':\n    main()")),
      // Multiplies: "1 2" prints 2, not 3, so the first (public) test fails.
      answer("mul", addition!, fenced("a, b = map(int, input().split())\nprint(a * b)")),
      // Functional, one argument per line; a LeetCode class.
      answer("larger", larger!, fenced("class Solution:\n    def larger(self, a: int, b: int) -> int:\n        return max(a, b)")),
      // Functional with a bool result: expected "true"/"false" read as JSON.
      answer("even", evenSum!, fenced("class Solution:\n    def isSumEven(self, nums: List[int]) -> bool:\n        return sum(nums) % 2 == 0")),
    ];
    const r = await createSeahelmLiveCodeBenchMetric().compute(samples, { timeoutSeconds: 5 });
    expect(r.perSample.map((s) => [s.sampleId, s.scores["pass@1"]])).toEqual([
      ["add", 100],
      ["add-main", 100],
      ["mul", 0],
      ["larger", 100],
      ["even", 100],
    ]);
    expect(r.scores["pass@1"]).toBe(80);
    expect((r.details!.failures as Record<string, unknown>).mul).toEqual({ test: 0, status: "wrong output" });
  });

  it("upstreamPythonLiterals: an expected JSON `true` is Python source, a NameError, so the test fails", async () => {
    const right = fenced("class Solution:\n    def isSumEven(self, nums):\n        return sum(nums) % 2 == 0");
    const m = createSeahelmLiveCodeBenchMetric();
    const upstream = await m.compute([answer("even", evenSum!, right)], { upstreamPythonLiterals: true });
    expect(upstream.scores["pass@1"]).toBe(0);
    expect((upstream.details!.failures as Record<string, { status: string }>).even!.status).toMatch(/failed: name 'true' is not defined/);
  });

  it("a program that runs past the time limit fails", async () => {
    const r = await createSeahelmLiveCodeBenchMetric().compute([answer("loop", addition!, fenced("while True:\n    pass"))], { timeoutSeconds: 0.5 });
    expect(r.scores["pass@1"]).toBe(0);
    expect((r.details!.failures as Record<string, unknown>).loop).toEqual({ test: 0, status: "timed out" });
  });

  it("a program that allocates past the memory limit fails and says why", async () => {
    const hog = answer("hog", addition!, fenced("x = bytearray(1 << 30)\na, b = map(int, input().split())\nprint(a + b)"));
    const r = await createSeahelmLiveCodeBenchMetric().compute([hog], { memoryLimitMb: 256 });
    expect(r.scores["pass@1"]).toBe(0);
    expect((r.details!.failures as Record<string, unknown>).hog).toEqual({ test: 0, status: "failed: out of memory (limit 256 MiB)" });
    await expect(createSeahelmLiveCodeBenchMetric().compute([hog], { memoryLimitMb: "lots" })).rejects.toThrow(/memoryLimitMb/);
  });
});
