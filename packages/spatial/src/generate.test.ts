import { describe, expect, it } from "vitest";
import { seedStateFromKey } from "@yardstick/core";
import { canvasSeedState, generateCanvas, generateDataset, resolveOptions } from "./generate.js";
import { shapesIntersect } from "./geometry.js";
import { comboKey, inBounds } from "./shape.js";

describe("canvasSeedState", () => {
  it("gives the state words of createRng(key) (SHA-256 of the key) for canvas keys", () => {
    for (const key of ["6cdce551e30b:0", "6cdce551e30b:49999", "abc:123", "", "ünï:7"]) expect(canvasSeedState(key)).toEqual(seedStateFromKey(key));
  });
});

describe("generateDataset", () => {
  it("is reproducible: same seed and options give identical data; another seed does not", () => {
    const a = JSON.stringify([...generateDataset({ shapes: 4, count: 20, seed: 7 })]);
    const b = JSON.stringify([...generateDataset({ shapes: 4, count: 20, seed: 7 })]);
    const c = JSON.stringify([...generateDataset({ shapes: 4, count: 20, seed: 8 })]);
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it("canvas i does not depend on the count in fixed mode", () => {
    const small = [...generateDataset({ shapes: 3, count: 4, seed: "x" })];
    const large = [...generateDataset({ shapes: 3, count: 40, seed: "x" })];
    expect(JSON.stringify(large.slice(0, 4))).toBe(JSON.stringify(small));
  });

  it("places valid canvases: in bounds, non-overlapping, unique combinations", () => {
    for (const r of generateDataset({ shapes: 9, count: 30, seed: 1 })) {
      expect(new Set(r.shapes.map(comboKey)).size).toBe(9);
      for (const s of r.shapes) expect(inBounds(s)).toBe(true);
      for (let i = 0; i < 9; i++) for (let j = i + 1; j < 9; j++) expect(shapesIntersect(r.shapes[i]!, r.shapes[j]!)).toBe(false);
    }
  });

  it("fixed mode interleaves balancing so every prefix is balanced", () => {
    const recs = [...generateDataset({ shapes: 3, count: 8, seed: 2 })];
    expect(recs.map((r) => r.questions.existence![0]![1])).toEqual(["Yes", "No", "Yes", "No", "Yes", "No", "Yes", "No"]);
    expect(recs.map((r) => r.questions.existence_tracking![0]![1])).toEqual(["Yes", "No", "Yes", "No", "Yes", "No", "Yes", "No"]);
    expect(recs.map((r) => r.questions.count![0]![1] === 0)).toEqual([true, false, false, false, true, false, false, false]);
  });

  it("compat mode balances in contiguous blocks and keeps upstream's trailing spaces", () => {
    const recs = [...generateDataset({ shapes: 3, count: 8, seed: 2, mode: "compat" })];
    expect(recs.map((r) => r.questions.existence![0]![1])).toEqual(["Yes", "Yes", "Yes", "Yes", "No", "No", "No", "No"]);
    expect(recs.map((r) => r.questions.count![0]![1] === 0)).toEqual([true, true, false, false, false, false, false, false]);
    for (const r of recs) {
      expect(r.descriptions.full!.endsWith(". ")).toBe(true);
      expect(r.questions.existence_tracking![0]![0].endsWith("? ")).toBe(true);
    }
    const fixed = [...generateDataset({ shapes: 3, count: 3, seed: 2 })];
    for (const r of fixed) for (const d of Object.values(r.descriptions)) expect(d.endsWith(" ")).toBe(false);
  });

  it("fixed transitivity: every chain sentence true and no shape omitted", () => {
    for (const r of generateDataset({ shapes: 7, count: 30, seed: 3 })) {
      const d = r.descriptions.transitivity!;
      const mentioned = r.shapes.filter((s) => d.includes(`${s.size} ${s.color} ${s.kind}`.toLowerCase()));
      expect(mentioned).toHaveLength(7);
      expect(r.questions.transitivity).toHaveLength(3);
    }
  });

  it("supports 1, 2 and 10+ shapes in fixed mode; compat skips the shuffle task upstream cannot make", () => {
    const one = generateCanvas(resolveOptions({ shapes: 1, count: 1, seed: 1 }), 0);
    expect(one.descriptions.full).toBe("There is 1 shape in a canvas. There is a " + `${one.shapes[0]!.size} ${one.shapes[0]!.color} ${one.shapes[0]!.kind}`.toLowerCase() + " in the canvas.");
    expect(one.questions.transitivity).toBeUndefined();
    expect(one.questions.coordinate).toBeUndefined();
    const two = generateCanvas(resolveOptions({ shapes: 2, count: 1, seed: 1 }), 0);
    expect(two.questions.shuffle_tracking).toHaveLength(2);
    const twelve = generateCanvas(resolveOptions({ shapes: 12, count: 1, seed: 1 }), 0);
    expect(twelve.descriptions.shuffle_tracking).toBeDefined();
    const compatTwo = generateCanvas(resolveOptions({ shapes: 2, count: 1, seed: 1, mode: "compat" }), 0);
    expect(compatTwo.questions.shuffle_tracking).toBeUndefined();
  });

  it("fails clearly on requests that cannot be met", () => {
    expect(() => [...generateDataset({ shapes: 0, count: 1, seed: 1 })]).toThrow(/shapes must be an integer >= 1/);
    expect(() => [...generateDataset({ shapes: 25, count: 1, seed: 1 })]).toThrow(/canvas_25_0: 25 shapes requested but only 24/);
    expect(() => [...generateDataset({ shapes: 24, count: 2, seed: 1, tasks: ["existence"] })]).toThrow(
      /canvas_24_1: existence: no question has the answer "No"/,
    );
    expect(() => [...generateDataset({ shapes: 3, count: 1, seed: 1, tasks: ["nope" as never] })]).toThrow(/unknown task "nope"/);
  });
});

describe("pickQueries", () => {
  it("draws what rng.choice and rng.sample draw on the (question, answer) lists it replaces", async () => {
    const { createRng } = await import("@yardstick/core");
    const { pickQueries, QUERY_MASKS } = await import("./tasks/attributes.js");
    const { EXISTENCE_QUESTIONS } = await import("./tasks/existence.js");
    const { COUNT_QUESTIONS } = await import("./tasks/count.js");
    // Distinct questions: "every question but the first" is every other query.
    expect(new Set(EXISTENCE_QUESTIONS).size).toBe(QUERY_MASKS.length);
    expect(new Set(COUNT_QUESTIONS).size).toBe(QUERY_MASKS.length);
    for (let t = 0; t < 300; t++) {
      const canvas = createRng(`canvas-${t}`).nextUint32() & 0xffffff;
      const answers = QUERY_MASKS.map((m) => (canvas & m) !== 0);
      for (const expected of [undefined, true, false]) {
        const a = createRng(`draw-${t}`);
        const b = createRng(`draw-${t}`);
        const all = answers.map((ans, k) => [k, ans] as const);
        let reference: number[] | undefined;
        if (expected === undefined) reference = a.sample(all, 3).map(([k]) => k);
        else {
          const pool = all.filter(([, ans]) => ans === expected);
          if (pool.length > 0) {
            const first = a.choice(pool);
            reference = [first[0], ...a.sample(all.filter(([k]) => k !== first[0]), 2).map(([k]) => k)];
          }
        }
        const picked = pickQueries(b, expected === undefined ? undefined : (k) => answers[k] === expected);
        expect(picked).toEqual(reference);
        expect(b.state()).toEqual(a.state());
      }
    }
  });
});

describe("finished texts", () => {
  it("fixed mode: no description, question or answer ends in whitespace; compat: descriptions keep upstream's trailing space", () => {
    for (const mode of ["fixed", "compat"] as const) {
      for (const shapes of [1, 2, 3, 7, 12]) {
        const tasks = shapes >= 10 ? ["existence", "count", "coordinate", "shuffle_tracking"] as const : undefined;
        for (const r of generateDataset({ shapes, count: 40, seed: "texts", mode, tasks })) {
          for (const d of Object.values(r.descriptions)) expect(/\s$/.test(d)).toBe(mode === "compat");
          if (mode === "fixed") {
            for (const qa of Object.values(r.questions)) for (const [q, a] of qa) expect(/\s$/.test(q) || /\s$/.test(String(a))).toBe(false);
          }
        }
      }
    }
  });
});
