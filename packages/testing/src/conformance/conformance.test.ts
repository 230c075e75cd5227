import { MetricError, type MetricInput, type MetricResult, type MetricV1, perSampleView } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { checkMetricConformance, formatConformanceReport } from "./check-metric-conformance.js";
import { seededShuffle } from "./shuffle.js";
import { testMetric } from "./test-metric.js";
import type { MetricConformanceCase } from "./types.js";

const inputs: MetricInput[] = [
  { sampleId: "a", prediction: "one two", reference: "x" },
  { sampleId: "b", prediction: "one", reference: "x" },
  { sampleId: "c", prediction: "one two three four", reference: "x" },
];
const cases: MetricConformanceCase[] = [{ name: "three rows", inputs, expectedRange: { mean_words: [0, 10] } }];

/** A well-behaved metric: mean word count, MetricError on non-string predictions and empty input. */
function createWordCount(): MetricV1 & { orderIndependent: true } {
  return {
    specVersion: "v1",
    id: "word-count",
    orderIndependent: true,
    compute(rows) {
      if (rows.length === 0) throw new MetricError("no samples to score", { metricId: "word-count" });
      const perSample = rows.map((row) => {
        if (typeof row.prediction !== "string") throw new MetricError("prediction is not a string", { metricId: "word-count", sampleId: row.sampleId });
        return { sampleId: row.sampleId, scores: { words: row.prediction.split(/\s+/).filter(Boolean).length } };
      });
      const mean = perSample.reduce((s, p) => s + (p.scores.words ?? 0), 0) / perSample.length;
      return { scores: { mean_words: mean }, perSample };
    },
  };
}

/** The good metric with `compute` replaced, to build one defect at a time. */
function broken(compute: MetricV1["compute"], extra: Record<string, unknown> = {}): MetricV1 {
  return { ...createWordCount(), ...extra, compute };
}

async function failedChecks(metric: MetricV1, c = cases, opts = {}): Promise<string[]> {
  const report = await checkMetricConformance(metric, c, opts);
  return [...new Set(report.failures.map((f) => f.check))];
}

testMetric(createWordCount(), cases, { invalidOptions: [] });

