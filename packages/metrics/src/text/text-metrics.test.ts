import { MetricError, type MetricInput } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { loadOracleFixture } from "./__fixtures__/oracle-fixture.js";
import { textMetrics } from "./index.js";
import { squadNormalize, squadTokenF1 } from "./squad-normalize.js";

const m = (id: string) => textMetrics[id]!;
const inputs = (pairs: [unknown, unknown][]): MetricInput[] => pairs.map(([prediction, reference], i) => ({ sampleId: `s${i}`, prediction, reference }));

describe("textMetrics registry", () => {
  it("registers the text-pair metrics under their ids", () => {
    expect(Object.keys(textMetrics).sort()).toEqual(["accuracy", "bleu", "chrf", "chrf++", "exact-match", "rouge", "token-f1"]);
    for (const [id, metric] of Object.entries(textMetrics)) {
      expect(metric.id).toBe(id);
      expect(metric.specVersion).toBe("v1");
      expect(metric.textPairs).toBe(true);
      expect(metric.description).toBeTruthy();
    }
  });
});

describe("bleu / chrf / chrf++ / rouge metrics on the oracle fixture", () => {
  const fx = loadOracleFixture();
  const data = inputs(fx.pairs.map((p) => [p.hyp, p.refs.length === 1 ? p.refs[0] : p.refs]));

  it("bleu: corpus score and parts from sacrebleu, per-sample sentence BLEU", async () => {
    const r = await m("bleu").compute(data, { tokenize: "zh" });
    const want = fx.corpus.bleu_zh as { score: number; bp: number; sys_len: number; ref_len: number; precisions: number[] };
    expect(Math.abs(r.scores.bleu! - want.score)).toBeLessThan(1e-9);
    expect([r.scores.sys_len, r.scores.ref_len]).toEqual([want.sys_len, want.ref_len]);
    expect(Math.abs(r.scores.precision_1! - want.precisions[0]!)).toBeLessThan(1e-9);
    r.perSample.forEach((s, i) => {
      expect(Math.abs(s.scores.bleu! - (fx.pairs[i]!.expected.bleu_zh as number))).toBeLessThan(1e-9);
    });
    const summary = r.details!.summary as { name: string; signature: string };
    expect(summary.name).toBe("BLEU");
    expect(summary.signature).toBe("nrefs:var|case:mixed|eff:no|tok:zh|smooth:exp|version:yardstick-sacrebleu2");
  });

  it.each(["chrf", "chrf++"])("%s: corpus and per-sample scores from sacrebleu", async (id) => {
    const r = await m(id).compute(data, {});
    expect(Math.abs(r.scores[id]! - (fx.corpus[id] as number))).toBeLessThan(1e-9);
    r.perSample.forEach((s, i) => {
      expect(Math.abs(s.scores[id]! - (fx.pairs[i]!.expected[id] as number))).toBeLessThan(1e-9);
    });
    expect((r.details!.summary as { name: string }).name).toBe(id === "chrf" ? "chrF2" : "chrF2++");
  });

  it("rouge: per-sample P/R/F from the oracle, task score = mean F", async () => {
    const r = await m("rouge").compute(data, { use_stemmer: true });
    let sum = 0;
    r.perSample.forEach((s, i) => {
      const want = fx.pairs[i]!.expected.rougeL_stem as number[];
      expect([s.scores.rougeL_precision, s.scores.rougeL_recall, s.scores.rougeL_fmeasure]).toEqual(want);
      sum += want[2]!;
    });
    expect(r.scores.rougeL).toBeCloseTo(sum / fx.pairs.length, 12);
    expect(Object.keys(r.scores)).toEqual(["rouge1", "rouge2", "rougeL", "rougeLsum"]);
  });
});

