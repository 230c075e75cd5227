/** `seahelm-livecodebench`: LiveCodeBench release files (rows written by hand in the dataset's format) read as SEA-HELM maps them. */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Sample } from "@yardstick/core";
import { testDataloader } from "@yardstick/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createSeahelmLiveCodeBenchDataloader, liveCodeBenchFiles } from "./seahelm-livecodebench.js";

const FIXTURE = fileURLToPath(new URL("./__fixtures__/livecodebench/", import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), "ys-livecodebench-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function copyFolder(name: string): string {
  const dir = path.join(tmp, name);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

async function load(options: Record<string, unknown>): Promise<Sample[]> {
  const out: Sample[] = [];
  for await (const s of createSeahelmLiveCodeBenchDataloader({ hubCacheDir: path.join(tmp, "no-cache"), offline: true }).load(options, {})) out.push(s);
  return out;
}

describe("seahelm-livecodebench", () => {
  it("reads the releases up to the version and maps rows as SEA-HELM does", async () => {
    expect(liveCodeBenchFiles("v3")).toEqual(["test.jsonl", "test2.jsonl", "test3.jsonl"]);
    const dir = copyFolder("shape");
    const v1 = await load({ version: "v1", dir });
    expect(v1.map((s) => s.id)).toEqual(["abc001_a", "3002"]);
    const [stdin, functional] = v1;
    expect(stdin!.prompts).toEqual([
      {
        question: "Read two integers A and B and print A+B.",
        format_prompt:
          "### Format: Read the inputs from stdin solve the problem and write the answer to stdout (do not directly test on the sample inputs). Enclose your code within delimiters as follows.\n```python\n# YOUR CODE HERE\n```",
      },
    ]);
    expect(stdin!.metadata).toEqual({ language: "en", platform: "atcoder", contest_date: "2023-05-06T00:00:00", difficulty: "easy", func_name: null });
    const tests = stdin!.raw.test_cases as { public: unknown; private: unknown };
    expect(tests.public).toEqual([{ input: "1 2\n", output: "3\n", testtype: "stdin" }]);
    expect(typeof tests.private).toBe("string"); // decoded by the metric
    expect(functional!.prompts[0]!.format_prompt).toBe(
      "### Format: You will use the following starter code to write the solution to the problem and enclose your code within delimiters.\n```python\nclass Solution:\n    def larger(self, a: int, b: int) -> int:\n        \n```",
    );
    expect(functional!.metadata.func_name).toBe("larger");
    // v2 adds the second release; limit counts across files.
    expect((await load({ version: "v2", dir })).map((s) => s.id)).toEqual(["abc001_a", "3002", "1900A"]);
    expect((await load({ version: "v2", dir, limit: 2 })).map((s) => s.id)).toEqual(["abc001_a", "3002"]);
  });

  it("names the file and line of a bad row, and a missing release file", async () => {
    const dir = copyFolder("bad");
    const file = path.join(dir, "test2.jsonl");
    writeFileSync(file, `${JSON.stringify({ question_id: "x", question_content: "q", public_test_cases: "not json", private_test_cases: "" })}\n`);
    await expect(load({ version: "v2", dir })).rejects.toThrow(`${file}:1: bad LiveCodeBench row: public_test_cases and metadata must be JSON`);
    await expect(load({ version: "v3", dir })).rejects.toThrow(/test3\.jsonl/);
  });
});

const conformanceDir = copyFolder("conformance");
testDataloader("seahelm-livecodebench", () => createSeahelmLiveCodeBenchDataloader({ hubCacheDir: path.join(tmp, "no-cache"), offline: true }), {
  cases: [
    {
      name: "v2 from a folder",
      options: { version: "v2", dir: conformanceDir },
      expectedCount: 3,
      changeData: async () =>
        void writeFileSync(
          path.join(conformanceDir, "test2.jsonl"),
          `${JSON.stringify({ question_id: "9", question_content: "q", public_test_cases: "[]", private_test_cases: "", metadata: "{}" })}\n`,
          { flag: "a" },
        ),
    },
  ],
  invalidOptions: [{}, { version: "v7" }, { version: "v1", limit: 0 }, { version: "v1", dir: path.join(tmp, "nowhere") }, { version: "v1" }],
});