describe("checkMetricConformance", () => {
  it("passes a conforming metric and lists the checks it ran", async () => {
    const report = await checkMetricConformance(createWordCount(), cases);
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.checks).toContain("gives the same scores for shuffled input (three rows)");
    expect(formatConformanceReport(report)).toMatch(/all \d+ conformance checks passed/);
  });

  it("reports a broken contract and stops there", async () => {
    const metric = { ...createWordCount(), specVersion: "v2", id: "" } as unknown as MetricV1;
    const report = await checkMetricConformance(metric, cases);
    expect(report.checks).toEqual(["satisfies the MetricV1 contract"]);
    expect(report.failures.map((f) => f.message).join("\n")).toMatch(/specVersion.*"v2"[\s\S]*id is ""/);
  });

  it("catches non-determinism", async () => {
    let calls = 0;
    const metric = broken((rows) => ({ scores: { mean_words: calls++ }, perSample: rows.map((r) => ({ sampleId: r.sampleId, scores: {} })) }));
    expect(await failedChecks(metric)).toContain("is deterministic (three rows)");
  });

  it("catches order dependence when the metric declares order independence", async () => {
    const firstOnly = (rows: readonly MetricInput[]): MetricResult => ({
      scores: { mean_words: String(rows[0]?.prediction ?? "").length },
      perSample: rows.map((r) => ({ sampleId: r.sampleId, scores: {} })),
    });
    expect(await failedChecks(broken(firstOnly))).toContain("gives the same scores for shuffled input (three rows)");
    // Without the declaration the order check does not run.
    const undeclared = broken(firstOnly, { orderIndependent: false });
    expect(await failedChecks(undeclared)).not.toContain("gives the same scores for shuffled input (three rows)");
  });

  it("rejects NaN scores, out-of-range scores and a bare TypeError on empty input", async () => {
    const metric = broken((rows) => {
      if (rows.length === 0) throw new TypeError("reduce of empty array");
      return { scores: { mean_words: 50, other: Number.NaN }, perSample: rows.map((r) => ({ sampleId: r.sampleId, scores: { x: 1 } })) };
    });
    const report = await checkMetricConformance(metric, cases);
    const messages = report.failures.map((f) => `${f.check}: ${f.message}`).join("\n");
    expect(messages).toMatch(/task score "other" is NaN/);
    expect(messages).toMatch(/"mean_words" = 50 is outside \[0, 10\]/);
    expect(messages).toMatch(/handles empty input: threw TypeError/);
  });

  it("accepts a documented finite score for empty input", async () => {
    const metric = broken((rows) =>
      rows.length === 0 ? { scores: { mean_words: 0 }, perSample: [] } : createWordCount().compute(rows, {}),
    );
    expect(await failedChecks(metric)).toEqual([]);
  });

  it("requires MetricError (naming the metric) for malformed predictions", async () => {
    const crashes = broken((rows) => createWordCount().compute(rows.map((r) => ({ ...r, prediction: (r.prediction as string).trim() })), {}));
    expect(await failedChecks(crashes)).toContain("rejects or survives malformed predictions (three rows)");
    const wrongId = broken(() => {
      throw new MetricError("bad", { metricId: "someone-else" });
    });
    const report = await checkMetricConformance(wrongId, cases);
    expect(report.failures.some((f) => /names metric "someone-else"/.test(f.message))).toBe(true);
  });

  it("checks per-sample ids against the inputs", async () => {
    const wrongIds = broken((rows) => ({
      scores: { mean_words: 1 },
      perSample: [...rows.slice(1).map((r) => ({ sampleId: r.sampleId, scores: {} })), { sampleId: "zzz", scores: {} }, { sampleId: "b", scores: {} }],
    }));
    const messages = (await checkMetricConformance(wrongIds, cases)).failures.map((f) => f.message).join("\n");
    expect(messages).toMatch(/"zzz", which is not an input id/);
    expect(messages).toMatch(/"b" more than once/);
    expect(messages).toMatch(/lacks 1 input id\(s\): a/);
    // A metric that skips rows on purpose may opt out of completeness, not of membership.
    const skipsOne = broken((rows) => ({ scores: { mean_words: 1 }, perSample: rows.filter((r) => r.sampleId !== "a").map((r) => ({ sampleId: r.sampleId, scores: {} })) }));
    expect(await failedChecks(skipsOne, cases, { requireEveryPerSample: false })).toEqual([]);
  });

  it("detects a metric that mutates its inputs", async () => {
    const mutates = broken((rows) => {
      for (const row of rows) (row as { prediction: unknown }).prediction = String(row.prediction).toUpperCase();
      return createWordCount().compute(rows, {});
    });
    const messages = (await checkMetricConformance(mutates, cases)).failures.map((f) => f.message);
    expect(messages).toContain("compute mutated its inputs");
  });

  it("checks that invalid options are rejected with a YardstickError", async () => {
    const report = await checkMetricConformance(createWordCount(), cases, { invalidOptions: [{ nope: 1 }] });
    expect(report.failures.map((f) => f.check)).toEqual(["rejects invalid options #1"]);
  });
});

describe("checkMetricConformance of resampleByCounts", () => {
  // Mean word count as a function of how many rows have each word count (categories 0..9).
  const byWords = (rows: readonly MetricInput[]) => Uint32Array.from(rows, (r) => Math.min(9, String(r.prediction).split(/\s+/).filter(Boolean).length));
  const meanOf = (counts: Uint32Array) => {
    let n = 0;
    let sum = 0;
    counts.forEach((c, words) => {
      n += c;
      sum += c * words;
    });
    return sum / n;
  };

  it("passes counts that score as compute does", async () => {
    const metric = { ...createWordCount(), resampleByCounts: (rows: readonly MetricInput[]) => ({ categories: byWords(rows), categoryCount: 10, scoreOf: meanOf }) };
    const report = await checkMetricConformance(metric, cases);
    expect(report.checks).toContain("resampleByCounts agrees with compute (three rows)");
    expect(report.failures).toEqual([]);
  });

  it("fails counts that score otherwise, categories out of range, and a resampleByCounts that is not a function", async () => {
    const off = { ...createWordCount(), resampleByCounts: (rows: readonly MetricInput[]) => ({ categories: byWords(rows), categoryCount: 10, scoreOf: (c: Uint32Array) => meanOf(c) + 1 }) };
    expect((await checkMetricConformance(off, cases)).failures.map((f) => f.message)).toEqual([
      'resampleByCounts(…, "mean_words"): the inputs\' own counts score 3.3333333333333335, but compute gives 2.3333333333333335',
    ]);
    const outOfRange = { ...createWordCount(), resampleByCounts: (rows: readonly MetricInput[]) => ({ categories: byWords(rows), categoryCount: 3, scoreOf: meanOf }) };
    expect((await checkMetricConformance(outOfRange, cases)).failures.map((f) => f.message)).toEqual([
      'resampleByCounts(…, "mean_words"): category 4 is not below categoryCount 3',
    ]);
    expect(await failedChecks({ ...createWordCount(), resampleByCounts: 3 } as unknown as MetricV1)).toEqual(["satisfies the MetricV1 contract"]);
  });
});

