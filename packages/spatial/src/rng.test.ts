import { createRng, seedStateFromKey } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { CanvasRng } from "./rng.js";

describe("CanvasRng", () => {
  it("gives createRng's stream and results for every method", () => {
    for (let t = 0; t < 200; t++) {
      const state = seedStateFromKey(`rng-${t}`);
      const a = createRng(state);
      const b = new CanvasRng(state);
      const items = Array.from({ length: 1 + (t % 30) }, (_, k) => k * 3);
      for (let step = 0; step < 50; step++) {
        const hi = (step * 7919 + t) % 70;
        expect(b.nextUint32()).toBe(a.nextUint32());
        expect(b.int(-32, hi)).toBe(a.int(-32, hi));
        expect(b.int(0, 2 ** 31 + step)).toBe(a.int(0, 2 ** 31 + step));
        expect(b.random()).toBe(a.random());
        expect(b.nextFloat()).toBe(a.nextFloat());
        expect(b.nextInt(1 + step)).toBe(a.nextInt(1 + step));
        expect(b.choice(items)).toBe(a.choice(items));
        expect(b.shuffle(items.slice())).toEqual(a.shuffle(items.slice()));
        const k = step % (items.length + 1);
        expect(b.sample(items, k)).toEqual(a.sample(items, k));
        expect(b.state()).toEqual(a.state());
      }
    }
  });

  it("rejects what createRng rejects", () => {
    expect(() => new CanvasRng([0, 0, 0, 0])).toThrow(RangeError);
    const r = new CanvasRng([1, 2, 3, 4]);
    expect(() => r.choice([])).toThrow(RangeError);
    expect(() => r.int(3, 2)).toThrow(RangeError);
    expect(() => r.sample([1], 2)).toThrow(RangeError);
    expect(() => r.nextInt(0)).toThrow(RangeError);
  });
});
