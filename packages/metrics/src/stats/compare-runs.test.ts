import { MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { compareRuns, type RunItems } from "./compare-runs.js";
import { formatComparisonTable } from "./format-comparison.js";
import { mcnemar } from "./mcnemar.js";
import { holmBonferroni } from "./p-adjust.js";
import { pairedBootstrap } from "./paired-bootstrap.js";

function items(scores: number[], prefix = "s"): Record<string, number> {
  return Object.fromEntries(scores.map((v, i) => [`${prefix}${String(i).padStart(3, "0")}`, v]));
}

// Binary task where A is clearly better; graded task with a small shift; an unshared-items task.
const binaryA = Array.from({ length: 60 }, (_, i) => (i % 10 < 8 ? 1 : 0));
const binaryB = Array.from({ length: 60 }, (_, i) => (i % 10 < 4 ? 1 : 0));
const gradedA = Array.from({ length: 40 }, (_, i) => 0.5 + 0.4 * Math.sin(i));
const gradedB = gradedA.map((v, i) => v - 0.01 * (i % 3));

const runA: RunItems = {
  tasks: {
    "qa|binary": { items: items(binaryA) },
    "sum|graded": { items: { ...items(gradedA), extraA1: 0.3, extraA2: 0.9 } },
    "only|a": { items: items([1, 0]) },
    "disjoint|x": { items: { a1: 1 } },
  },
};
const runB: RunItems = {
  tasks: {
    "qa|binary": { items: items(binaryB) },
    "sum|graded": { items: { ...items(gradedB), extraB: 0.1 } },
    "only|b": { items: items([1]) },
    "disjoint|x": { items: { b1: 1 } },
  },
};

describe("compareRuns", () => {
  const result = compareRuns(runA, runB, { seed: 11 });

  it("pairs items by id per task and reports unshared items and tasks", () => {
    expect(result.rows.map((r) => r.task)).toEqual(["qa|binary", "sum|graded"]);
    const graded = result.rows[1]!;
    expect(graded).toMatchObject({ n: 40, onlyA: 2, onlyB: 1 });
    expect(result.skipped).toEqual([
      { task: "disjoint|x", reason: "no-shared-items", itemsA: 1, itemsB: 1 },
      { task: "only|a", reason: "only-in-a", itemsA: 2, itemsB: 0 },
      { task: "only|b", reason: "only-in-b", itemsA: 0, itemsB: 1 },
    ]);
  });

  it("uses McNemar for all-binary tasks and the paired bootstrap otherwise", () => {
    const [binary, graded] = result.rows;
    expect(binary!.test).toBe("mcnemar");
    expect(binary!.pValue).toBe(mcnemar(binaryA, binaryB).pValue);
    expect(binary!.diff).toBeCloseTo(0.4, 12);
    expect(graded!.test).toBe("paired-bootstrap");
    expect(graded!.diff).toBeCloseTo(pairedBootstrap(gradedA, gradedB).diff, 12);
    expect(graded!.meanA).toBeCloseTo(gradedA.reduce((s, x) => s + x, 0) / 40, 12);
  });

  it("applies Holm across tasks and flags significance on the adjusted p-value", () => {
    const adjusted = holmBonferroni(result.rows.map((r) => r.pValue));
    result.rows.forEach((r, i) => {
      expect(r.pAdjusted).toBe(adjusted[i]);
      expect(r.significant).toBe(r.pAdjusted < 0.05);
    });
    expect(result.rows[0]!.significant).toBe(true);
    expect(result.correction).toBe("holm");
  });

  it("does not depend on item order and keeps a task's result when other tasks change", () => {
    const reversed: RunItems = {
      tasks: Object.fromEntries(
        Object.entries(runA.tasks).map(([k, t]) => [k, { items: Object.fromEntries(Object.entries(t.items).reverse()) }]),
      ),
    };
    expect(compareRuns(reversed, runB, { seed: 11 }).rows).toEqual(result.rows);
    const alone = compareRuns(
      { tasks: { "sum|graded": runA.tasks["sum|graded"]! } },
      { tasks: { "sum|graded": runB.tasks["sum|graded"]! } },
      { seed: 11, correction: "none" },
    );
    expect(alone.rows[0]!.ci).toEqual(result.rows[1]!.ci);
    expect(alone.rows[0]!.pValue).toBe(result.rows[1]!.pValue);
  });

  it("supports BH, no correction and a forced test", () => {
    const bh = compareRuns(runA, runB, { correction: "benjamini-hochberg" });
    expect(bh.rows.every((r) => r.pAdjusted >= r.pValue)).toBe(true);
    const none = compareRuns(runA, runB, { correction: "none" });
    expect(none.rows.map((r) => r.pAdjusted)).toEqual(none.rows.map((r) => r.pValue));
    const boot = compareRuns(runA, runB, { test: "paired-bootstrap" });
    expect(boot.rows[0]!.test).toBe("paired-bootstrap");
    expect(() => compareRuns(runA, runB, { test: "mcnemar" })).toThrow(/task "sum\|graded".*0\/1/);
  });

  it("rejects malformed runs and options with MetricError naming the place", () => {
    expect(() => compareRuns({ tasks: { t: { items: { x: Number.NaN } } } }, runB)).toThrow(
      /stats:compareRuns.*runA\.tasks\.t\.items\.x/,
    );
    expect(() => compareRuns({} as RunItems, runB)).toThrow(MetricError);
    expect(() => compareRuns(runA, runB, { alpha: 2 })).toThrow(/options\.alpha/);
  });
});

describe("formatComparisonTable", () => {
  it("renders one aligned line per task plus the legend and skipped tasks", () => {
    const result = compareRuns(runA, runB, { seed: 11 });
    const text = formatComparisonTable(result);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^task\s+n\s+only A\s+only B\s+mean A\s+mean B\s+diff\s+CI\s+test\s+p\s+p adj\s+sig$/);
    expect(lines[1]).toMatch(/^-+(\s+-+)+$/);
    const binaryLine = lines.find((l) => l.startsWith("qa|binary"))!;
    expect(binaryLine).toContain("+0.4000");
    expect(binaryLine).toContain("mcnemar");
    expect(binaryLine.trimEnd().endsWith("*")).toBe(true);
    // Columns line up: "n" column values end where the header's "n" ends.
    const nEnd = lines[0]!.indexOf(" n ") + 2;
    expect(binaryLine.slice(0, nEnd).trimEnd().endsWith("60")).toBe(true);
    expect(text).toContain("p adj = holm");
    expect(text).toContain("skipped only|a: only in run A (2 items)");
    expect(text).toContain("skipped disjoint|x: no shared items (A 1, B 1)");
  });

  it("accepts bare rows and an empty comparison", () => {
    const rows = compareRuns(runA, runB).rows;
    expect(formatComparisonTable(rows).split("\n")).toHaveLength(2 + rows.length);
    expect(formatComparisonTable([])).toContain("(no task with shared items)");
  });
});
