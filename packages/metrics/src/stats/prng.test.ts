import { describe, expect, it } from "vitest";
import { loadFixture } from "./__fixtures__/load-fixture.js";
import { createRng, createSplitMix64, hashString32, seedState } from "./prng.js";

interface Vectors {
  xoshiro128StarStar: { state: [number, number, number, number]; outputs: number[] };
  splitMix64: { seed: string; outputs: string[] };
}
const vectors = loadFixture<Vectors>("xoshiro128starstar.json");

describe("xoshiro128**", () => {
  it("reproduces the reference outputs from state {1, 2, 3, 4}", () => {
    const rng = createRng(vectors.xoshiro128StarStar.state);
    const got = vectors.xoshiro128StarStar.outputs.map(() => rng.nextUint32());
    expect(got).toEqual(vectors.xoshiro128StarStar.outputs);
  });

  it("seeds through SplitMix64, which reproduces its reference outputs", () => {
    const next = createSplitMix64(BigInt(vectors.splitMix64.seed));
    expect(vectors.splitMix64.outputs.map(() => next().toString())).toEqual(vectors.splitMix64.outputs);
    const words = seedState(1234567);
    const first = BigInt(vectors.splitMix64.outputs[0]!);
    const second = BigInt(vectors.splitMix64.outputs[1]!);
    expect(words).toEqual([
      Number(first & 0xffffffffn),
      Number(first >> 32n),
      Number(second & 0xffffffffn),
      Number(second >> 32n),
    ]);
  });

  it("is reproducible per seed and differs between seeds", () => {
    const draw = (seed: number) => {
      const rng = createRng(seed);
      return Array.from({ length: 8 }, () => rng.nextUint32());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(draw(0)).not.toEqual(draw(2 ** 40));
  });

  it("nextInt stays in range and covers it roughly uniformly", () => {
    const rng = createRng(7);
    const counts = new Array<number>(10).fill(0);
    let outOfRange = 0;
    for (let i = 0; i < 100_000; i++) {
      const k = rng.nextInt(10);
      if (k < 0 || k >= 10 || !Number.isInteger(k)) outOfRange++;
      else counts[k]!++;
    }
    expect(outOfRange).toBe(0);
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    const f = rng.nextFloat();
    expect(f >= 0 && f < 1).toBe(true);
  });

  it("rejects bad seeds, bounds and the all-zero state", () => {
    expect(() => createRng(-1)).toThrow(RangeError);
    expect(() => createRng(1.5)).toThrow(RangeError);
    expect(() => createRng([0, 0, 0, 0])).toThrow(RangeError);
    expect(() => createRng(1).nextInt(0)).toThrow(RangeError);
  });

  it("hashString32 is stable FNV-1a", () => {
    // FNV-1a 32-bit of "" is the offset basis, of "a" is 0xe40c292c.
    expect(hashString32("")).toBe(0x811c9dc5);
    expect(hashString32("a")).toBe(0xe40c292c);
  });
});