describe("text metric input validation", () => {
  it.each(["bleu", "chrf", "chrf++", "rouge", "exact-match", "token-f1"])("%s rejects bad predictions, references and options with MetricError", async (id) => {
    const bad = async (data: MetricInput[], options: Record<string, unknown> = {}) => {
      try {
        await m(id).compute(data, options);
      } catch (e) {
        expect(MetricError.isInstance(e)).toBe(true);
        return (e as Error).message;
      }
      throw new Error("expected a MetricError");
    };
    expect(await bad(inputs([[42, "x"]]))).toMatch(new RegExp(`metric ${id.replace(/\+/g, "\\+")} \\(sample s0\\): prediction must be a string, got number`));
    expect(await bad(inputs([["x", 7]]))).toMatch(/reference must be a string or a list of strings, got number/);
    expect(await bad(inputs([["x", [null]]]))).toMatch(/no reference text/);
    expect(await bad(inputs([["x", ["a", 3]]]))).toMatch(/reference\[1\] must be a string or null/);
    expect(await bad(inputs([["x", "x"]]), { no_such_option: 1 })).toMatch(/invalid options: .*no_such_option/);
  });

  it("a failed request (error set, no prediction) scores as the empty string", async () => {
    const r = await m("chrf").compute([{ sampleId: "a", prediction: undefined, reference: "text", error: "timeout" }], {});
    expect(r.scores.chrf).toBe(0);
  });

  it("an empty input list gives zero scores and no per-sample rows", async () => {
    for (const id of Object.keys(textMetrics)) {
      const r = await m(id).compute([], {});
      expect(r.perSample).toEqual([]);
      for (const v of Object.values(r.scores)) expect(Number.isFinite(v)).toBe(true);
    }
  });
});

describe("exact-match, token-f1, accuracy", () => {
  it("exact-match trims by default and supports none/squad normalisation and ignore_case", async () => {
    const data = inputs([
      [" Paris ", "Paris"],
      ["the Paris!", ["London", "paris"]],
      ["paris", "Paris"],
    ]);
    expect((await m("exact-match").compute(data, {})).perSample.map((s) => s.scores.exact_match)).toEqual([100, 0, 0]);
    expect((await m("exact-match").compute(data, { normalize: "none" })).perSample.map((s) => s.scores.exact_match)).toEqual([0, 0, 0]);
    expect((await m("exact-match").compute(data, { normalize: "squad" })).scores.exact_match).toBe(100);
    expect((await m("exact-match").compute(data, { ignore_case: true })).perSample.map((s) => s.scores.exact_match)).toEqual([100, 0, 100]);
  });

  it("SQuAD normalisation and token F1 (hand-checked)", () => {
    expect(squadNormalize("The  Cat, sat; an apple a day!")).toBe("cat sat apple day");
    // Python's \b is Unicode-aware: "thé" and "ana" are not articles
    expect(squadNormalize("thé ana a")).toBe("thé ana");
    expect(squadTokenF1("The Cat sat", "a cat sat down")).toBeCloseTo(0.8, 12); // P=1, R=2/3
    expect(squadTokenF1("", "")).toBe(1);
    expect(squadTokenF1("the", "cat")).toBe(0);
    expect(squadTokenF1("cat cat", "cat")).toBeCloseTo(2 / 3, 12); // P=1/2, R=1
  });

  it("token-f1 takes the best reference, on a 0–100 scale", async () => {
    const r = await m("token-f1").compute(inputs([["cat sat", ["dog", "the cat sat"]], ["x", "y"]]), {});
    expect(r.perSample.map((s) => s.scores.token_f1)).toEqual([100, 0]);
    expect(r.scores.token_f1).toBe(50);
  });

  it("accuracy compares labels (strings trimmed, numbers/booleans by spelling)", async () => {
    const r = await m("accuracy").compute(inputs([[" A", "A"], [3, "3"], [true, ["false", "true"]], ["b", "B"]]), {});
    expect(r.perSample.map((s) => s.scores.accuracy)).toEqual([100, 100, 100, 0]);
    expect(r.scores.accuracy).toBe(75);
    expect((await m("accuracy").compute(inputs([["b", "B"]]), { ignore_case: true })).scores.accuracy).toBe(100);
    expect(() => m("accuracy").compute(inputs([[{}, "A"]]), {})).toThrow(/prediction must be a string, number or boolean label, got object/);
  });
});

describe("accuracy refuses numbers that are not labels", () => {
  it("a NaN prediction or reference is a MetricError naming the sample", async () => {
    const acc = textMetrics.accuracy!;
    const bad = [
      { sampleId: "ok", prediction: "a", reference: "a" },
      { sampleId: "nan", prediction: Number.NaN, reference: "a" },
    ];
    await expect(async () => acc.compute(bad, {})).rejects.toThrow(/metric accuracy \(sample nan\): prediction is NaN/);
    const err = await (async () => acc.compute([{ sampleId: "r", prediction: "a", reference: Number.POSITIVE_INFINITY }], {}))().catch((e) => e);
    expect(MetricError.isInstance(err)).toBe(true);
    expect(await acc.compute([{ sampleId: "n", prediction: 5, reference: 5 }], {})).toMatchObject({ scores: { accuracy: 100 } });
  });
});
