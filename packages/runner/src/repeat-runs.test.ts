import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const LABELS = ["Positive", "Negative", "Neutral"];

/** A SEA-HELM sentiment-style task in Indonesian (a SEA language, so `sea_` is reported). */
function taskConfig(name: string, extra = ""): string {
  return `${name}:
  metadata:
    version: 1
  name: ${name}
  competency: nlu
  metric_file: f1_acc_metric.py
  metric_class: F1AccMetric
  metric: normalized_accuracy
${extra}  languages:
    id:
      filepath: data/test.jsonl
      max_tokens: 16
      prompt_template:
        preamble: |-
          Classify the sentence. Answer as "{answer_tag} LABEL".
        task_template: |-
          Sentence: {text}
        answer_template: "{answer_tag} {label}"
        answer_tag: "Answer:"
`;
}

function writeTasks(): string {
  const root = mkdtempSync(join(tmpdir(), "yardstick-repeat-"));
  for (const [name, extra] of [
    ["toy", ""],
    ["toy2", "  max_n_runs: 2\n"],
  ] as const) {
    mkdirSync(join(root, name, "data"), { recursive: true });
    writeFileSync(join(root, name, "config.yaml"), taskConfig(name, extra));
    const rows = [0, 1, 2, 3].map((i) => JSON.stringify({ id: `s${i}`, prompts: [{ text: `sentence number ${i}` }], label: LABELS[i % 3] }));
    writeFileSync(join(root, name, "data", "test.jsonl"), `${rows.join("\n")}\n`);
  }
  return root;
}

// Answers right, except: the request with seed 1235 misses row 0, the one with seed 1236 misses row 1.
const seeds: number[] = [];
let server: DevServer;
beforeAll(async () => {
  server = await startDevServer({
    policy: (req) => {
      const seed = Number(req.body.seed);
      seeds.push(seed);
      const row = Number(/sentence number (\d+)/.exec(req.lastUserText)?.[1]);
      const miss = (seed === 1235 && row === 0) || (seed === 1236 && row === 1);
      return `Answer: ${miss ? LABELS[(row + 1) % 3] : LABELS[row % 3]}`;
    },
  });
});
afterAll(() => server.close());

const env = () => ({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });
type Level = { mean: number; stderr: number; mean_list: number[] };

describe("run --runs N", () => {
  it("repeats the run with seeds --seed + i, skips tasks past max_n_runs, and bootstraps over the runs", async () => {
    const root = writeTasks();
    const out = join(mkdtempSync(join(tmpdir(), "yardstick-repeat-out-")), "rep");
    const io = captureIO(env());
    const code = await main(["run", root, "--model", "openai-compatible:org/tiny-model", "--base-url", `${server.url}/v1`, "--runs", "3", "--out", out, "--no-report"], io);
    expect(code, io.err()).toBe(0);
    expect([...new Set(seeds)].sort()).toEqual([1234, 1235, 1236]);
    // One ordinary run store per run; toy2 (max_n_runs: 2) sits out the third.
    const tasksOf = (i: number) => (JSON.parse(readFileSync(join(out, "runs", String(i), "run.json"), "utf8")) as { tasks: { key: string }[] }).tasks.map((t) => t.key);
    expect(tasksOf(0)).toEqual(["toy/id", "toy2/id"]);
    expect(tasksOf(2)).toEqual(["toy/id"]);
    // Per run, by hand: run 0 answers all 4 right (normalized accuracy 100); run 1 misses the first
    // Positive: balanced accuracy (1/2 + 1 + 1) / 3 = 5/6, normalized (5/6 - 1/3) / (2/3) = 75.
    const results = (i: number) => JSON.parse(readFileSync(join(out, "runs", String(i), "results.json"), "utf8")) as { id: { nlu: Record<string, { normalized_accuracy: number }> } };
    expect(results(0).id.nlu.toy!.normalized_accuracy).toBeCloseTo(100, 9);
    expect(results(1).id.nlu.toy!.normalized_accuracy).toBeCloseTo(75, 9);

    // The bootstrap over the runs; numbers from numpy (default_rng(94370244), upstream's notebook steps).
    const scores = parse(readFileSync(join(out, "tiny-model_scores.yaml"), "utf8")) as Record<string, unknown> & {
      id: Level & { nlu: Level & { tasks: Record<string, Level & { is_incomplete?: boolean }> } };
    };
    const toy = scores.id.nlu.tasks.toy!;
    const toy2 = scores.id.nlu.tasks.toy2!;
    expect(toy.mean).toBeCloseTo(78.33333333333333, 9);
    expect(toy.stderr).toBeCloseTo(5.188035159119543, 9);
    expect(toy.mean_list).toHaveLength(30);
    expect(toy2.mean).toBeCloseTo(88.33333333333333, 9);
    expect(toy2.stderr).toBeCloseTo(2.316027779265505, 9);
    expect(toy2.is_incomplete).toBe(true);
    expect(scores.id.nlu.mean).toBeCloseTo(83.33333333333333, 9);
    expect(scores.id.nlu.stderr).toBeCloseTo(2.63523138347365, 9);
    expect(scores.mean).toBeCloseTo(83.33333333333333, 9);
    expect(scores.sea_mean).toBeCloseTo(83.33333333333333, 9);
    expect(scores.sea_stderr).toBeCloseTo(2.63523138347365, 9);

    // The terminal table: mean ± stderr per level.
    const table = io.out();
    expect(table).toContain("SEA-HELM bootstrap over 3 runs");
    expect(table).toMatch(/toy\s+id\s+nlu\s+78\.33\s+5\.19/);
    expect(table).toMatch(/overall\s+83\.33\s+2\.64/);
    expect(table).toMatch(/sea\s+83\.33\s+2\.64/);
    expect(io.err()).toContain("task toy2/id is missing from some runs");

    // The same command again resumes every run store from its answers and gives the same scores.
    const again = captureIO(env());
    const before = seeds.length;
    expect(await main(["run", root, "--model", "openai-compatible:org/tiny-model", "--base-url", `${server.url}/v1`, "--runs", "3", "--out", out, "--no-report", "--quiet"], again), again.err()).toBe(0);
    expect(seeds.length).toBe(before);
    expect(again.out()).toBe(table);
  });

  it("a reasoning model runs every task in every run (upstream exempts it from max_n_runs)", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "yardstick-repeat-out-")), "rep");
    const io = captureIO(env());
    const args = ["run", writeTasks(), "--model", "openai-compatible:org/tiny-model", "--base-url", `${server.url}/v1`, "--runs", "3", "--reasoning"];
    expect(await main([...args, "--out", out, "--no-report", "--quiet"], io), io.err()).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, "runs", "2", "run.json"), "utf8")) as { tasks: { key: string }[] };
    expect(manifest.tasks.map((t) => t.key)).toEqual(["toy/id", "toy2/id"]);
  });

  it("--runs needs --out", async () => {
    const io = captureIO(env());
    expect(await main(["run", writeTasks(), "--model", "baseline:majority", "--runs", "2"], io)).toBe(2);
    expect(io.err()).toContain("--runs needs --out");
    expect(existsSync(join(io.cwd, "runs", "0"))).toBe(false);
  });
});
