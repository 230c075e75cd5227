import { readFileSync } from "node:fs";
import { ConfigError, type MetricInput, MetricError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { ultraevalMetrics } from "./index.js";
import { passAtKEstimate } from "./aggregations.js";
import { numpyMean, numpySum } from "./numpy.js";

const m = (name: string) => ultraevalMetrics[`ultraeval:${name}`]!;
const one = (prediction: unknown, reference: unknown, raw: Record<string, unknown> = {}, metadata?: Record<string, unknown>): MetricInput[] => [
  { sampleId: "s1", prediction, reference, sample: { id: "s1", prompts: [], raw, ...(metadata ? { metadata } : {}) } },
];
const score = async (name: string, ...args: Parameters<typeof one>) => (await m(name).compute(one(...args), {})).scores[name];

// synthetic_mmlu.jsonl row 1 has numeric-looking option keys "3", "4", "5", "22" in that order.
const mmluLine = readFileSync(new URL("./__fixtures__/synthetic_mmlu.jsonl", import.meta.url), "utf8").split("\n")[0]!;

describe("target_scores order", () => {
  it("refuses a JS object whose integer-like keys were reordered", () => {
    const raw = JSON.parse(mmluLine) as Record<string, unknown>;
    expect(Object.keys(raw["target_scores"] as object)).toEqual(["3", "4", "5", "22"]); // same here, but only by luck
    expect(() => m("log_prob").compute(one([2, 1, 3, 4], "", raw), {})).toThrow(/integer-like keys/);
  });
  it("accepts [option, score] pairs, or an explicit order in sample.metadata", async () => {
    const pairs = [["3", 0], ["4", 1], ["5", 0], ["22", 0]];
    expect(await score("log_prob", [2, 1, 3, 4], "", { target_scores: pairs })).toBe(1);
    expect(await score("log_prob", [1, 2, 3, 4], "", { target_scores: pairs })).toBe(0);
    const raw = { target_scores: { "22": 0, "3": 0, "4": 1, "5": 0 } };
    expect(await score("log_prob", [2, 1, 3, 4], "", raw, { targetScoresOrder: ["3", "4", "5", "22"] })).toBe(1);
  });
  it("accepts scores as JSON text from the ppl postprocessors, null meaning NaN", async () => {
    const raw = { target_scores: { A: 0, B: 1, C: 0 } };
    expect(await score("log_prob", "[null, 0.5, 2]", "", raw)).toBe(1);
    expect(await score("log_prob", "[[null, null, null]]", "", raw)).toBe(0);
  });
});

describe("metric semantics beyond the golden file", () => {
  it("in_match with a string reference is Python's substring test", async () => {
    expect(await score("in_match", " Yes ", "yes, indeed")).toBe(1);
    expect(await score("in_match", "no", ["yes"])).toBe(0);
  });
  it("qa_match: a wrong letter scores 0 without looking at the text; a repeated question is skipped", async () => {
    const raw = { question: "Which gas?", target_scores: { Oxygen: 0, "Carbon dioxide": 1 } };
    expect(await score("qa_match", "(A) Carbon dioxide", "(B)", raw)).toBe(0);
    expect(await score("qa_match", "Which gas? Carbon dioxide.", "(B)", raw)).toBe(1);
    expect(await score("qa_match", "B) yes", "B", raw)).toBe(1);
  });
  it("exact_match ignores spaces but not case; f1_score takes the best reference", async () => {
    expect(await score("exact_match", "New York", ["new york"])).toBe(0);
    expect(await score("f1_score", "a b", ["c", "a b"])).toBe(1);
  });
  it("gaokaobench_match weights by score and reads [SEP] outputs", async () => {
    expect(await score("gaokaobench_match", "ABD", "ABC", { score: 2 })).toBe(4 / 6);
    expect(() => m("gaokaobench_match").compute(one("A[SEP]B[SEP]C", ["A"], { score: 1 }), {})).toThrow(/\[SEP\]/);
  });
  it("uses the metric config name as the output key and averages with numpy's pairwise sum", async () => {
    const inputs: MetricInput[] = Array.from({ length: 20 }, (_, i) => ({ sampleId: `s${i}`, prediction: i % 3 === 0 ? "a" : "b", reference: "a" }));
    const r = await m("prefix_match").compute(inputs, { name: "accuracy" });
    expect(Object.keys(r.scores)).toEqual(["accuracy"]);
    expect(r.scores["accuracy"]).toBe(7 / 20);
  });
});

const numpyRef = JSON.parse(readFileSync(new URL("./__fixtures__/numpy_reference.json", import.meta.url), "utf8")) as {
  means: { values: number[]; mean: number; sum: number }[];
  passk: { n: number; c: number; k: number; value: number }[];
};

describe("numpy-compatible arithmetic (values computed by numpy, see README)", () => {
  it("sum and mean follow numpy's pairwise summation bit for bit", () => {
    for (const c of numpyRef.means) {
      expect(numpySum(c.values), `n=${c.values.length}`).toBe(c.sum);
      expect(numpyMean(c.values), `n=${c.values.length}`).toBe(c.mean);
    }
  });
  it("pass@k matches numpy's product form", () => {
    for (const c of numpyRef.passk) expect(passAtKEstimate(c.n, c.c, c.k), JSON.stringify(c)).toBe(c.value);
  });
});

describe("bad input raises MetricError naming metric and sample", () => {
  const cases: [string, unknown, unknown, Record<string, unknown>?][] = [
    ["exact_match", 5, "a"],
    ["exact_match", [], "a"],
    ["exact_match", "a", []],
    ["prefix_match", "a", ["a"]],
    ["f1_score", "a", [1]],
    ["log_prob", [1, Number.NaN], "", { target_scores: { A: 1 } }],
    ["log_prob_mc2", [1, Number.NaN], "", { target_scores: { A: 1, B: 0 } }],
    ["log_prob_mc2", [1, 2], "", { target_scores: { A: 1, B: 1 } }],
    ["log_prob", ["x"], "", { target_scores: { A: 1 } }],
    ["gaokaobench_match", "A", "A", { score: Number.NaN }],
    ["qa_match", "x", "nonsense", { target_scores: { A: 1 } }],
    ["bleu", "x", 3],
  ];
  for (const [name, prediction, reference, raw] of cases) {
    it(`${name}(${JSON.stringify(prediction)}, ${JSON.stringify(reference)})`, () => {
      let caught: unknown;
      try {
        m(name).compute(one(prediction, reference, raw ?? {}), {});
      } catch (error) {
        caught = error;
      }
      expect(MetricError.isInstance(caught)).toBe(true);
      expect((caught as MetricError).message).toMatch(new RegExp(`^metric ultraeval:${name} \\(sample s1\\): `));
    });
  }
  it("bad options raise ConfigError; a non-list of inputs raises MetricError", () => {
    expect(() => m("exact_match").compute([], { colour: "red" })).toThrow(ConfigError);
    expect(() => m("exact_match").compute("x" as never, {})).toThrow(MetricError);
    expect(() => m("pass_k").compute(one([true, "yes"], null), {})).toThrow(/expected true\/false/);
    expect(() => m("mean").compute(one([], null), {})).toThrow(/empty list/);
  });
});
