import { describe, expect, it } from "vitest";
import { loadOracleFixture } from "./__fixtures__/oracle-fixture.js";
import { computeBleu, createBleuScorer } from "./bleu.js";
import { getBleuTokenizer, isSacrebleuChineseChar, tokenize13a, tokenizeZh } from "./bleu-tokenizers.js";


// Vectors from sacrebleu's own test suite (test/test_bleu.py, test/test_sentence_bleu.py) and README.
const REFS = [
  ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
  ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
];
const HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."];
const SEG_REFS = HYPS.map((_, i) => REFS.map((r) => r[i]!));

/** sacrebleu's `raw_corpus_bleu`: floor smoothing, no tokenization, effective order. */
const raw = (smoothValue?: number) => createBleuScorer({ tokenize: "none", smoothMethod: "floor", smoothValue, effectiveOrder: true });

describe("BLEU — sacrebleu test vectors", () => {
  it.each([
    [{}, 48.530827],
    [{ tokenize: "none" as const }, 49.1919566],
    [{ tokenize: "13a" as const }, 48.530827],
    [{ tokenize: "intl" as const }, 43.91623493],
    [{ smoothMethod: "none" as const }, 48.530827],
  ])("corpus BLEU %o = %f", (settings, expected) => {
    expect(Math.abs(createBleuScorer(settings).corpusScore(HYPS, SEG_REFS).score - expected)).toBeLessThan(1e-6);
  });

  it("keeps empty hypotheses (score 0)", () => {
    expect(createBleuScorer().corpusScore(["", "", ""], SEG_REFS).score).toBe(0);
  });

  it("README statistics: 82.4/50.0/45.5/37.5 (BP = 0.943, hyp_len 17, ref_len 18)", () => {
    const s = createBleuScorer().corpusScore(HYPS, SEG_REFS);
    expect(s.precisions.map((p) => p.toFixed(1))).toEqual(["82.4", "50.0", "45.5", "37.5"]);
    expect(s.bp.toFixed(3)).toBe("0.943");
    expect([s.sys_len, s.ref_len]).toEqual([17, 18]);
  });

  it.each([
    [1, "77.65"],
    [2, "60.50"],
    [3, "53.93"],
    [4, "48.53"],
    [5, "46.14"],
    [6, "43.28"],
  ])("max n-gram order %i gives %s", (order, expected) => {
    expect(createBleuScorer({ maxNgramOrder: order }).corpusScore(HYPS, SEG_REFS).score.toFixed(2)).toBe(expected);
  });

  it.each([
    // 2.x returns 0 when nothing matches (sacrebleu #141); 1.x gave 0.0038 here.
    [["this is a test", "another test"], ["ref1", "ref2"], 0.0],
    [["this is a test"], ["this is a test"], 1.0],
    [["this is a fest"], ["this is a test"], 0.223606797749979],
  ])("raw corpus BLEU %o", (hyps, refs, expected) => {
    const s = raw(0.01).corpusScore(hyps, refs.map((r) => [r]));
    expect(Math.abs(s.score / 100 - expected)).toBeLessThan(1e-8);
  });

  it.each([
    ["test", "a test", 0.3678794411714425],
    ["a test", "a test", 1.0],
    ["a little test", "a test", 0.03218297948685433],
  ])("effective order: %s vs %s", (hyp, ref, expected) => {
    expect(Math.abs(raw(0.01).corpusScore([hyp], [[ref]]).score / 100 - expected)).toBeLessThan(1e-8);
  });

  it("statistics and the offset test", () => {
    const s = raw(0.01).corpusScore(["am I am a character sequence"], [["I am a symbol string sequence a a"]]);
    expect(s.counts).toEqual([4, 2, 1, 0]);
    expect(s.totals).toEqual([6, 5, 4, 3]);
    expect(raw(0).corpusScore(["am I am a character sequence"], [["I am a symbol string sequence a a"]]).score).toBe(0);
    expect(Math.abs(raw().corpusScore(["am I am a character sequence"], [["I am a symbol string sequence a a"]]).score / 100 - 0.1555722182)).toBeLessThan(1e-8);
  });

  it("scores from statistics", () => {
    const s = computeBleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11, { smoothMethod: "none", smoothValue: undefined, effectiveOrder: false, maxNgramOrder: 4 });
    expect(Math.abs(s.score / 100 - 0.8375922397)).toBeLessThan(1e-8);
  });

  it.each([
    [[0, 0, 0, 0], [4, 4, 2, 1], 0, 1, 0.0],
    [[0, 0, 0, 0], [10, 11, 12, 0], 14, 10, 0.0],
    [[0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.0],
    [[6, 5, 4, 0], [6, 5, 4, 3], 6, 6, 0.0],
    [[0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.1],
    [[0, 0, 0, 0], [0, 0, 0, 0], 1, 5, 0.01],
  ])("degenerate statistics %o / %o are 0", (correct, total, sys, ref, offset) => {
    const s = computeBleu(correct, total, sys, ref, { smoothMethod: "floor", smoothValue: offset, effectiveOrder: false, maxNgramOrder: 4 });
    expect(s.score).toBe(0);
  });

  // test_sentence_bleu.py (issue #98 example), tolerance 1e-3 as upstream.
  const REF98 = "producţia de zahăr brut se exprimă în zahăr alb;";
  const SYS98 = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;";
  it.each([
    ["exp", undefined, false, "13a", 8.493],
    ["none", undefined, false, "13a", 0.0],
    ["floor", undefined, false, "13a", 4.51688],
    ["floor", 0.1, false, "13a", 4.51688],
    ["floor", 0.5, false, "13a", 10.1],
    ["add-k", undefined, false, "13a", 14.882],
    ["add-k", 1, false, "13a", 14.882],
    ["add-k", 2, false, "13a", 21.389],
    ["exp", undefined, false, "none", 7.347],
    ["exp", undefined, false, "intl", 8.493],
    ["exp", undefined, false, "char", 40.8759],
    ["exp", undefined, true, "char", 42.0267],
  ] as const)("sentence BLEU smooth=%s value=%s lc=%s tok=%s → %f", (smoothMethod, smoothValue, lowercase, tokenize, expected) => {
    const s = createBleuScorer({ smoothMethod, smoothValue, lowercase, tokenize }).sentenceScore(SYS98, [REF98]);
    expect(Math.abs(s.score - expected)).toBeLessThan(1e-3);
  });

  it.each(["exp", "none", "floor", "add-k"] as const)("sentence BLEU with no matches is 0 (%s)", (smoothMethod) => {
    expect(createBleuScorer({ smoothMethod }).sentenceScore("this is a cat", ["okay thanks"]).score).toBe(0);
  });
});

describe("BLEU tokenizers — hand-checked", () => {
  it("13a splits symbols, and periods/commas next to non-digits", () => {
    expect(tokenize13a("Hello, world. 1,000.50 costs $3-4 (approx)!")).toEqual(
      ["Hello", ",", "world", ".", "1,000.50", "costs", "$", "3", "-", "4", "(", "approx", ")", "!"],
    );
    expect(tokenize13a("It wasn't e-mail&amp;co &quot;x&quot; <skipped>")).toEqual(["It", "wasn't", "e-mail", "&", "co", '"', "x", '"']);
    // the space padding makes a leading ".5" split: " .5 " → ". 5"
    expect(tokenize13a(".5")).toEqual([".", "5"]);
  });

  it("zh splits CJK characters and reproduces sacrebleu's string-comparison range bug", () => {
    expect(tokenizeZh("我爱北京。OK")).toEqual(["我", "爱", "北", "京", "。", "OK"]);
    // U+2014 EM DASH and U+201C/U+201D quotes fall in the accidental (U+2000, U+2A6D] range.
    expect(isSacrebleuChineseChar(0x2014)).toBe(true);
    expect(isSacrebleuChineseChar(0x2000)).toBe(false);
    expect(isSacrebleuChineseChar(0x2a6e)).toBe(false);
    // The real astral CJK Extension B block is not covered by the upstream table.
    expect(isSacrebleuChineseChar(0x20000)).toBe(false);
    expect(tokenizeZh("a—b")).toEqual(["a", "—", "b"]);
    // zh does not pad, so a leading ".5" stays one token (unlike 13a)
    expect(tokenizeZh(".5")).toEqual([".5"]);
  });

  it("intl separates Unicode punctuation and symbols but keeps digit-internal separators", () => {
    expect(getBleuTokenizer("intl")("Giá 1.000,5€ «ok»")).toEqual(["Giá", "1.000,5", "€", "«", "ok", "»"]);
  });

  it("char tokenizes code points, not UTF-16 units", () => {
    expect(getBleuTokenizer("char")("a𠀀 b")).toEqual(["a", "𠀀", "b"]);
  });

  it("uses Python's whitespace set (U+001C and U+0085 split, U+FEFF and U+200B do not)", () => {
    expect(getBleuTokenizer("none")("a\x1cb\u0085c\ufeffd\u200be")).toEqual(["a", "b", "c\ufeffd\u200be"]);
  });
});

describe("BLEU against sacrebleu 2.6.0 on the multilingual fixture", () => {
  const fx = loadOracleFixture();
  const toks = ["13a", "none", "intl", "char", "zh"] as const;

  it("has at least 200 pairs", () => {
    expect(fx.pairs.length).toBeGreaterThanOrEqual(200);
  });

  it.each(toks)("sentence BLEU (tok %s) equals sacrebleu to 1e-9 on every pair", (tok) => {
    const scorer = createBleuScorer({ tokenize: tok });
    for (const p of fx.pairs) {
      const got = scorer.sentenceScore(p.hyp, p.refs).score;
      expect(Math.abs(got - (p.expected[`bleu_${tok}`] as number)), `${p.id} ${JSON.stringify(p.hyp)}`).toBeLessThan(1e-9);
    }
  });

  it.each(toks)("corpus BLEU (tok %s) equals sacrebleu, statistics included", (tok) => {
    const want = fx.corpus[`bleu_${tok}`] as Exclude<(typeof fx.corpus)[string], number>;
    const got = createBleuScorer({ tokenize: tok }).corpusScore(
      fx.pairs.map((p) => p.hyp),
      fx.pairs.map((p) => p.refs),
    );
    expect(Math.abs(got.score - want.score)).toBeLessThan(1e-9);
    expect(got.counts).toEqual(want.counts);
    expect(got.totals).toEqual(want.totals);
    expect([got.sys_len, got.ref_len]).toEqual([want.sys_len, want.ref_len]);
    expect(Math.abs(got.bp - want.bp)).toBeLessThan(1e-12);
  });

  it("lowercased corpus BLEU equals sacrebleu", () => {
    const got = createBleuScorer({ lowercase: true }).corpusScore(
      fx.pairs.map((p) => p.hyp),
      fx.pairs.map((p) => p.refs),
    );
    expect(Math.abs(got.score - (fx.corpus.bleu_13a_lowercase as number))).toBeLessThan(1e-9);
  });

  it.each([
    ["13a", "tokens_13a"],
    ["zh", "tokens_zh"],
    ["intl", "tokens_intl"],
  ] as const)("%s tokens equal sacrebleu's", (tok, key) => {
    const scorer = createBleuScorer({ tokenize: tok });
    for (const p of fx.pairs) expect(scorer.tokenize(p.hyp), p.id).toEqual(p.expected[key]);
  });
});

describe("BLEU invariants", () => {
  it("a hypothesis identical to its reference scores 100 when it has ≥ 4 tokens", () => {
    const scorer = createBleuScorer();
    for (const s of ["one two three four", "Le chat est sur la table.", "ฉันชอบ กิน ข้าว ผัด", HYPS[2]!]) {
      expect(scorer.sentenceScore(s, [s]).score).toBeCloseTo(100, 10);
      expect(scorer.corpusScore([s], [[s]]).score).toBeCloseTo(100, 10);
    }
  });

  it("corpus BLEU does not depend on segment order", () => {
    const scorer = createBleuScorer();
    const a = scorer.corpusScore(HYPS, SEG_REFS).score;
    const b = scorer.corpusScore([...HYPS].reverse(), [...SEG_REFS].reverse()).score;
    expect(b).toBe(a);
  });

  it("null references are skipped but empty strings count (length 0)", () => {
    const scorer = createBleuScorer();
    expect(scorer.segmentStats("a b c", [null, "a b c"])[1]).toBe(3);
    expect(scorer.segmentStats("a b c", ["", "a b c d e f g"])[1]).toBe(0);
    expect(() => scorer.segmentStats("a", [null])).toThrow(/no references/);
  });
});
