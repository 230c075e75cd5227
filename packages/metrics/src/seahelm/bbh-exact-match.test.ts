import { describe, expect, it } from "vitest";
import { input } from "./__fixtures__/inputs.js";
import { createSeahelmBbhExactMatchMetric } from "./bbh-exact-match.js";

describe("seahelm-bbh-exact-match", () => {
  it("requires exact string equality (case and spacing matter)", async () => {
    const metric = createSeahelmBbhExactMatchMetric();
    const r = await metric.compute(
      [input("1", "] ) }", "] ) }"), input("2", "apple banana", "Apple banana"), input("3", "24", 24), input("4", "", "x")],
      {},
    );
    expect(r.scores).toEqual({ exact_match: 50, normalized_exact_match: 50 });
    expect(r.perSample.map((s) => s.scores.normalized_exact_match)).toEqual([100, 0, 100, 0]);
  });
});
