import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { createSeahelmF1AccMetric } from "./f1-acc.js";

// Ids and gold letters of the 20-row global_mmlu_lite (id) sample shipped with SEA-HELM.
const rows = readFileSync(new URL("./__fixtures__/global-mmlu-lite-id-labels.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { id: number; label: string });

/** What the answer-tag postprocessor would hand over for a few response styles. */
function answerFor(i: number, gold: string): string {
  if (i < 12) return [gold, `**${gold}**`, `${gold}.`, ` ${gold.toLowerCase()} `][i % 4]!;
  const wrong: Record<number, string> = { 12: "C", 13: "A", 14: "D", 15: "B", 16: "A" };
  return wrong[i] ?? "Maaf, saya tidak tahu jawabannya.";
}

describe("seahelm-f1acc on a global_mmlu_lite sample", () => {
  it("matches the hand-computed confusion of 12 right, 5 wrong, 3 unparseable", async () => {
    expect(rows.map((r) => r.label).join("")).toBe("BAABCADDBBACBCCADDCA");
    const inputs = rows.map((r, i) => input(String(r.id), answerFor(i, r.label), r.label));
    const r = await createSeahelmF1AccMetric().compute(inputs, {});
    // Recall: A 4/6, B 4/5, C 2/5, D 2/4.
    const balAcc = (4 / 6 + 4 / 5 + 2 / 5 + 2 / 4) / 4;
    expect(r.scores.accuracy).toBeCloseTo(100 * balAcc, 10);
    expect(r.scores.normalized_accuracy).toBeCloseTo((100 * (balAcc - 0.25)) / 0.75, 10);
    // F1 = 2tp/(2tp+fp+fn): A 8/12, B 8/10, C 4/8, D 4/7; "null" 0.
    const goldF1 = (8 / 12 + 8 / 10 + 4 / 8 + 4 / 7) / 4;
    expect(r.scores.macro_f1).toBeCloseTo((100 * (goldF1 * 4)) / 5, 10);
    expect(r.scores.null_weighted_f1).toBeCloseTo(100 * goldF1 * (1 - 3 / 20), 10);
    expect(r.scores.null_count).toBe(3);
    expect(r.perSample.filter((s) => s.scores.correct === 1)).toHaveLength(12);
  });
});
