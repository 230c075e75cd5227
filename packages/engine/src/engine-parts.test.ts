import { describe, expect, it } from "vitest";
import { aggregateResults, type TaskResult } from "./aggregate.js";
import { canonicalJson, hashCanonical } from "./canonical-json.js";
import { forEachConcurrent } from "./pool.js";

const task = (over: Partial<TaskResult>): TaskResult => ({
  key: "k",
  name: "n",
  language: "id",
  competency: "nlu",
  mainScore: "s",
  main: 0,
  metrics: {},
  ...over,
});

describe("aggregateResults", () => {
  it("macro-averages groups first, then competencies, languages and overall", () => {
    const tree = aggregateResults([
      task({ name: "sentiment", main: 80 }),
      task({ name: "qa", main: 60 }),
      task({ name: "translation-en-xx", competency: "nlg", aggregationGroup: "translations", main: 90 }),
      task({ name: "translation-xx-en", competency: "nlg", aggregationGroup: "translations", main: 70 }),
      task({ name: "abssum", competency: "nlg", main: 20 }),
      task({ name: "sentiment", language: "th", main: 40 }),
    ]);
    const id = tree.id as Record<string, Record<string, unknown>>;
    expect(id.nlu?.total).toBe(70);
    expect(id.nlg?.translations).toBe(80);
    expect(id.nlg?.total).toBe(50); // mean(80 group, 20)
    expect(id.total).toBe(60);
    expect((tree.th as Record<string, unknown>).total).toBe(40);
    expect(tree.total).toBe(50);
  });

  it("leaves tasks without a score out of the means", () => {
    const tree = aggregateResults([task({ name: "a", main: 50 }), task({ name: "b", main: undefined })]);
    expect((tree.id as Record<string, Record<string, unknown>>).nlu?.total).toBe(50);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every level and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe('{"a":{"d":[2,{"e":0,"f":1}]},"b":1}');
    expect(hashCanonical({ x: 1, y: 2 })).toBe(hashCanonical({ y: 2, x: 1 }));
  });
});

describe("forEachConcurrent", () => {
  async function* numbers(n: number) {
    for (let i = 0; i < n; i++) yield i;
  }

  it("never has more than the limit in flight and visits every item once", async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachConcurrent(numbers(50), 4, async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      seen.push(i);
      inFlight--;
    });
    expect(peak).toBe(4);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
  });

  it("stops taking items after a failure and rethrows it after in-flight work ends", async () => {
    let started = 0;
    const err = await forEachConcurrent(numbers(100), 2, async (i) => {
      started++;
      if (i === 3) throw new Error("boom");
      await new Promise((r) => setTimeout(r, 1));
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe("boom");
    expect(started).toBeLessThan(10);
  });

  it("stops when the signal aborts", async () => {
    const controller = new AbortController();
    let count = 0;
    await forEachConcurrent(
      numbers(1000),
      1,
      async () => {
        if (++count === 5) controller.abort();
      },
      controller.signal,
    );
    expect(count).toBe(5);
  });
});

describe("aggregateResults with a competency roll-up", () => {
  it("merges the roll-up's entries and lets it set the competency total", () => {
    const tree = aggregateResults(
      [task({ name: "a", competency: "special", main: 10 }), task({ name: "b", competency: "special", main: 30 }), task({ name: "c", main: 90 })],
      { special: (ts) => ({ entries: { rolled: ts.map((t) => t.name) }, total: 77 }) },
    );
    const id = tree.id as Record<string, Record<string, unknown>>;
    expect(id.special).toMatchObject({ rolled: ["a", "b"], total: 77 });
    expect(id.nlu?.total).toBe(90);
    expect(id.total).toBe((77 + 90) / 2);
  });
});
