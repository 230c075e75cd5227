import { describe, expect, it } from "vitest";
import { CharInterner, StringInterner, clippedMatches, clippedMatchesMaxRef, ngramIds } from "./ngram-ids.js";

/** Naive reference: Counter of joined n-grams. */
function counts(tokens: string[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const k = tokens.slice(i, i + n).join("\u0000");
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return m;
}

describe("integer n-gram ids", () => {
  it("gives equal ids exactly to equal n-grams", () => {
    const interner = new StringInterner();
    const a = "the cat sat on the mat the cat".split(" ");
    const b = "on the mat the cat sat".split(" ");
    const g = ngramIds([interner.idsOf(a), interner.idsOf(b)], 4, interner.size);
    for (let n = 1; n <= 4; n++) {
      const seen = new Map<number, string>();
      [a, b].forEach((tokens, t) => {
        g.ids[t]![n - 1]!.forEach((id, i) => {
          const gram = tokens.slice(i, i + n).join(" ");
          if (seen.has(id)) expect(seen.get(id)).toBe(gram);
          seen.set(id, gram);
        });
      });
      expect(new Set(seen.values()).size).toBe(seen.size);
      expect(g.distinct[n - 1]).toBe(seen.size);
    }
  });

  it("clipped matches equal Counter intersections, for one and several references", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const words = ["a", "b", "c", "d"];
    const sent = () => Array.from({ length: Math.floor(rand() * 12) }, () => words[Math.floor(rand() * words.length)]!);
    for (let trial = 0; trial < 200; trial++) {
      const hyp = sent();
      const refs = Array.from({ length: 1 + Math.floor(rand() * 3) }, sent);
      const interner = new StringInterner();
      const g = ngramIds([interner.idsOf(hyp), ...refs.map((r) => interner.idsOf(r))], 4, interner.size);
      for (let n = 1; n <= 4; n++) {
        const h = counts(hyp, n);
        const maxRef = new Map<string, number>();
        for (const r of refs) for (const [k, c] of counts(r, n)) maxRef.set(k, Math.max(maxRef.get(k) ?? 0, c));
        let want = 0;
        for (const [k, c] of h) want += Math.min(c, maxRef.get(k) ?? 0);
        const refIds = g.ids.slice(1).map((r) => r[n - 1]!);
        expect(clippedMatchesMaxRef(g.ids[0]![n - 1]!, refIds, g.distinct[n - 1]!)).toBe(want);
        if (refs.length === 1) expect(clippedMatches(g.ids[0]![n - 1]!, refIds[0]!, g.distinct[n - 1]!)).toBe(want);
      }
    }
  });

  it("char ids are per code point and the shared table is reset between segments", () => {
    const c = new CharInterner();
    expect([...c.idsOf("a😀a𠀀")]).toEqual([0, 1, 0, 2]);
    expect(c.size).toBe(3);
    c.reset();
    expect([...c.idsOf("ba")]).toEqual([0, 1]);
    c.reset();
  });
});
