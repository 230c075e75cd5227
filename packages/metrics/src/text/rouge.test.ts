import { describe, expect, it } from "vitest";
import { fixtureText, loadOracleFixture } from "./__fixtures__/oracle-fixture.js";
import { porterStem } from "./porter-stemmer.js";
import { createRougeScorer, lcsIndices, rougeTokenize, summaryLevelLcs } from "./rouge.js";

// Vectors from google-research rouge/rouge_scorer_test.py (ROUGE-1.5.5 numbers, 5 places).
describe("ROUGE — rouge-score test vectors", () => {
  const targets = fixtureText("rouge-score/target.txt").split("\n");
  const predictions = fixtureText("rouge-score/prediction.txt").split("\n");
  const close = (got: number, want: number, places = 5) => expect(Math.abs(got - want)).toBeLessThan(0.5 * 10 ** -places);

  it("rouge1 / rouge2 / rougeL basics", () => {
    const s = createRougeScorer({ rougeTypes: ["rouge1", "rouge2", "rougeL"] });
    const r1 = s.score("testing one two", "testing");
    close(r1.rouge1!.precision, 1);
    close(r1.rouge1!.recall, 1 / 3);
    close(r1.rouge1!.fmeasure, 1 / 2);
    const r2 = s.score("testing one two", "testing one");
    close(r2.rouge2!.precision, 1);
    close(r2.rouge2!.recall, 1 / 2);
    close(r2.rouge2!.fmeasure, 2 / 3);
    close(r2.rougeL!.fmeasure, 4 / 5);
    const nonConsecutive = s.score("testing one two", "testing two");
    close(nonConsecutive.rougeL!.recall, 2 / 3);
    close(nonConsecutive.rougeL!.fmeasure, 4 / 5);
  });

  it.each(["rouge1", "rouge2", "rougeL", "rougeLsum"])("%s of an empty prediction is 0", (t) => {
    const v = createRougeScorer({ rougeTypes: [t] }).score("testing one two", "")[t]!;
    expect([v.precision, v.recall, v.fmeasure]).toEqual([0, 0, 0]);
  });

  it.each(["rougen", "rouge0", "rouge10", "rougel"])("rejects rouge type %s", (t) => {
    expect(() => createRougeScorer({ rougeTypes: [t] })).toThrow(/invalid rouge type/);
  });

  it.each([
    [false, 0, "rouge1", [0.40741, 0.6875, 0.51163]],
    [false, 1, "rouge1", [0.40476, 0.65385, 0.5]],
    [true, 0, "rouge1", [0.40741, 0.6875, 0.51163]],
    [true, 1, "rouge1", [0.42857, 0.69231, 0.52941]],
    [false, 0, "rouge2", [0.30769, 0.53333, 0.39024]],
    [false, 1, "rouge2", [0.29268, 0.48, 0.36364]],
    [true, 0, "rouge2", [0.30769, 0.53333, 0.39024]],
    [true, 1, "rouge2", [0.29268, 0.48, 0.36364]],
    [false, 0, "rougeL", [0.40741, 0.6875, 0.51163]],
    [false, 1, "rougeL", [0.40476, 0.65385, 0.5]],
  ] as const)("against ROUGE-1.5.5 (stemmer %s, line %i, %s)", (useStemmer, line, type, [recall, precision, f]) => {
    const v = createRougeScorer({ rougeTypes: [type], useStemmer }).score(targets[line]!, predictions[line]!)[type]!;
    close(v.recall, recall);
    close(v.precision, precision);
    close(v.fmeasure, f);
  });

  it("rougeLsum against ROUGE-1.5.5 with stemming (multi-line summaries)", () => {
    const v = createRougeScorer({ rougeTypes: ["rougeLsum"], useStemmer: true }).score(
      fixtureText("rouge-score/target_multi.0.txt"),
      fixtureText("rouge-score/prediction_multi.0.txt"),
    ).rougeLsum!;
    close(v.recall, 0.36538);
    close(v.precision, 0.66667);
    close(v.fmeasure, 0.47205);
  });

  it("LCS read-back and union LCS (paper §3.2 example)", () => {
    const ids = (xs: number[]) => Int32Array.from(xs);
    expect(lcsIndices(ids([1, 2, 3, 4, 5]), ids([2, 5, 3, 4]))).toEqual([1, 2, 3]);
    expect(lcsIndices(ids([1, 2, 3, 4, 5]), ids([8, 9]))).toEqual([]);
    const v = summaryLevelLcs([["w1", "w2", "w3", "w4", "w5"]], [["w1", "w2", "w6", "w7", "w8"], ["w1", "w3", "w8", "w9", "w5"]]);
    expect(v.recall).toBe(0.8);
    expect(v.precision).toBe(0.4);
    close(v.fmeasure, 0.5333, 3);
    expect(summaryLevelLcs([["reference"]], [[]]).recall).toBe(0);
  });

  it("rougeLsum splits on newlines; empty and all-punctuation summaries score 0", () => {
    const s = createRougeScorer({ rougeTypes: ["rougeLsum"] });
    close(s.score("w1 w2 w3 w4 w5", "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5").rougeLsum!.fmeasure, 0.5333, 3);
    expect(s.score("w1 w2 w3 w4 w5", "").rougeLsum!.fmeasure).toBe(0);
    expect(s.score("", "w1").rougeLsum!.fmeasure).toBe(0);
    expect(s.score("w1 w2 w3 w4 w5", "/").rougeLsum!.fmeasure).toBe(0);
  });
});

