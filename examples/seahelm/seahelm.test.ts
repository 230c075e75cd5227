import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));

type Records = { task: string; cached: boolean; request: { kind: string; prompt?: string; messages?: { content: string }[] } }[];
const responses = (dir: string): Records =>
  readFileSync(join(dir, "responses.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("the SEA-HELM example", () => {
  it("runs the suite as an instruct and as a base model, with sentiment read from parquet through the Hub stand-in", () => {
    const out = mkdtempSync(join(tmpdir(), "yardstick-seahelm-example-"));
    const r = spawnSync(process.execPath, [join(here, "run.mjs")], {
      env: { ...process.env, YARDSTICK_EXAMPLE_OUT: out, YARDSTICK_CACHE_DIR: join(out, "cache") },
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("== instruct model (chat) ==");
    expect(r.stdout).toContain("== base model (completions, base_model.jinja, 5-shot) ==");

    for (const kind of ["instruct", "base"]) {
      const dir = join(out, kind);
      const manifest = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
      // The suite's tasks, in its order; the sentiment data is the parquet conversion's commit.
      expect(manifest.tasks.map((t: { key: string }) => t.key)).toEqual(["sentiment/id", "abssum/id", "global_mmlu_lite/id"]);
      expect(JSON.stringify(manifest.fingerprintParts.data)).toContain("hf:aisingapore/NLU-Sentiment-Analysis@");
      const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
      // 11 of 12 right: "dipindahkan" holds "indah", so one neutral sentence reads as positive.
      // Balanced accuracy (1 + 1 + 3/4) / 3 = 11/12, normalized (11/12 - 1/3) / (2/3) = 87.5.
      expect(results.id.nlu.sentiment.n).toBe(12);
      expect(results.id.nlu.sentiment.normalized_accuracy).toBeCloseTo(87.5, 9);
      // 5 of 6 questions right: the longest option is wrong once, on the only D question. Balanced
      // accuracy over A, B, C, D is (1 + 1 + 1 + 0) / 4 = 75, normalized (3/4 - 1/4) / (3/4) = 66.67.
      expect(results.id.knowledge.global_mmlu_lite.n).toBe(6);
      expect(results.id.knowledge.global_mmlu_lite.accuracy).toBeCloseTo(75, 9);
      expect(results.id.knowledge.global_mmlu_lite.normalized_accuracy).toBeCloseTo(200 / 3, 9);
      expect(results.id.nlg.abssum.n).toBe(4);
      expect(results.id.nlg.abssum.normalized_rougel_f1).toBeGreaterThan(30);
    }

    const instruct = responses(join(out, "instruct"));
    expect(instruct.every((x) => x.request.kind === "chat" && x.cached === false)).toBe(true);
    const base = responses(join(out, "base"));
    expect(base.every((x) => x.request.kind === "completion")).toBe(true);
    // base_model.jinja joins the turns with blank lines and ends with one: five examples, then the item.
    const sentiment = base.find((x) => x.task === "sentiment/id")!.request.prompt!;
    expect(sentiment.match(/\nJawaban: /g)).toHaveLength(5);
    expect(sentiment.endsWith("```\n\n")).toBe(true);

    // --runs 3: three run stores (seeds 1234-1236) and SEA-HELM's bootstrap over them. The numbers
    // were computed from these runs' per-question scores with numpy (upstream's notebook steps).
    expect(r.stdout).toContain("SEA-HELM bootstrap over 3 runs");
    const seeds = [0, 1, 2].map((i) => responses(join(out, "instruct-3-runs", "runs", String(i))).map((x) => (x.request as { params?: { seed?: number } }).params?.seed));
    expect(seeds.map((s) => [...new Set(s)])).toEqual([[1234], [1235], [1236]]);
    const scores = parse(readFileSync(join(out, "instruct-3-runs", "sea-rules_scores.yaml"), "utf8"));
    expect(scores.id.nlu.tasks.sentiment.mean).toBeCloseTo(84.58333333333331, 9);
    expect(scores.id.nlu.tasks.sentiment.stderr).toBeCloseTo(1.5493942704695876, 9);
    expect(scores.id.nlg.tasks.abssum.mean).toBeCloseTo(53.710763048291646, 9);
    expect(scores.id.nlg.tasks.abssum.stderr).toBeCloseTo(0.23740761293912374, 9);
    // The same answers in every run: no spread.
    expect(scores.id.knowledge.tasks.global_mmlu_lite.stderr).toBe(0);
    expect(scores.sea_mean).toBeCloseTo(68.32025434943054, 9);
    expect(scores.sea_stderr).toBeCloseTo(0.5530963824246549, 9);
  });
});
