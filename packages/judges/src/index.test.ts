import { judgedMetricFor } from "@yardstick/config";
import { describe, expect, it } from "vitest";
import { builtinJudgeMetrics, builtinJudges } from "./index.js";

const CLASSES = [
  "PairwiseLLMJudgeMetric",
  "CriteriaJudgeMetric",
  "LindseaJudgeMetric",
  "MTBenchJudgeMetric",
  "HealthbenchJudgeMetric",
  "AALCRJudgeMetric",
  "MathVisionJudgeMetric",
  "BabyVisionJudgeMetric",
];

describe("builtin judges and metrics", () => {
  it("are keyed by their own ids", () => {
    for (const [id, judge] of Object.entries(builtinJudges)) expect(judge.id).toBe(id);
    for (const [id, metric] of Object.entries(builtinJudgeMetrics)) expect(metric.id).toBe(id);
    expect(Object.keys(builtinJudges).sort()).toEqual(["rubric", "seahelm-criteria", "seahelm-healthbench", "seahelm-pairwise", "seahelm-verdict"]);
  });

  it("cover every judge and metric the SEA-HELM dialect maps a judged metric class to", () => {
    for (const cls of CLASSES) {
      const mapped = judgedMetricFor(cls);
      expect(mapped, cls).toBeDefined();
      expect(builtinJudges[mapped!.judge], `${cls} → judge ${mapped!.judge}`).toBeDefined();
      expect(builtinJudgeMetrics[mapped!.metric], `${cls} → metric ${mapped!.metric}`).toBeDefined();
    }
    expect(builtinJudgeMetrics["rubric-judge"]).toBeDefined();
  });
});
