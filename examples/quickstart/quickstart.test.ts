import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

describe("the quickstart demo", () => {
  it("evaluates the task with both baselines and over HTTP, writing a run store for each", () => {
    const out = mkdtempSync(join(tmpdir(), "yardstick-demo-"));
    const r = spawnSync(process.execPath, [join(here, "run-demo.mjs")], {
      env: { ...process.env, YARDSTICK_DEMO_OUT: out, YARDSTICK_CACHE_DIR: join(out, "cache") },
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("== baseline:random ==");
    expect(r.stdout).toContain("== baseline:majority ==");
    expect(r.stdout).toMatch(/== lexicon model over HTTP \(http:\/\/127\.0\.0\.1:\d+\) ==/);
    const lexicon = JSON.parse(readFileSync(join(out, "lexicon", "results.json"), "utf8"));
    const majority = JSON.parse(readFileSync(join(out, "majority", "results.json"), "utf8"));
    // The lexicon model beats always-the-same-label, which normalizes to 0.
    expect(majority.id.nlu.sentiment.normalized_accuracy).toBe(0);
    expect(lexicon.id.nlu.sentiment.normalized_accuracy).toBeGreaterThan(50);
    expect(lexicon.en.nlu.sentiment.n).toBe(24);
    // Every English sample was asked over HTTP: 24 answers from the model, none from the cache.
    const records = readFileSync(join(out, "lexicon", "responses.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((r) => r.task === "sentiment/en");
    expect(records.filter((r) => r.status === "ok" && r.cached === false)).toHaveLength(24);
    expect(records[0].request.messages.at(-1).content).toContain("```");
    const manifest = JSON.parse(readFileSync(join(out, "lexicon", "run.json"), "utf8"));
    expect(manifest.tasks.map((t: { key: string }) => t.key).sort()).toEqual(["sentiment/en", "sentiment/id"]);
    expect(manifest.tasks[0].fewshot).toBe(2);

    // Run again over a run store an earlier yardstick left (another fingerprint): written afresh.
    const randomManifest = join(out, "random", "run.json");
    const before = JSON.parse(readFileSync(randomManifest, "utf8"));
    writeFileSync(randomManifest, JSON.stringify({ ...before, fingerprint: "0".repeat(64) }));
    const again = spawnSync(process.execPath, [join(here, "run-demo.mjs")], {
      env: { ...process.env, YARDSTICK_DEMO_OUT: out, YARDSTICK_CACHE_DIR: join(out, "cache") },
      encoding: "utf8",
    });
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(readFileSync(randomManifest, "utf8")).fingerprint).toBe(before.fingerprint);
  });
});
