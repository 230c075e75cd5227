import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { burmeseSyllables } from "./burmese-syllables.js";
import { lcsLength, rougeL } from "./rouge-l.js";
import { aggressiveTokenize, basicTokenize, rougeTokens } from "./rouge-tokenize.js";
import { createSeahelmSummarizationMetric } from "./summarization.js";

describe("ROUGE tokenisation", () => {
  it("drops punctuation, splits letters from digits, one token per CJK ideograph", () => {
    expect(basicTokenize("the cat's hat, 2nd-place!")).toEqual(["the", "cat", "s", "hat", "2nd", "place"]);
    expect(rougeTokens("The cat's hat, 2nd-place!", "id")).toEqual(["the", "cat", "s", "hat", "2", "nd", "place"]);
    expect(aggressiveTokenize("我爱abc123")).toEqual(["我", "爱", "abc", "123"]);
    // Symbols (not punctuation) survive the cleaning and stand alone; combining marks stay attached.
    expect(rougeTokens("5€ cà phê", "vi")).toEqual(["5", "€", "cà", "phê"]);
    expect(rougeTokens("வணக்கம் உலகம்", "ta")).toEqual(["வணக்கம்", "உலகம்"]);
  });

  it("Thai keeps whitespace tokens, like pythainlp newmm", () => {
    expect(rougeTokens("สวัสดีครับ ผมชื่อ", "th")).toEqual(["สวัสดี", "ครับ", " ", "ผม", "ชื่อ"]);
  });

  it("Burmese syllables match the upstream splitter (cross-checked with its Python)", () => {
    expect(burmeseSyllables("မြန်မာစာ")).toEqual(["မြန်", "မာ", "စာ"]);
    expect(burmeseSyllables("မင်္ဂလာပါ")).toEqual(["မင်္ဂ", "လာ", "ပါ"]);
    expect(burmeseSyllables("ကျွန်တော် ကျောင်းသွားတယ်")).toEqual(["ကျွန်", "တော်", "ကျောင်း", "သွား", "တယ်"]);
    expect(burmeseSyllables("သင်္ချိုင်း")).toEqual(["သင်္ချိုင်း"]);
    expect(rougeTokens("မြန်မာစာ။", "my")).toEqual(["မြန်", "မာ", "စာ"]);
  });
});

describe("ROUGE-L", () => {
  it("computes LCS-based precision, recall and F", () => {
    expect(lcsLength(["a", "b", "c", "d"], ["a", "x", "c"])).toBe(2);
    const s = rougeL("the cat sat on the mat".split(" "), "the cat on the mat".split(" "));
    expect(s.precision).toBe(1);
    expect(s.recall).toBeCloseTo(5 / 6, 12);
    expect(s.fmeasure).toBeCloseTo(10 / 11, 12);
    expect(rougeL([], ["a"])).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });
});

describe("seahelm-summarization", () => {
  const metric = createSeahelmSummarizationMetric();

  it("a single sample: the bootstrap median is the sample's own score", async () => {
    const r = await metric.compute([input("1", "the cat on the mat", "the cat sat on the mat")], { lang: "id" });
    expect(r.scores.rougel_f1).toBeCloseTo((100 * 10) / 11, 10);
    expect(r.scores.normalized_rougel_f1).toBeCloseTo((100 * 10) / 11, 10);
    expect(r.scores.rougel_precision).toBeCloseTo(100, 10);
    expect(r.scores.null_count).toBe(0);
  });

  it("reproduces upstream's bootstrap median (numpy seed 4156) on four samples", async () => {
    const r = await metric.compute(
      [
        input("1", "the cat on the mat", "the cat sat on the mat"), // P 1, R 5/6, F 10/11
        input("2", "a x c", "a b c d"), // P 2/3, R 1/2, F 4/7
        input("3", "", "hello world"), // all 0
        input("4", "three two one", "one two three"), // 1/3 each
      ],
      { lang: "id" },
    );
    // Medians computed by numpy from the hand-computed per-sample rows.
    expect(r.scores.rougel_precision).toBeCloseTo(100 * 0.5, 10);
    expect(r.scores.rougel_recall).toBeCloseTo(100 * 0.4166666666666667, 10);
    expect(r.scores.rougel_f1).toBeCloseTo(100 * 0.45346320346320346, 10);
    expect(r.scores.null_count).toBe(1);
    const expected = [(100 * 10) / 11, (100 * 4) / 7, 0, 100 / 3];
    r.perSample.forEach((s, i) => {
      expect(s.scores.normalized_rougel_f1).toBeCloseTo(expected[i]!, 10);
    });
  });

  it("useChrf reports corpus chrF++ unnormalised (default sacrebleu-compatible, or injected)", async () => {
    const same = await metric.compute([input("1", "kucing hitam", "kucing hitam")], { useChrf: true, useRougeL: false });
    expect(same.scores).toEqual({ null_count: 0, chrf_score: 100, normalized_chrf_score: 100 });
    const disjoint = await metric.compute([input("1", "xyz", "abc")], { useChrf: true, useRougeL: false });
    expect(disjoint.scores.chrf_score).toBe(0);
    const withChrf = createSeahelmSummarizationMetric({ chrf: (h, r) => (h[0] === r[0] ? 100 : 0) });
    const r = await withChrf.compute([input("1", "a", "a")], { useChrf: true, useRougeL: false });
    expect(r.scores).toEqual({ null_count: 0, chrf_score: 100, normalized_chrf_score: 100 });
  });

  it("rejects non-string references", async () => {
    await expect(async () => metric.compute([input("s1", "a", ["a"])], {})).rejects.toThrow(/seahelm-summarization \(sample s1\)/);
  });
});
