import type { JudgeV2 } from "@yardstick/core";
import { type JudgeConformanceCases, planJudgeChecks } from "./judge-checks.js";
import { registerConformanceChecks } from "./register-checks.js";
import { runConformanceChecks } from "./run-checks.js";
import type { PluginConformanceReport } from "./types.js";

/** Registers the judge conformance suite as a vitest `describe` block (call at a test file's top level). */
export function testJudge(judge: JudgeV2, cases: JudgeConformanceCases): void {
  const label = typeof (judge as { id?: unknown } | null)?.id === "string" ? judge.id : "(judge without id)";
  registerConformanceChecks(`judge conformance: ${label}`, () => planJudgeChecks(judge, cases), {
    suiteName: "testJudge",
    checkerName: "checkJudgeConformance",
  });
}

/** Runs the judge suite without a test framework and returns every problem found. */
export function checkJudgeConformance(judge: JudgeV2, cases: JudgeConformanceCases): Promise<PluginConformanceReport> {
  const id = typeof (judge as { id?: unknown } | null)?.id === "string" ? judge.id : "(no id)";
  return runConformanceChecks("judge", id, planJudgeChecks(judge, cases));
}
