import { describe, expect, it } from "vitest";
import { PythonRandom } from "./python-random.js";

// Expected values printed by CPython 3 (`random.Random(seed)`), the generator SEA-HELM's NIAH/CWE use.
describe("PythonRandom draws CPython's random.Random stream", () => {
  it("sample(range(2**31 - 1), k): the per-sample seeds of SEA-HELM's seed 9472347", () => {
    expect(new PythonRandom(9472347).sampleRange(2 ** 31 - 1, 5)).toEqual([1430359805, 161111476, 787078877, 2039987653, 866051814]);
  });
  it("random(), randint with a 32-bit range, and a seed wider than 32 bits", () => {
    expect(new PythonRandom(42).random()).toBe(0.6394267984578837);
    const r = new PythonRandom(2 ** 40 + 7);
    expect([r.randint(0, 2 ** 31 - 1), r.randint(0, 2 ** 31 - 1), r.randint(0, 2 ** 31 - 1)]).toEqual([2044078442, 1077368710, 544390359]);
  });
  it("shuffle, choice, and the pool branch of sample", () => {
    const x = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    new PythonRandom(5).shuffle(x);
    expect(x).toEqual([2, 3, 1, 0, 8, 7, 6, 5, 4, 9]);
    const r = new PythonRandom(5);
    expect(Array.from({ length: 6 }, () => r.choice([..."abcdefg"]))).toEqual(["e", "c", "f", "c", "g", "f"]);
    expect(new PythonRandom(0).sampleRange(10, 4)).toEqual([6, 9, 0, 2]);
  });
});
