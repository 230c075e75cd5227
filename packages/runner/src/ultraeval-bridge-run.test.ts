/**
 * An UltraEval task whose transform has no TypeScript port runs end to end through `yardstick run`:
 * the original Python file runs in the python3 bridge's worker (prompts, few-shot examples and the
 * gold label come from it); a transform that raises stops the run with the Python error's last line. `ls` says which unported transforms run here and why the others do not.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pythonProblem } from "@yardstick/config";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const noPython = pythonProblem();

// Shaped like UltraEval's transforms; the gold goes through a postprocess imported from the checkout.
const TRANSFORM = `import random

from UltraEval.tasks.postprocess import StripPost


def transform(data, num_sample: int, r: random.Random, dataset_name: str):
    if data["question"] == "boom":
        raise ValueError("cannot read a record about booms")
    letters = "".join(chr(65 + i) for i in range(len(data["target_scores"])))
    options = "".join(f"{chr(65 + i)}: {k}\\n" for i, k in enumerate(data["target_scores"]))
    gold = chr(65 + list(data["target_scores"].values()).index(1))
    _, processed = StripPost()([], f" {gold} ")
    return {"input": f"Q: {data['question']}\\n{options}Pick one of {letters}.\\nA:", "output": f" {gold}", "processed_output": processed}
`;
const POSTPROCESS = `class StripPost:
    def __call__(self, raw_outputs, text):
        return raw_outputs, text.strip()
`;

const ROWS = [
  { question: "Which is a fruit?", options: ["10", "apple", "3"], gold: 1 },
  { question: "Which is a colour?", options: ["red", "dog", "7"], gold: 0 },
  { question: "Which is a number?", options: ["cat", "sky", "12"], gold: 2 },
];

/** target_scores written in option order (integer-like keys included), as upstream's data has them. */
function rowJson(question: string, options: string[], gold: number): string {
  const scores = options.map((o, i) => `${JSON.stringify(o)}: ${i === gold ? 1 : 0}`).join(", ");
  return `{"passage": "", "question": ${JSON.stringify(question)}, "answer": "", "target_scores": {${scores}}}`;
}

function config(task: string, transform: string) {
  return JSON.stringify({
    task_name: task,
    path: `datasets/quiz/data/${task}.jsonl`,
    description: "Answer with a letter.",
    transform,
    fewshot: 1,
    generate: { method: "generate", params: "" },
    postprocess: "",
    metric: { accuracy: { evaluation: { type: "exact_match" } } },
  });
}

function writeCheckout(): string {
  const root = mkdtempSync(join(tmpdir(), "yardstick-ultraeval-bridge-"));
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  write("tasks/postprocess.py", POSTPROCESS);
  write("datasets/quiz/transform_gen_v0.py", TRANSFORM);
  write("datasets/quiz/config/easy_gen.json", config("easy", "datasets/quiz/transform_gen_v0.py"));
  write("datasets/quiz/data/easy.jsonl", `${ROWS.map((r) => rowJson(r.question, r.options, r.gold)).join("\n")}\n`);
  write("datasets/quiz/config/broken_gen.json", config("broken", "datasets/quiz/transform_gen_v0.py"));
  write("datasets/quiz/data/broken.jsonl", `${[rowJson("fine", ["a", "b"], 0), rowJson("boom", ["a", "b"], 1)].join("\n")}\n`);
  // An unported transform whose file is not in the checkout.
  write("datasets/quiz/config/gone_gen.json", config("gone", "datasets/quiz/transform_gen_v9.py"));
  write("datasets/quiz/data/gone.jsonl", `${rowJson("fine", ["a", "b"], 0)}\n`);
  return root;
}

let server: DevServer;
let root: string;
let cacheDir: string;
const prompts: string[] = [];

beforeAll(async () => {
  // The served model answers the right letter for the first two rows only.
  server = await startDevServer({
    port: 0,
    models: ["ue-model"],
    policy: (req: { prompt?: string }) => {
      prompts.push(req.prompt ?? "");
      const last = (req.prompt ?? "").split("Q: ").at(-1) ?? "";
      return last.startsWith("Which is a fruit?") ? " B" : last.startsWith("Which is a colour?") ? "A" : "A";
    },
  });
  root = writeCheckout();
  cacheDir = mkdtempSync(join(tmpdir(), "yardstick-cache-"));
});
afterAll(async () => {
  await server?.close();
});

describe.skipIf(noPython)(`UltraEval tasks through the python3 bridge${noPython ? ` (skipped: ${noPython})` : ""}`, () => {
  it("ls runs the bridged task and names the missing transform file of the other", async () => {
    const ls = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    expect(await main(["ls", join(root, "datasets"), "--json"], ls)).toBe(0);
    const tasks = (JSON.parse(ls.out()) as { tasks: { key: string; runsHere: boolean; reasons: { code: string; message: string }[] }[] }).tasks;
    const byKey = new Map(tasks.map((t) => [t.key, t]));
    expect(byKey.get("quiz_easy_gen")?.runsHere).toBe(true);
    const gone = byKey.get("quiz_gone_gen");
    expect(gone?.runsHere).toBe(false);
    expect(gone?.reasons.find((r) => r.code === "transform")?.message).toBe(
      `uses the transform datasets/quiz/transform_gen_v9.py, which has no TypeScript port, and the python3 bridge cannot run it: the transform file ${join(root, "datasets/quiz/transform_gen_v9.py")} is not there`,
    );
  });

  it("runs the Python transform for prompts, few-shot examples and labels", async () => {
    const out = join(root, "run");
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    const args = ["--model", "openai-compatible:ue-model", "--base-url", `${server.url}/v1`, "--quiet"];
    expect(await main(["run", join(root, "datasets"), "--tasks", "quiz_easy_gen", "--out", out, ...args], io)).toBe(0);
    expect(io.err()).toBe("");

    // The prompt is the description, one example (input + output from Python) and the record's input.
    const fruit = prompts.find((p) => p.endsWith("Q: Which is a fruit?\nA: 10\nB: apple\nC: 3\nPick one of ABC.\nA:"));
    expect(fruit).toMatch(/^Answer with a letter\.\n\nQ: Which is a (colour|number)\?\n(.*\n){3}Pick one of ABC\.\nA: [AC]\n\nQ: Which is a fruit\?/);
    const scores = readFileSync(join(out, "scores", "quiz_easy_gen.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { scores: { accuracy: number } }).scores.accuracy);
    // Labels are the Python transform's processed_output (stripped letters): B, A, C against answers B, A, A.
    expect(scores).toEqual([1, 1, 0]);
  });

  it("a transform that raises stops with the Python error's last line, naming the data file, record, task and transform", async () => {
    const io = captureIO({ YARDSTICK_CACHE_DIR: cacheDir });
    const args = ["--model", "openai-compatible:ue-model", "--base-url", `${server.url}/v1`, "--quiet"];
    expect(await main(["run", join(root, "datasets"), "--tasks", "quiz_broken_gen", "--out", join(root, "run-broken"), ...args], io)).not.toBe(0);
    expect(io.err()).toContain(
      `${join(root, "datasets/quiz/data/broken.jsonl")}: record 1: task quiz_broken_gen (${join(root, "datasets/quiz/config/broken_gen.json")}): transform datasets/quiz/transform_gen_v0.py raised: ValueError: cannot read a record about booms`,
    );
    expect(io.err()).not.toMatch(/\n\s+at /);
  });
});