describe("ROUGE tokenizer — hand-checked", () => {
  it("lowercases, keeps only [a-z0-9] runs, so non-Latin scripts disappear", () => {
    expect(rougeTokenize("Hello, WORLD! It's 2024 — café 北京 สวัสดี")).toEqual(["hello", "world", "it", "s", "2024", "caf"]);
  });

  it("stems only tokens longer than 3 characters", () => {
    expect(rougeTokenize("was running flies dies", porterStem)).toEqual(["was", "run", "fli", "die"]);
    expect(porterStem("was")).toBe("wa");
  });
});

describe("Porter stemmer (NLTK_EXTENSIONS mode)", () => {
  it("NLTK doctest plurals and the oed bug", () => {
    const words =
      "caresses flies dies mules denied died agreed owned humbled sized meeting stating siezing itemization sensational traditional reference colonizer plotted".split(
        " ",
      );
    expect(words.map(porterStem).join(" ")).toBe("caress fli die mule deni die agre own humbl size meet state siez item sensat tradit refer colon plot");
    expect(porterStem("oed")).toBe("o");
    expect(porterStem("generously")).toBe("gener");
  });

  it("equals NLTK 3.10.3 on 12,000 words", () => {
    const lines = fixtureText("porter-nltk.tsv").trim().split("\n");
    expect(lines.length).toBe(12000);
    const wrong: string[] = [];
    for (const line of lines) {
      const [word, stem] = line.split("\t") as [string, string];
      if (porterStem(word) !== stem) wrong.push(`${word}: want ${stem}, got ${porterStem(word)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("ROUGE on the multilingual fixture (rouge-score algorithm + NLTK stemmer oracle)", () => {
  const fx = loadOracleFixture();
  const types = ["rouge1", "rouge2", "rougeL", "rougeLsum"];
  it.each([false, true])("per-pair precision/recall/F match (stemmer %s)", (useStemmer) => {
    const s = createRougeScorer({ rougeTypes: types, useStemmer });
    for (const p of fx.pairs) {
      const got = p.refs.length === 1 ? s.score(p.refs[0]!, p.hyp) : s.scoreMulti(p.refs, p.hyp);
      for (const t of types) {
        const want = p.expected[`${t}${useStemmer ? "_stem" : ""}`] as number[];
        const v = got[t]!;
        expect([v.precision, v.recall, v.fmeasure], `${p.id} ${t}`).toEqual(want);
      }
    }
  });
});
