import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { captureIO, makeSentimentTask } from "./__fixtures__/make-task.js";
import type { LsRow } from "./ls-command.js";
import { main } from "./main.js";

const SRC = fileURLToPath(new URL(".", import.meta.url));
const CORPUS = join(SRC, "..", "..", "config", "src", "__fixtures__", "seahelm_tasks");
const env = () => ({ YARDSTICK_CACHE_DIR: mkdtempSync(join(tmpdir(), "yardstick-cache-")) });

describe("--suite", () => {
  it("ls --suite seahelm lists every task-language pair of the suite with whether it runs here", async () => {
    const io = captureIO(env(), SRC);
    expect(await main(["ls", CORPUS, "--suite", "seahelm", "--json"], io), io.err()).toBe(0);
    const rows = (JSON.parse(io.out()) as { tasks: LsRow[] }).tasks;
    expect(rows).toHaveLength(85);
    expect(rows[0]).toMatchObject({ key: "sentiment/id", runsHere: true, reasons: [] });
    // Judged tasks run: their judge and its metric are built in.
    const judge = rows.find((r) => r.key === "mt-bench-judge/th");
    expect(judge).toMatchObject({ judge: "seahelm-criteria", judgeModel: "openai/gpt-oss-120b", runsHere: true, reasons: [] });
    expect(rows.find((r) => r.key === "kalahi-judge/tl")).toMatchObject({ judge: "seahelm-criteria", runsHere: true });
    for (const r of rows) expect(r.runsHere === (r.reasons.length === 0), r.key).toBe(true);
  });

  it("names suite entries that select nothing: warnings in validate and ls, errors with --strict", async () => {
    const ls = captureIO(env(), SRC);
    expect(await main(["ls", CORPUS, "--suite", "seahelm_logprobs", "--json"], ls)).toBe(0);
    const { suiteGaps } = JSON.parse(ls.out()) as { suiteGaps: string[] };
    expect(suiteGaps).toEqual([
      'suite "seahelm_logprobs" lists "global_mmlu_lite-logprobs" (id, vi, tl, ms, my), which is neither a task nor an aggregation group of these configs',
    ]);
    const v = captureIO(env(), SRC);
    expect(await main(["validate", CORPUS, "--suite", "seahelm_logprobs"], v)).toBe(0);
    expect(v.err()).toContain(`warning: ${suiteGaps[0]}\n`);
    const strict = captureIO(env(), SRC);
    expect(await main(["validate", CORPUS, "--suite", "seahelm_logprobs", "--strict"], strict)).toBe(1);
    expect(strict.err()).toContain(`error: ${suiteGaps[0]}\n`);
    const none = captureIO(env(), SRC);
    expect(await main(["ls", CORPUS, "--suite", "seahelm", "--json"], none)).toBe(0);
    expect((JSON.parse(none.out()) as { suiteGaps: string[] }).suiteGaps).toEqual([]);
  });

  it("an unknown language of a suite lists the suite's languages", async () => {
    const io = captureIO(env(), SRC);
    expect(await main(["ls", CORPUS, "--suite", "seahelm", "--langs", "zz"], io)).toBe(1);
    expect(io.err()).toMatch(/suite "seahelm" has no language "zz".*expected one of id, vi, th, ta, tl, ms, my/s);
  });

  it("run --suite runs only the suite's tasks", async () => {
    const root = join(mkdtempSync(join(tmpdir(), "yardstick-suite-run-")), "seahelm_tasks");
    mkdirSync(root);
    makeSentimentTask(3, { dir: root });
    // A second task, outside the suite, that would fail if it ran (its data file is missing).
    mkdirSync(join(root, "other"));
    writeFileSync(join(root, "other", "config.yaml"), readFileSync(join(root, "toy", "config.yaml"), "utf8").replace(/^toy:/, "other:"));
    cpSync(join(root, "toy", "data"), join(root, "other", "data-moved"), { recursive: true });
    writeFileSync(join(root, "task_config.yaml"), "mini:\n  en: [toy]\n");
    const out = join(mkdtempSync(join(tmpdir(), "yardstick-suite-out-")), "run");
    const io = captureIO(env());
    expect(await main(["run", root, "--suite", "mini", "--model", "baseline:majority", "--out", out, "--quiet", "--no-report"], io), io.err()).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, "run.json"), "utf8")) as { tasks: { key: string }[] };
    expect(manifest.tasks.map((t) => t.key)).toEqual(["toy/en"]);
  });
});
