/**
 * UltraEval-shaped outputs of a run: the corpus mmlu (gen) and hellaswag (ppl) configs over the
 * corpus's synthetic rows, run against the dev server; `<run>/ultraeval/` then holds what upstream
 * writes (`<task>/config.json`, `final_metrics.json`, `instance.jsonl`, `_all_results.json`), with the
 * run records shaped as the corpus's leaderboard records (under the current config's key names).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, startDevServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/ultraeval/${name}`, import.meta.url));
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n");

/** The current config schema renamed four of the leaderboard records' keys. */
const RENAMED: Record<string, string> = { dataset_name: "task_name", transforms: "transform", metrics: "metric", "few-shot": "fewshot" };

let server: DevServer;
let root: string;
let out: string;
const env = () => ({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });

beforeAll(async () => {
  // Gen prompts get "(B)"; echoed loglikelihood prompts make these words likely.
  server = await startDevServer({ port: 0, models: ["m"], policy: (req) => (req.body.echo === true ? "puts the tray in the oven" : "(B)") });
  root = mkdtempSync(join(tmpdir(), "yardstick-ultraeval-outputs-"));
  for (const [dataset, config, data, rows] of [
    ["mmlu", "abstract-algebra_gen.json", "abstract-algebra.jsonl", "synthetic_mmlu.jsonl"],
    ["hellaswag", "hellaswag_ppl.json", "hellaswag.jsonl", "synthetic_hellaswag.jsonl"],
  ] as const) {
    mkdirSync(join(root, "datasets", dataset, "config"), { recursive: true });
    mkdirSync(join(root, "datasets", dataset, "data"), { recursive: true });
    copyFileSync(fixture(config), join(root, "datasets", dataset, "config", config));
    copyFileSync(fixture(rows), join(root, "datasets", dataset, "data", data));
  }
  out = join(root, "run");
  const io = captureIO(env());
  const args = ["run", join(root, "datasets"), "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--out", out, "--num-fewshot", "0", "--no-report"];
  expect(await main(args, io), io.err()).toBe(0);
  expect(io.err()).toContain(`UltraEval outputs (final_metrics.json, instance.jsonl per task, _all_results.json): ${join(out, "ultraeval")}`);
});
afterAll(async () => {
  await server.close();
});

