import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, type DevServerRequest, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// SEA-HELM's LiveCodeBench config as in the corpus (the config package's fixture), its first release
// file (rows written by hand in the dataset's format, private tests pickled as upstream) in a Hugging
// Face cache snapshot, read offline: the dev server answers one stdin and one functional problem,
// and the generated code runs in python3 against the public and private tests.

const here = dirname(fileURLToPath(import.meta.url));
const CONFIG = join(here, "..", "..", "config", "src", "__fixtures__", "seahelm_tasks", "code_generation", "livecodebench", "config.yaml");
const RELEASES = join(here, "..", "..", "dataloaders", "src", "__fixtures__", "livecodebench");

/** Right code for A+B and for the functional problem's class; wrong (off by one) for the third. */
function answer(request: DevServerRequest): string {
  const text = request.lastUserText;
  if (text.includes("print A+B")) return "```python\na, b = map(int, input().split())\nprint(a + b)\n```";
  if (text.includes("larger of a and b")) return "```python\nclass Solution:\n    def larger(self, a: int, b: int) -> int:\n        return max(a, b)\n```";
  if (text.includes("print 2N")) return "```python\nprint(2 * int(input()) + 1)\n```";
  return "I do not know.";
}

let dev: DevServer;
let dir: string;
let cache: string;
beforeAll(async () => {
  dev = await startDevServer({ port: 0, models: ["gen"], policy: answer });
  dir = mkdtempSync(join(tmpdir(), "ys-lcb-run-"));
  const folder = join(dir, "seahelm_tasks", "code_generation", "livecodebench");
  mkdirSync(folder, { recursive: true });
  cpSync(CONFIG, join(folder, "config.yaml"));
  // The dataset as `huggingface-cli download` leaves it in a hub cache: refs/main -> snapshots/<sha>/.
  cache = join(dir, "hub");
  const sha = "0123456789abcdef0123456789abcdef01234567";
  const repo = join(cache, "datasets--livecodebench--code_generation_lite");
  mkdirSync(join(repo, "refs"), { recursive: true });
  writeFileSync(join(repo, "refs", "main"), sha);
  cpSync(RELEASES, join(repo, "snapshots", sha), { recursive: true });
});
afterAll(async () => {
  await dev.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("SEA-HELM LiveCodeBench end to end", () => {
  it("run: v1 and v2 ask for code, run it in python3 against the tests, and report pass@1", async () => {
    const out = join(dir, "run");
    const args = ["run", join(dir, "seahelm_tasks"), "--tasks", "livecodebench_v1,livecodebench_v2", "--model", "openai-compatible:gen", "--base-url", `${dev.url}/v1`];
    const io = captureIO({ YARDSTICK_CACHE_DIR: join(dir, "cache"), HF_HUB_CACHE: cache, HF_HUB_OFFLINE: "1" }, dir);
    expect(await main([...args, "--out", out, "--no-report", "--quiet"], io), io.err()).toBe(0);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    expect(results.meta.tasks["livecodebench_v1/en"]).toMatchObject({ samples: 2, errors: 0 });
    expect(results.meta.tasks["livecodebench_v2/en"]).toMatchObject({ samples: 3, errors: 0 });
    // v1: A+B and the functional problem pass. v2 adds "print 2N", answered off by one.
    expect(results.en.code_generation.livecodebench_v1["pass@1"]).toBe(100);
    expect(results.en.code_generation.livecodebench_v2["pass@1"]).toBeCloseTo(200 / 3, 10);
    const asked = readFileSync(join(out, "responses.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((r) => r.stage === "generate" && r.task === "livecodebench_v1/en");
    const prompt = asked.find((r) => r.request.messages.at(-1).content.includes("larger"))!.request.messages.at(-1).content as string;
    expect(prompt).toContain("### Question:\nReturn the larger of a and b.\n\n### Format: You will use the following starter code");
    expect(prompt).toMatch(/```python\nclass Solution:\n {4}def larger\(self, a: int, b: int\) -> int:\n {8}\n```\n\n### Answer: \(use the provided format with backticks\)$/);
  });
});
