import { readFileSync } from "node:fs";
import type { MetricInput } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { ultraevalMeanAggregate, ultraevalMetrics, ultraevalPassAtK } from "./index.js";

type MetricCase = { metric: string; doc: Record<string, unknown>; ground_truth: unknown; results: unknown[]; value: number };
type AggregatorCase = { aggregator: string; in: unknown[]; value: number | Record<string, number> };
const golden = JSON.parse(readFileSync(new URL("./__fixtures__/golden_metrics.json", import.meta.url), "utf8")) as (MetricCase | AggregatorCase)[];

// golden_metrics.json writes a float NaN as the string "NaN" (JSON has none); turn it back into NaN.
const revive = (v: unknown): unknown => (v === "NaN" ? Number.NaN : Array.isArray(v) ? v.map(revive) : v);

describe("UltraEval metrics against upstream golden values", () => {
  golden.forEach((c, i) => {
    if ("metric" in c) {
      it(`${i}: ${c.metric} ${JSON.stringify(c.results)} vs ${JSON.stringify(c.ground_truth)}`, async () => {
        const metric = ultraevalMetrics[`ultraeval:${c.metric}`];
        expect(metric).toBeDefined();
        const input: MetricInput = {
          sampleId: `golden-${i}`,
          prediction: revive(c.results),
          reference: c.ground_truth,
          sample: { id: `golden-${i}`, prompts: [], raw: c.doc },
        };
        const result = await metric!.compute([input], {});
        expect(result.perSample[0]!.scores[c.metric]).toBe(c.value);
        expect(result.scores[c.metric]).toBe(c.value);
      });
    } else {
      it(`${i}: ${c.aggregator} ${JSON.stringify(c.in)}`, async () => {
        if (c.aggregator === "pass_k") {
          expect(ultraevalPassAtK(c.in)).toEqual(c.value);
          const result = await ultraevalMetrics["ultraeval:pass_k"]!.compute([{ sampleId: "a", prediction: c.in, reference: null }], {});
          expect(result.scores).toEqual(c.value);
        } else {
          expect(ultraevalMeanAggregate(c.in)).toBe(c.value);
          const result = await ultraevalMetrics["ultraeval:mean"]!.compute([{ sampleId: "a", prediction: c.in, reference: null }], {});
          expect(result.scores["mean"]).toBe(c.value);
        }
      });
    }
  });
});
