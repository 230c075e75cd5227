import { describe, expect, it } from "vitest";
import { NumpyGenerator, seedSequenceState } from "./pcg64.js";

// Expected values printed by numpy 2.4.6 (np.random.SeedSequence / np.random.default_rng).
describe("numpy default_rng stream", () => {
  it("SeedSequence(94370244).generate_state(4, uint64)", () => {
    expect(seedSequenceState(94370244, 4)).toEqual([0xfccc09659501f94an, 0x6d27c5ffd99ae8a2n, 0xcc320dfb68482aa3n, 0xe0c45f4cdfd93f31n]);
  });

  it("default_rng(94370244): integers over several ranges, then random()", () => {
    const g = new NumpyGenerator(94370244);
    // integers(0, 8, size=(2, 5)), row-major
    expect(g.integers(0, 8, 10)).toEqual([3, 4, 4, 6, 4, 2, 4, 5, 1, 2]);
    expect(g.integers(0, 3, 7)).toEqual([0, 0, 0, 2, 0, 1, 1]);
    // an odd count of 32-bit draws leaves a high half pending; random() draws a fresh 64-bit word
    expect(g.randomArray(3)).toEqual([0.6625779047042252, 0.26212319387512184, 0.15750949370872136]);
    expect(g.integers(0, 2 ** 32, 3)).toEqual([583376135, 3288352700, 2674807067]);
    expect(g.integers(0, 5, 3)).toEqual([3, 3, 1]);
  });

  it("default_rng(25008113) and a seed wider than 32 bits", () => {
    const g = new NumpyGenerator(25008113);
    expect(g.integers(0, 8, 20)).toEqual([6, 5, 7, 1, 1, 7, 1, 5, 4, 0, 2, 1, 2, 7, 0, 3, 7, 0, 3, 5]);
    expect(g.random()).toBe(0.24949398834752012);
    expect(g.random()).toBe(0.7839422354627974);
    expect(g.integers(0, 1000000, 5)).toEqual([600204, 212792, 194011, 794668, 276627]);
    expect(new NumpyGenerator(2n ** 40n + 5n).nextUint64()).toBe(0x1369aef039fedebn);
  });

  it("a one-value range draws nothing", () => {
    const a = new NumpyGenerator(7);
    const b = new NumpyGenerator(7);
    expect(a.integers(0, 1, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(a.nextUint64()).toBe(b.nextUint64());
  });
});