describe("UltraEval outputs of yardstick run", () => {
  it("writes each task's run record with the keys of upstream's run records", () => {
    const dir = join(out, "ultraeval");
    for (const [task, leaderboard] of [
      ["hellaswag_hellaswag_ppl", "leaderboard-hellaswag-config.json"],
      ["mmlu_abstract-algebra_gen", "leaderboard-gsm8k-config.json"],
    ] as const) {
      const record = readJson(join(dir, task, "config.json"));
      const upstream = readJson(fixture(leaderboard));
      // Every key of the leaderboard record (renamed), plus the current schema's postprocess and log_dir.
      const expected = Object.keys(upstream).map((k) => RENAMED[k] ?? k);
      expect(Object.keys(record).sort()).toEqual([...expected, "postprocess", "log_dir"].sort());
      expect(Object.keys(record.generate as object)).toEqual(Object.keys(upstream.generate as object));
      expect(record.task_name).toBe(task);
      expect(record.log_dir).toBe(dir);
    }
    // The ppl task's record says what the leaderboard's hellaswag record says about scoring.
    const ppl = readJson(join(dir, "hellaswag_hellaswag_ppl", "config.json"));
    const upstream = readJson(fixture("leaderboard-hellaswag-config.json"));
    for (const key of ["path", "description", "metrics", "model_postprocess", "task_postprocess"]) expect(ppl[RENAMED[key] ?? key]).toEqual(upstream[key]);
    expect((ppl.generate as { args: unknown }).args).toEqual((upstream.generate as { args: unknown }).args);
    const gen = readJson(join(dir, "mmlu_abstract-algebra_gen", "config.json"));
    expect(gen.path).toBe("datasets/mmlu/data/abstract-algebra.jsonl");
    expect(gen.fewshot).toBe(0);
    expect(gen.model_postprocess).toBe("general_torch");
    expect(gen.metric).toEqual(readJson(fixture("abstract-algebra_gen.json")).metric);
  });

  it("writes instance.jsonl as upstream dumps it: the row in file order, ground truth, prompts, outputs, per-instance metrics", () => {
    const dir = join(out, "ultraeval", "mmlu_abstract-algebra_gen");
    const source = lines(fixture("synthetic_mmlu.jsonl"));
    const golden = lines(fixture("golden_prompts_mmlu.jsonl"))
      .map((l) => JSON.parse(l) as { fewshot: number; prompt: { input: string; processed_output: string } })
      .filter((g) => g.fewshot === 0);
    const instances = lines(join(dir, "instance.jsonl"));
    expect(instances).toHaveLength(source.length);
    for (const [i, line] of instances.entries()) {
      // Python's json.dumps separators, and target_scores keys such as "10" and "3" in the file's order.
      expect(line.startsWith(`{"data": ${source[i]}, "ground_truth": `)).toBe(true);
      const instance = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(instance)).toEqual(["data", "ground_truth", "prompt_inputs", "raw_outputs", "processed_outputs", "eval_results", "metrics"]);
      expect(instance.ground_truth).toBe(golden[i]!.prompt.processed_output);
      expect(instance.prompt_inputs).toEqual([golden[i]!.prompt.input]);
      expect(instance.raw_outputs).toEqual(["(B)"]);
      expect(instance.processed_outputs).toEqual(["(B)"]);
      // prefix_match: the answer "(B)" is right where the gold is (B).
      const right = golden[i]!.prompt.processed_output === "(B)" ? 1 : 0;
      expect(instance.eval_results).toEqual({ accuracy: right });
      expect(instance.metrics).toEqual({ accuracy: right });
    }

    const ppl = JSON.parse(lines(join(out, "ultraeval", "hellaswag_hellaswag_ppl", "instance.jsonl"))[0]!) as {
      data: { target_scores: Record<string, number> };
      prompt_inputs: string[];
      raw_outputs: number[][];
      processed_outputs: number[][];
      metrics: { accuracy: number };
    };
    const row = JSON.parse(lines(fixture("synthetic_hellaswag.jsonl"))[0]!) as { target_scores: Record<string, number> };
    expect(ppl.data).toEqual(row);
    expect(ppl.prompt_inputs).toEqual(["Baking cookies: A woman puts dough on a tray. she "]);
    // general_torch_ppl_norm: one per-token NLL per option; log_prob picks the lowest and scores its target.
    const [nll] = ppl.processed_outputs;
    expect(nll).toHaveLength(4);
    const chosen = nll!.indexOf(Math.min(...nll!));
    expect(ppl.metrics.accuracy).toBe(Object.values(row.target_scores)[chosen]);
    expect(ppl.raw_outputs[0]!.map((lp, i) => -lp / nll![i]! > 0)).toEqual([true, true, true, true]);
  });

  it("writes final_metrics.json per task and _all_results.json (dataset → task → metric, mean_result), matching results.json", () => {
    const dir = join(out, "ultraeval");
    const results = readJson(join(out, "results.json")) as { all: Record<string, Record<string, { accuracy: number }>> };
    const final = readJson(join(dir, "mmlu_abstract-algebra_gen", "final_metrics.json")) as {
      task_name: string;
      instance_result: { accuracy: number[] };
      overall_result: { accuracy: number };
    };
    expect(Object.keys(final)).toEqual(["task_name", "instance_result", "overall_result"]);
    expect(final.task_name).toBe("mmlu_abstract-algebra_gen");
    expect(final.instance_result.accuracy).toEqual([1, 0, 0, 0]);
    expect(final.overall_result.accuracy).toBe(0.25);
    expect(final.overall_result.accuracy).toBe(results.all.mmlu!["mmlu_abstract-algebra_gen"]!.accuracy);

    const all = readJson(join(dir, "_all_results.json"));
    const ppl = results.all.hellaswag!.hellaswag_hellaswag_ppl!.accuracy;
    expect(all).toEqual({
      hellaswag: { hellaswag_hellaswag_ppl: { accuracy: ppl }, mean_result: { accuracy: ppl } },
      mmlu: { "mmlu_abstract-algebra_gen": { accuracy: 0.25 }, mean_result: { accuracy: 0.25 } },
    });
  });

  it("score-run writes them again from the run store", async () => {
    const dir = join(out, "ultraeval");
    const before = readFileSync(join(dir, "mmlu_abstract-algebra_gen", "instance.jsonl"), "utf8");
    rmSync(dir, { recursive: true });
    const io = captureIO(env());
    expect(await main(["score-run", out], io), io.err()).toBe(0);
    expect(io.err()).toContain(`UltraEval outputs: ${dir}`);
    expect(readFileSync(join(dir, "mmlu_abstract-algebra_gen", "instance.jsonl"), "utf8")).toBe(before);
    expect(existsSync(join(dir, "_all_results.json"))).toBe(true);
  });

  it("yardstick export --format ultraeval writes the same files elsewhere; bad flags are usage errors", async () => {
    const to = join(root, "exported");
    const io = captureIO(env());
    expect(await main(["export", out, "--format", "ultraeval", "--out", to], io), io.err()).toBe(0);
    expect(io.err()).toContain(`wrote 2 task(s) to ${to}`);
    for (const task of ["mmlu_abstract-algebra_gen", "hellaswag_hellaswag_ppl"]) {
      for (const file of ["instance.jsonl", "final_metrics.json"]) {
        expect(readFileSync(join(to, task, file), "utf8")).toBe(readFileSync(join(out, "ultraeval", task, file), "utf8"));
      }
      expect(readJson(join(to, task, "config.json")).log_dir).toBe(to);
    }
    expect(readFileSync(join(to, "_all_results.json"), "utf8")).toBe(readFileSync(join(out, "ultraeval", "_all_results.json"), "utf8"));

    const bad = captureIO(env());
    expect(await main(["export", out, "--format", "lm-eval", "--out", to], bad)).toBe(2);
    expect(bad.err()).toContain("--format must be ultraeval");
  });

  it("merge of shard stores writes the files of the unsharded run", async () => {
    const shards = [1, 2].map((i) => join(root, `shard-${i}`));
    const cache = env();
    for (const [i, dir] of shards.entries()) {
      const io = captureIO(cache);
      const args = ["run", join(root, "datasets"), "--model", "openai-compatible:m", "--base-url", `${server.url}/v1`, "--num-fewshot", "0", "--no-report"];
      // The one-row ppl task has no sample in one shard, which that shard reports as unscorable (exit 1).
      expect(await main([...args, "--shard", `${i + 1}/2`, "--out", dir, "--quiet"], io), io.err()).toBeLessThanOrEqual(1);
    }
    const merged = join(root, "merged");
    const io = captureIO(cache);
    expect(await main(["merge", ...shards, "--out", merged], io), io.err()).toBe(0);
    expect(io.err()).toContain(`UltraEval outputs: ${join(merged, "ultraeval")}`);
    for (const file of ["mmlu_abstract-algebra_gen/instance.jsonl", "hellaswag_hellaswag_ppl/final_metrics.json", "_all_results.json"]) {
      expect(readFileSync(join(merged, "ultraeval", file), "utf8")).toBe(readFileSync(join(out, "ultraeval", file), "utf8"));
    }
  });
});

