import { MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { loadFixture } from "./__fixtures__/load-fixture.js";
import { type AgreementItem, agreementReport } from "./agreement.js";
import { cohensKappa } from "./cohens-kappa.js";
import { fleissKappa } from "./fleiss-kappa.js";
import { type KrippendorffLevel, krippendorffAlpha, type ReliabilityRow } from "./krippendorff-alpha.js";

interface AlphaFixture {
  data: ReliabilityRow[];
  publishedDecimals: number;
  published: Partial<Record<KrippendorffLevel, number>>;
}

/** Published values are rounded; our value must round to the same digits. */
function expectRoundsTo(value: number, published: number, decimals: number): void {
  expect(Number(value.toFixed(decimals))).toBe(published);
}

describe("krippendorffAlpha", () => {
  for (const name of ["krippendorff-2011.json", "krippendorff-wikipedia.json"]) {
    const fixture = loadFixture<AlphaFixture>(name);
    for (const [level, value] of Object.entries(fixture.published)) {
      it(`${name}: ${level} alpha = ${value}`, () => {
        const alpha = krippendorffAlpha(fixture.data, { level: level as KrippendorffLevel });
        expectRoundsTo(alpha, value, fixture.publishedDecimals);
      });
    }
  }

  it("ordinal alpha on string labels with an explicit order equals the numeric version", () => {
    const fixture = loadFixture<AlphaFixture>("krippendorff-2011.json");
    const names = ["very low", "low", "mid", "high", "very high"];
    const asText = fixture.data.map((row) => row.map((v) => (v === null ? null : names[(v as number) - 1]!)));
    expect(krippendorffAlpha(asText, { level: "ordinal", order: names })).toBeCloseTo(
      krippendorffAlpha(fixture.data, { level: "ordinal" }),
      14,
    );
    // Nominal alpha does not depend on the label spelling.
    expect(krippendorffAlpha(asText)).toBeCloseTo(krippendorffAlpha(fixture.data), 14);
  });

  it("is 1 for perfect agreement, NaN without variation, and treats undefined as missing", () => {
    const perfect = [
      [1, 2, 3, 4],
      [1, 2, 3, 4],
    ];
    expect(krippendorffAlpha(perfect, { level: "interval" })).toBe(1);
    expect(krippendorffAlpha([[0, 1, 2], [0, 1, 2]], { level: "ratio" })).toBe(1);
    expect(krippendorffAlpha([[2, 2], [2, 2]])).toBeNaN();
    expect(krippendorffAlpha([[1, 2, undefined], [1, 2, 3]])).toBe(1);
  });

  it("rejects unusable reliability data with MetricError", () => {
    expect(() => krippendorffAlpha([])).toThrow(MetricError);
    expect(() => krippendorffAlpha([[1, null], [null, 2]])).toThrow(/at least two coders/);
    expect(() => krippendorffAlpha([[1, 2], [1]])).toThrow(/data\[1\] has 1 units/);
    expect(() => krippendorffAlpha([[1, Number.NaN], [1, 2]])).toThrow(/data\[0\]\[1\]/);
    expect(() => krippendorffAlpha([["a", "b"], ["a", "b"]], { level: "interval" })).toThrow(/expected a number/);
    expect(() => krippendorffAlpha([["a", "b"], ["a", "b"]], { level: "ordinal" })).toThrow(/order/);
    expect(() => krippendorffAlpha([[-1, 2], [1, 2]], { level: "ratio" })).toThrow(/non-negative/);
    expect(() => krippendorffAlpha([[1, 2], [1, 2]], { level: "cardinal" as never })).toThrow(/options\.level/);
  });
});

describe("fleissKappa", () => {
  it("matches the published worked example", () => {
    const f = loadFixture<{ matrix: number[][]; publishedDecimals: number; published: { kappa: number } }>(
      "fleiss-wikipedia.json",
    );
    expectRoundsTo(fleissKappa(f.matrix), f.published.kappa, f.publishedDecimals);
  });

  it("equals Scott's pi for two raters and 1 for unanimous items", () => {
    expect(fleissKappa([[2, 0], [0, 2], [2, 0]])).toBe(1);
    // Two raters, 4 items: agree on 2 of 4; pooled proportions ½, ½ → π = (0.5 − 0.5)/(1 − 0.5) = 0.
    expect(fleissKappa([[2, 0], [0, 2], [1, 1], [1, 1]])).toBeCloseTo(0, 15);
    expect(fleissKappa([[3, 0], [3, 0]])).toBeNaN();
  });

  it("rejects malformed count matrices", () => {
    expect(() => fleissKappa([])).toThrow(MetricError);
    expect(() => fleissKappa([[1, 1], [2]])).toThrow(/matrix\[1\] has 1 columns/);
    expect(() => fleissKappa([[1, 1], [2, 1]])).toThrow(/same number of raters/);
    expect(() => fleissKappa([[1, 0]])).toThrow(/at least 2 raters/);
    expect(() => fleissKappa([[1.5, 0.5]])).toThrow(/non-negative integer/);
  });
});

describe("cohensKappa", () => {
  function expand(table: Record<string, number>): [string[], string[]] {
    const a: string[] = [];
    const b: string[] = [];
    for (const [key, count] of Object.entries(table)) {
      const [x, y] = key.split("|") as [string, string];
      for (let i = 0; i < count; i++) {
        a.push(x);
        b.push(y);
      }
    }
    return [a, b];
  }

  it("matches the published 50-proposal example", () => {
    const f = loadFixture<{ table: Record<string, number>; publishedDecimals: number; published: { kappa: number } }>(
      "cohen-wikipedia.json",
    );
    const [a, b] = expand(f.table);
    expectRoundsTo(cohensKappa(a, b), f.published.kappa, f.publishedDecimals);
    expect(cohensKappa(a, b)).toBeCloseTo(0.4, 14);
  });

  it("matches the values scikit-learn's tests pin, nominal and weighted", () => {
    type Runs = [number, number][];
    const f = loadFixture<{ cases: { a: Runs; b: Runs; decimals: number; published: Record<string, number> }[] }>("sklearn-cohen-kappa.json");
    const expandRuns = (runs: Runs) => runs.flatMap(([label, count]) => Array.from({ length: count }, () => label));
    for (const c of f.cases) {
      for (const [weights, value] of Object.entries(c.published)) {
        expectRoundsTo(cohensKappa(expandRuns(c.a), expandRuns(c.b), { weights: weights as "none" | "linear" | "quadratic" }), value, c.decimals);
      }
    }
  });

  it("weighted kappa reduces to plain kappa for two categories", () => {
    const a = [0, 0, 1, 1, 1, 0, 1, 0, 1, 1];
    const b = [0, 1, 1, 1, 0, 0, 1, 0, 0, 1];
    const plain = cohensKappa(a, b);
    expect(cohensKappa(a, b, { weights: "linear" })).toBeCloseTo(plain, 14);
    expect(cohensKappa(a, b, { weights: "quadratic" })).toBeCloseTo(plain, 14);
  });

  it("quadratic weighted kappa equals the moment form 2·cov / (var_a + var_b + (mean_a − mean_b)²)", () => {
    // Integer ratings 1..5 with every value present, so category ranks are equally spaced.
    const a = [1, 2, 3, 4, 5, 3, 2, 4, 5, 1, 3, 4, 2, 5, 4];
    const b = [1, 3, 3, 4, 4, 2, 2, 5, 5, 2, 3, 3, 1, 4, 5];
    const n = a.length;
    const ma = a.reduce((s, x) => s + x, 0) / n;
    const mb = b.reduce((s, x) => s + x, 0) / n;
    let cov = 0;
    let va = 0;
    let vb = 0;
    for (let i = 0; i < n; i++) {
      cov += (a[i]! - ma) * (b[i]! - mb);
      va += (a[i]! - ma) ** 2;
      vb += (b[i]! - mb) ** 2;
    }
    const moment = (2 * cov) / n / (va / n + vb / n + (ma - mb) ** 2);
    expect(cohensKappa(a, b, { weights: "quadratic" })).toBeCloseTo(moment, 12);
  });

  it("linear weights on a 3-category table worked by hand", () => {
    // 6 items. Observed (rows a, cols b): [[2,1,0],[0,1,1],[0,0,1]]; margins a (3,2,1), b (2,2,2).
    // Weighted observed disagreement Σw·O = 1 + 1 = 2; expected Σw·E = Σ |i−j|·rowᵢ·colⱼ / 6
    // = (3·(1·2 + 2·2) + 2·(1·2 + 1·2) + 1·(2·2 + 1·2)) / 6 = 32/6, so κ = 1 − 2·6/32 = 0.625.
    const a = ["lo", "lo", "lo", "mid", "mid", "hi"];
    const b = ["lo", "lo", "mid", "mid", "hi", "hi"];
    const order = ["lo", "mid", "hi"];
    expect(cohensKappa(a, b, { weights: "linear", order })).toBeCloseTo(0.625, 14);
  });

  it("returns NaN when chance agreement is total, and validates input", () => {
    expect(cohensKappa(["x", "x"], ["x", "x"])).toBeNaN();
    expect(cohensKappa(["x", "y"], ["x", "y"])).toBe(1);
    expect(() => cohensKappa([], [])).toThrow(MetricError);
    expect(() => cohensKappa(["x"], ["x", "y"])).toThrow(/a has 1 labels but b has 2/);
    expect(() => cohensKappa(["x", null as never], ["x", "y"])).toThrow(/a\[1\]/);
    expect(() => cohensKappa(["lo", "hi"], ["lo", "hi"], { weights: "linear" })).toThrow(/order/);
    expect(() => cohensKappa(["lo", "odd"], ["lo", "lo"], { order: ["lo", "hi"] })).toThrow(/not in the given order/);
  });
});

describe("agreementReport", () => {
  it("reproduces Krippendorff's 2011 worked example (nominal 0.743, interval 0.849) with observer D as the judge", () => {
    // Source: Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", 4 observers × 12 units
    // with missing values (__fixtures__/krippendorff-2011.json). Observer D rated units 1–11; unit 12
    // (observer B only) has no judge rating and was never pairable, so leaving it out changes nothing.
    const f = loadFixture<AlphaFixture>("krippendorff-2011.json");
    const [a, b, c, d] = f.data as [ReliabilityRow, ReliabilityRow, ReliabilityRow, ReliabilityRow];
    const items: AgreementItem[] = [];
    d.forEach((value, u) => {
      if (value === null || value === undefined) return;
      const humans = (
        [
          ["A", a[u]],
          ["B", b[u]],
          ["C", c[u]],
        ] as const
      )
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([rater, v]) => ({ rater, rating: { score: v as number } }));
      items.push({ id: `unit-${u + 1}`, judge: { score: value as number }, humans });
    });
    const report = agreementReport(items);
    expect(report.items).toBe(11);
    expect(report.raters).toBe(3);
    expectRoundsTo(report.alpha.nominal, 0.743, 3);
    expectRoundsTo(report.alpha.interval!, 0.849, 3);
    // Pairs: D against every other observer's value on units 1–11 (2 + 8·3 + 2 + 1 = 29 values);
    // D (4) disagrees with A, B and C on unit 6, and with C on units 2 and 8 → 24 of 29 agree.
    expect(report.pairs).toBe(29);
    expect(report.percentAgreement).toBeCloseTo(24 / 29, 14);
    expect(report.disagreements[0]).toMatchObject({ id: "unit-6", rater: "A", distance: 3 });
  });

  it("reproduces the published 50-proposal Cohen's kappa (0.4) with one human per item", () => {
    // Source: Wikipedia "Cohen's kappa", first example (__fixtures__/cohen-wikipedia.json): p_o = 0.7, p_e = 0.5.
    const f = loadFixture<{ table: Record<string, number> }>("cohen-wikipedia.json");
    const items: AgreementItem[] = [];
    for (const [key, count] of Object.entries(f.table)) {
      const [judge, human] = key.split("|") as [string, string];
      for (let i = 0; i < count; i++) items.push({ id: `p${items.length}`, judge: { label: judge }, humans: [{ rater: "B", rating: { label: human } }] });
    }
    const report = agreementReport(items, { top: 3 });
    expect(report.cohensKappa).toBeCloseTo(0.4, 14);
    expect(report.percentAgreement).toBeCloseTo(0.7, 14);
    expect(report.confusion.categories).toEqual(["no", "yes"]);
    expect(report.confusion.counts).toEqual([
      [15, 10],
      [5, 20],
    ]);
    expect(report.weightedKappa).toBeUndefined();
    expect(report.alpha.interval).toBeUndefined();
    expect(report.disagreements).toHaveLength(3);
    expect(report.disagreements.every((p) => p.distance === 1)).toBe(true);
  });

  it("orders rubric categories by score and weights kappa by score ranks (worked by hand)", () => {
    // Judge vs one labeler on 5 items, rubric bad=0, ok=1, good=2.
    // Pairs (judge, human): (good,good) (ok,good) (bad,bad) (good,bad) (ok,ok): p_o = 3/5.
    // Marginals judge (bad 1, ok 2, good 2), human (bad 2, ok 1, good 2); p_e = (2 + 2 + 4)/25 = 8/25,
    // κ = (15/25 − 8/25)/(17/25) = 7/17. Quadratic: Σw·O = 1 + 4 = 5; Σw·E = Σ (i−j)²·rᵢ·cⱼ / 5 =
    // (1·(1·1 + 4·2) + 2·(1·2 + 1·2) + 2·(4·2 + 1·1)) / 5 = (9 + 8 + 18)/5 = 7, so κ_w = 1 − 5/7 = 2/7.
    const r = (label: string) => ({ label, score: { bad: 0, ok: 1, good: 2 }[label]! });
    const pairs: [string, string][] = [
      ["good", "good"],
      ["ok", "good"],
      ["bad", "bad"],
      ["good", "bad"],
      ["ok", "ok"],
    ];
    const report = agreementReport(pairs.map(([j, h], i) => ({ id: `s${i}`, judge: r(j), humans: [{ rater: "ann", rating: r(h) }] })));
    expect(report.cohensKappa).toBeCloseTo(7 / 17, 14);
    expect(report.weightedKappa).toBeCloseTo(2 / 7, 14);
    expect(report.confusion.categories).toEqual(["bad", "ok", "good"]);
    expect(report.disagreements.map((p) => [p.id, p.distance])).toEqual([
      ["s3", 2],
      ["s1", 1],
    ]);
  });

  it("compares scores when one side has only scores, and labels or scores when neither is common to all", () => {
    const report = agreementReport([
      { id: "a", judge: { label: "good", score: 1 }, humans: [{ rater: "h", rating: { score: 1 } }] },
      { id: "b", judge: { label: "bad", score: 0 }, humans: [{ rater: "h", rating: { score: 1 } }] },
      { id: "c", judge: { label: "bad", score: 0 }, humans: [{ rater: "h", rating: { score: 0 } }] },
    ]);
    expect(report.basis).toBe("score");
    expect(report.percentAgreement).toBeCloseTo(2 / 3, 14);
    expect(report.confusion).toEqual({ categories: [0, 1], counts: [[1, 1], [0, 1]] });
    const mixed = agreementReport([
      { id: "a", judge: { label: "x" }, humans: [{ rater: "h", rating: { score: 1 } }] },
      { id: "b", judge: { label: "y" }, humans: [{ rater: "h", rating: { label: "y" } }] },
    ]);
    expect(mixed.basis).toBe("label-or-score");
    expect(mixed.percentAgreement).toBe(0.5);
  });

  it("skips items nobody labelled and rejects ratings without a value", () => {
    const report = agreementReport([
      { id: "x", judge: { label: "y" }, humans: [] },
      { id: "a", judge: { label: "y" }, humans: [{ rater: "h", rating: { label: "y" } }] },
      { id: "b", judge: { label: "n" }, humans: [{ rater: "h", rating: { label: "n" } }] },
    ]);
    expect(report.items).toBe(2);
    expect(report.cohensKappa).toBe(1);
    expect(() => agreementReport([{ id: "a", judge: {}, humans: [{ rater: "h", rating: { label: "y" } }] }])).toThrow(/neither a label nor a score/);
    expect(() => agreementReport([{ id: "a", judge: { label: "y" }, humans: [] }])).toThrow(/no item has both/);
  });
});