describe("seededShuffle", () => {
  it("is repeatable for a seed and never the identity", () => {
    const items = [1, 2, 3, 4, 5, 6];
    expect(seededShuffle(items, 7)).toEqual(seededShuffle(items, 7));
    expect(seededShuffle(items, 7)).not.toEqual(items);
    expect([...seededShuffle(items, 7)].sort()).toEqual(items);
    expect(seededShuffle([1, 2], 3)).toEqual([2, 1]);
  });
});

/** The word-count metric returning its per-sample scores as columns, `perSample` a view of them. */
function createColumnWordCount(): MetricV1 {
  return broken((rows) => {
    const result = createWordCount().compute(rows, {}) as MetricResult;
    const words = Float64Array.from(result.perSample, (s) => s.scores.words ?? 0);
    const perSampleColumns = { scores: { words } };
    return { scores: result.scores, perSample: perSampleView(rows, perSampleColumns), perSampleColumns };
  });
}

testMetric(createColumnWordCount(), cases, { invalidOptions: [] });

describe("checkMetricConformance with per-sample columns", () => {
  it("passes a metric returning columns and checks them as it checks perSample", async () => {
    expect(await failedChecks(createColumnWordCount())).toEqual([]);
    const nanColumn = broken((rows) => {
      const words = new Float64Array(rows.length).fill(Number.NaN);
      const perSampleColumns = { scores: { words } };
      return { scores: { mean_words: 1 }, perSample: perSampleView(rows, perSampleColumns), perSampleColumns };
    });
    const messages = (await checkMetricConformance(nanColumn, cases)).failures.map((f) => f.message).join("\n");
    expect(messages).toMatch(/perSampleColumns "words"\[0\] is NaN/);
  });

  it("rejects columns of the wrong length or type, and a perSample that disagrees with them", async () => {
    const short = broken((rows) => ({ scores: { mean_words: 1 }, perSample: [], perSampleColumns: { scores: { words: new Float64Array(rows.length - 1) } } }));
    expect((await checkMetricConformance(short, cases)).failures.map((f) => f.message).join("\n")).toMatch(
      /"words" has 2 values, expected one per input \(3\)/,
    );
    const plain = broken((rows) => ({
      scores: { mean_words: 1 },
      perSample: [],
      perSampleColumns: { scores: { words: rows.map(() => 1) as unknown as Float64Array } },
    }));
    expect((await checkMetricConformance(plain, cases)).failures.map((f) => f.message).join("\n")).toMatch(/"words" is not a Float64Array/);
    const disagrees = broken((rows) => ({
      scores: { mean_words: 1 },
      perSample: rows.map((r) => ({ sampleId: r.sampleId, scores: { words: 2 } })),
      perSampleColumns: { scores: { words: new Float64Array(rows.length).fill(1) } },
    }));
    expect((await checkMetricConformance(disagrees, cases)).failures.map((f) => f.message).join("\n")).toMatch(
      /perSample\[0\] is .*"words":2.*but perSampleColumns give .*"words":1/,
    );
  });

  it("compares shuffled runs by the columns", async () => {
    // Columns in a fixed order whatever the input order: the per-sample scores move between ids.
    const fixedOrder = broken((rows) => {
      const words = Float64Array.from(rows, (_, i) => i);
      const perSampleColumns = { scores: { words } };
      return { scores: { mean_words: 1 }, perSample: perSampleView(rows, perSampleColumns), perSampleColumns };
    });
    expect(await failedChecks(fixedOrder)).toContain("gives the same scores for shuffled input (three rows)");
  });
});
