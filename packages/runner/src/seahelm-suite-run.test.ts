/**
 * The whole `seahelm` suite end to end: the corpus configs (task_config.yaml and every suite task's
 * config) copied to a temp dir, small data written for every task-language pair of the suite (85 in
 * 7 languages; local JSONL where a config names a file, parquet on the Hugging Face stand-in for Hub
 * datasets), then one `yardstick run --suite seahelm --limit 2` against the dev server as model and
 * judge. Every pair that `ls` says runs here must come back scored in results.json, judged tasks
 * with judgements. Only MetricX (no scoring endpoint here) is reported as not computed.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DevServer, type HubServer, startDevServer, startHubServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { goldOf, type SuiteData, writeSuiteData } from "./__fixtures__/seahelm-suite-data.js";
import type { LsRow } from "./ls-command.js";
import { main } from "./main.js";
import { loadTaskSpecs } from "./tasks.js";

const CORPUS = join(import.meta.dirname, "..", "..", "config", "src", "__fixtures__", "seahelm_tasks");

/** The served model: the answer a row's prompt carries; a judge's best class; something for later turns. */
function answer(text: string): string {
  if (text.includes("<CRITERION>")) {
    const best = text.includes("CLASS_EXACTLY_MET") ? "CLASS_EXACTLY_MET" : "CLASS_MET";
    return `<reflection>The text does what the criterion asks.</reflection><classification>${best}</classification>`;
  }
  return goldOf(text) ?? "Baik, ini versi singkatnya.";
}

let dir: string;
let tasks: string;
let model: DevServer;
let hub: HubServer;
let data: SuiteData;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ys-seahelm-suite-"));
  tasks = join(dir, "seahelm_tasks");
  cpSync(CORPUS, tasks, { recursive: true });
  const { tasks: specs } = await loadTaskSpecs([tasks], { suite: "seahelm", requireData: false });
  data = writeSuiteData(specs);
  hub = await startHubServer({ datasets: {}, parquet: data.parquet });
  model = await startDevServer({ port: 0, models: ["m", "judge"], policy: (req) => answer(req.lastUserText) });
});
afterAll(async () => {
  await model?.close();
  await hub?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the seahelm suite end to end", () => {
  it("runs every pair ls says runs here, from local files and the Hub stand-in, judged tasks judged", async () => {
    const env = { YARDSTICK_CACHE_DIR: join(dir, "cache"), HF_ENDPOINT: hub.url };
    const ls = captureIO(env, dir);
    expect(await main(["ls", tasks, "--suite", "seahelm", "--json"], ls), ls.err()).toBe(0);
    const rows = (JSON.parse(ls.out()) as { tasks: LsRow[] }).tasks;
    const runnable = rows.filter((r) => r.runsHere);
    // With the data written, every pair of the suite runs here.
    expect(rows.filter((r) => !r.runsHere).map((r) => [r.key, r.reasons])).toEqual([]);
    expect(rows).toHaveLength(85);

    const out = join(dir, "run");
    const url = `${model.url}/v1`;
    const args = ["run", tasks, "--suite", "seahelm", "--limit", "2"];
    const models = ["--model", "openai-compatible:m", "--base-url", url, "--judge-model", "openai-compatible:judge", "--judge-base-url", url];
    const io = captureIO(env, dir);
    expect(await main([...args, ...models, "--skip-unsupported", "--out", out, "--quiet", "--no-report"], io), io.err()).toBe(0);

    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
    const meta = results.meta.tasks as Record<string, { samples: number; errors: number }>;
    expect(Object.keys(meta).sort()).toEqual(runnable.map((r) => r.key).sort());
    for (const r of runnable) {
      expect(meta[r.key], r.key).toMatchObject({ samples: 2, errors: 0 });
      // SEA-HELM's shape: language → competency → task.
      const scores = results[r.language]?.[r.competency]?.[r.task] as Record<string, unknown> | undefined;
      expect(scores, `${r.key} in results.json`).toBeDefined();
      if (/metricx/.test(r.metric)) {
        // No MetricX endpoint here: the translation tasks say so and report chrF++ instead.
        expect(scores!.not_computed, r.key).toMatch(/^MetricX not computed/);
        expect(scores!.normalized_chrf_score, r.key).toBe(100);
      } else {
        // The served model answers each row's gold (judges their best class): every main score is full.
        expect(scores![r.metric], r.key).toBe(100);
      }
    }

    // Aggregates: each competency with a computed main score, each language and the run (MetricX
    // left out: ms's only nlg tasks are translations, so ms has no nlg total).
    const computed = runnable.filter((r) => !/metricx/.test(r.metric));
    for (const r of computed) expect(results[r.language][r.competency].total, `${r.language}/${r.competency}`).toBe(100);
    for (const language of new Set(runnable.map((r) => r.language))) expect(results[language].total, language).toBe(100);
    expect(results.ms.nlg.total).toBeUndefined();
    expect(results.total).toBe(100);

    const records = readFileSync(join(out, "responses.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { task: string; stage: string; status: string; model: string; judgement?: { label: string } });
    const judged = runnable.filter((r) => r.judge === "seahelm-criteria").map((r) => r.key);
    expect(judged.sort()).toEqual([
      "kalahi-judge/tl",
      ...["id", "ms", "ta", "th", "tl", "vi"].map((l) => `mt-bench-judge/${l}`),
      "syntax-criteria/id",
    ]);
    for (const key of judged) {
      // Two samples, two criteria each (the rows of seahelm-suite-data.ts), every one judged by the judge model.
      const judgements = records.filter((r) => r.task === key && r.stage === "judge");
      expect(judgements, key).toHaveLength(4);
      for (const j of judgements) expect(j, key).toMatchObject({ status: "ok", model: "judge", judgement: { label: expect.stringMatching(/^CLASS_/) } });
    }
    expect(records.filter((r) => r.stage === "judge").every((r) => judged.includes(r.task))).toBe(true);

    // Hub datasets were read through the stand-in (parquet downloads, commit in the fingerprint); the
    // local global_mmlu_lite files from the copied tree.
    const runJson = readFileSync(join(out, "run.json"), "utf8");
    for (const repo of data.hubRepos) expect(runJson, repo).toMatch(new RegExp(`hf:${repo}@[0-9a-f]{40}`));
    const downloaded = new Set(hub.stats().log.filter((l) => l.status === 200 && l.path.endsWith(".parquet")).map((l) => l.path));
    for (const repo of data.hubRepos) expect([...downloaded].some((p) => p.includes(repo)), repo).toBe(true);
    expect(data.localFiles.map((f) => f.slice(tasks.length + 1)).sort()).toEqual(
      ["id", "ms", "my", "tl", "vi"].flatMap((l) => ["dev", "test"].map((s) => `knowledge/global_mmlu_lite/global_mmlu_lite_${l}_${s}.jsonl`)),
    );
  }, 60_000);
});
