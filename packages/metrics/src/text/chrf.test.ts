import { describe, expect, it } from "vitest";
import { loadOracleFixture } from "./__fixtures__/oracle-fixture.js";
import { chrfWords, createChrfScorer } from "./chrf.js";

// Vectors from sacrebleu's test/test_chrf.py (tolerance 1e-4 as upstream) and its README.
describe("chrF — sacrebleu test vectors", () => {
  const corpus = (hyps: string[], refs: string[], settings: Parameters<typeof createChrfScorer>[0]) =>
    createChrfScorer(settings).corpusScore(
      hyps,
      refs.map((r) => [r]),
    ).score;

  it.each([
    [["abcdefg"], ["hijklmnop"], 0.0],
    [["a"], ["b"], 0.0],
    [[""], ["b"], 0.0],
    [[""], ["ref"], 0.0],
    [[""], ["reference"], 0.0],
    [["aa"], ["ab"], 8.3333],
    [["a", "b"], ["a", "c"], 8.3333],
    [["a"], ["a"], 16.6667],
    [["a b c"], ["a b c"], 50.0],
    [["a b c"], ["abc"], 50.0],
    [
      [" risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."],
      ["risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."],
      63.36173,
    ],
    [
      [" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
      ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
      64.1302698,
    ],
    [["Niemand hat die Absicht, eine Mauer zu errichten"], ["Niemand hat die Absicht, eine Mauer zu errichten"], 100.0],
  ])("eps smoothing, beta 3: %o vs %o", (hyps, refs, expected) => {
    expect(Math.abs(corpus(hyps, refs, { beta: 3, epsSmoothing: true }) - expected)).toBeLessThan(1e-4);
  });

  it.each([
    [["a"], ["a"], 100.0],
    [[""], ["reference"], 0.0],
    [["a b c"], ["a b c"], 100.0],
    [["a b c"], ["abc"], 100.0],
    [[""], ["c"], 0.0],
    [["a", "b"], ["a", "c"], 50.0],
    [["aa"], ["ab"], 25.0],
  ])("effective-order (default) smoothing, beta 3: %o vs %o", (hyps, refs, expected) => {
    expect(Math.abs(corpus(hyps, refs, { beta: 3 }) - expected)).toBeLessThan(1e-4);
  });

  it.each([
    [
      "Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich.",
      "Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.",
      67.3481606,
    ],
    [
      "risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists .",
      "risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists .",
      65.2414427,
    ],
  ])("keeping whitespace, beta 3", (hyp, ref, expected) => {
    expect(Math.abs(corpus([hyp], [ref], { beta: 3, whitespace: true }) - expected)).toBeLessThan(1e-4);
  });

  it.each([
    [
      "Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
      "Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.",
      39.14078509,
    ],
    [
      "Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
      "A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.",
      31.22557079,
    ],
    [
      "Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
      "Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli.",
      57.15704367,
    ],
  ])("sentence chrF with eps smoothing: %s", (hyp, ref, expected) => {
    expect(Math.abs(createChrfScorer({ epsSmoothing: true }).sentenceScore(hyp, [ref]).score - expected)).toBeLessThan(1e-4);
  });

  it("README: chrF2 = 59.73 on the two-reference example", () => {
    const refs = [
      ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
      ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
    ];
    const hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."];
    const score = createChrfScorer().corpusScore(
      hyps,
      hyps.map((_, i) => refs.map((r) => r[i]!)),
    ).score;
    expect(score.toFixed(2)).toBe("59.73");
  });
});

describe("chrF++ word splitting — hand-checked", () => {
  it("splits one trailing, else one leading, ASCII punctuation mark off words longer than one character", () => {
    expect(chrfWords("Hello, (world) 'quote it... , x")).toEqual(["Hello", ",", "(world", ")", "'", "quote", "it..", ".", ",", "x"]);
    expect(chrfWords("¿Qué? «ok»")).toEqual(["¿Qué", "?", "«ok»"]);
  });

  it("counts word unigrams and bigrams after character n-grams", () => {
    const scorer = createChrfScorer({ wordOrder: 2 });
    // 6 char orders + 2 word orders, [hyp, ref, match] each
    const stats = scorer.segmentStats("a cat.", ["a cat"]);
    expect(stats.length).toBe(24);
    // word unigrams: hyp {a, cat, .} (3) vs ref {a, cat} (2), 2 matches; bigrams: hyp 2, ref 1, 1 match
    expect(stats.slice(18)).toEqual([3, 2, 2, 2, 1, 1]);
  });
});

describe("chrF / chrF++ against sacrebleu 2.6.0 on the multilingual fixture", () => {
  const fx = loadOracleFixture();
  const hyps = fx.pairs.map((p) => p.hyp);
  const refs = fx.pairs.map((p) => p.refs);

  it.each([
    ["chrf", 0],
    ["chrf++", 2],
  ] as const)("sentence %s equals sacrebleu to 1e-9 on every pair", (key, wordOrder) => {
    const scorer = createChrfScorer({ wordOrder });
    for (const p of fx.pairs) {
      expect(Math.abs(scorer.sentenceScore(p.hyp, p.refs).score - (p.expected[key] as number)), p.id).toBeLessThan(1e-9);
    }
  });

  it.each([
    ["chrf", {}],
    ["chrf++", { wordOrder: 2 }],
    ["chrf_eps", { epsSmoothing: true }],
    ["chrf++_lowercase_whitespace", { wordOrder: 2, lowercase: true, whitespace: true }],
  ] as const)("corpus %s equals sacrebleu to 1e-9", (key, settings) => {
    expect(Math.abs(createChrfScorer(settings).corpusScore(hyps, refs).score - (fx.corpus[key] as number))).toBeLessThan(1e-9);
  });
});

describe("chrF invariants", () => {
  it("identical non-empty segments score 100; empty against empty scores 0", () => {
    for (const wordOrder of [0, 2]) {
      const s = createChrfScorer({ wordOrder });
      for (const t of ["x", "วันนี้อากาศร้อนมาก", "北京是首都", "I love pizza 🍕!"]) expect(s.sentenceScore(t, [t]).score).toBeCloseTo(100, 10);
      expect(s.sentenceScore("", [""]).score).toBe(0);
    }
  });

  it("adding a reference never lowers sentence chrF (best reference wins)", () => {
    const s = createChrfScorer({ wordOrder: 2 });
    const hyp = "the cat sat on the mat";
    const one = s.sentenceScore(hyp, ["a cat is on a mat"]).score;
    expect(s.sentenceScore(hyp, ["a cat is on a mat", "dogs bark"]).score).toBe(one);
    expect(s.sentenceScore(hyp, ["dogs bark", "a cat is on a mat"]).score).toBe(one);
    expect(s.sentenceScore(hyp, ["a cat is on a mat", "the cat sat on the mat"]).score).toBeCloseTo(100, 10);
  });

  it("rejects a segment without any reference", () => {
    expect(() => createChrfScorer().segmentStats("a", [null])).toThrow(/no references/);
  });
});

describe("chrF fast path (integer n-gram ids) equals the Counter path", () => {
  // Deterministic pseudo-random text over an alphabet with astral characters, Python-only
  // whitespace (U+001C, U+0085), punctuation and repeated letters, so n-grams collide often.
  const alphabet = ["a", "b", "c", "a", "b", " ", " ", ".", ",", "(", ")", "'", "é", "ก", "北", "😀", "𠀀", "\x1c", "\u0085", "\u3000", "A"];
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const text = () => Array.from({ length: Math.floor(rand() * 40) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join("");

  it.each([
    [{}],
    [{ wordOrder: 2 }],
    [{ wordOrder: 2, lowercase: true, whitespace: true }],
    [{ charOrder: 3, wordOrder: 3 }],
    [{ charOrder: 0, wordOrder: 2 }],
  ])("on 300 random segments with settings %o", (settings) => {
    const s = createChrfScorer(settings);
    for (let i = 0; i < 300; i++) {
      const hyp = text();
      const refs = Array.from({ length: 1 + Math.floor(rand() * 3) }, text);
      expect(s.segmentStats(hyp, refs), JSON.stringify([hyp, refs])).toEqual(s.segmentStatsGeneric(hyp, refs));
    }
  });
});
