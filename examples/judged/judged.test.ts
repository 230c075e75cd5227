import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without type declarations
import { runExample } from "./run.mjs";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe("examples/judged", () => {
  it("judges a pairwise, a criteria and a rubric task online and through the batch API, with equal scores", async () => {
    const out = mkdtempSync(join(tmpdir(), "yardstick-judged-example-"));
    dirs.push(out);
    let printed = "";
    const { steps, comparison } = await runExample({ argv: ["--out", out], write: (s: string) => (printed += s) });

    // The dry runs sent nothing (only GET /v1/models reaches the server) and printed a cost.
    expect(steps["dry-run"]).toEqual({ chat: 0, batches: 0, batchRequests: 0 });
    expect(steps["dry-run --batch"]).toEqual({ chat: 0, batches: 0, batchRequests: 0 });
    expect(printed).toMatch(/total cost: \$0\.\d+/);
    expect(printed).toContain("(batch -50%)");

    // Online: every request on /v1/chat/completions. Batch: none online, every request in a batch
    // (one per task and turn for the answers, one per task for the judge calls: 4 + 3).
    // 18 answers (4 kalahi rows, 5 MT-Bench rows × 2 turns, 4 rubric rows) and 34 judge calls
    // (10 criteria, 5 × 2 turns × 2 orders, 4 rubric choices).
    expect(steps.online).toEqual({ chat: 52, batches: 0, batchRequests: 0 });
    expect(steps.batch).toEqual({ chat: 0, batches: 7, batchRequests: 52 });

    // Both runs finish with no judge error, and their judged scores and judgements are equal.
    expect(comparison.agree).toBe(true);
    expect(comparison.tasks.map((t: { task: string }) => t.task).sort()).toEqual(["helpfulness/en", "kalahi-judge/tl", "mt-bench/en"]);
    for (const t of comparison.tasks) {
      expect(t.judgeErrors).toEqual([0, 0]);
      expect(t.batch).toBe(t.online);
      expect(typeof t.online).toBe("number");
      expect(t.sameJudgements).toBe(true);
    }
    const results = (run: string) => JSON.parse(readFileSync(join(out, run, "results.json"), "utf8"));
    for (const run of ["online", "batch"]) {
      const r = results(run);
      expect(r.en["multi-turn"]["mt-bench"]).toMatchObject({ judge_errors: 0, errors: 0, n: 5 });
      expect(r.tl.cultural["kalahi-judge"]).toMatchObject({ judge_errors: 0, errors: 0, n: 4 });
      expect(r.en.rubric.helpfulness).toMatchObject({ judge_errors: 0, errors: 0, judged: 4 });
      expect(r.meta.tasks["mt-bench/en"]).toMatchObject({ samples: 5, errors: 0, unanswered: 0 });
    }
    expect(results("batch").en["multi-turn"]["mt-bench"].weighted_win_rate).toBe(results("online").en["multi-turn"]["mt-bench"].weighted_win_rate);

    // The batch run's records went through batches: each finished record has a pending one with its batch id.
    const batchRecords = lines(join(out, "batch", "responses.jsonl"));
    const pending = batchRecords.filter((r) => r.status === "pending");
    expect(pending).toHaveLength(52);
    expect(pending.every((r) => typeof r.batch?.id === "string")).toBe(true);
    expect(batchRecords.filter((r) => r.stage === "judge" && r.status === "ok")).toHaveLength(34);
    expect(lines(join(out, "online", "responses.jsonl")).some((r) => r.status === "pending")).toBe(false);

    // The pairwise judge used the reference prompts for the math and reasoning rows.
    const judged = batchRecords.filter((r) => r.stage === "judge" && r.status === "ok" && r.task === "mt-bench/en");
    const system = (sample: string) => judged.find((r) => r.sample === sample && r.call === "turn1-AB").request.messages[0].content as string;
    expect(system("m1")).toContain("against a reference answer");
    expect(system("w1")).not.toContain("reference");

    // The rubric judge answered through its forced tool call in the batch too, with one of the rubric's labels.
    const rubric = batchRecords.filter((r) => r.stage === "judge" && r.status === "ok" && r.task === "helpfulness/en");
    expect(rubric).toHaveLength(4);
    for (const r of rubric) {
      expect(r.judgement.data).toMatchObject({ rubric: "helpfulness", via: "tool" });
      expect(["helpful", "partly", "unhelpful"]).toContain(r.judgement.label);
    }

    expect(existsSync(join(out, "report.html"))).toBe(true);
    expect(printed).toContain("The two runs agree");
  });
});
