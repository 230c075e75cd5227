import { describeError } from "./run-compute.js";
import { planConformanceChecks } from "./plan-checks.js";
import type { ConformanceFailure, ConformanceReport, MetricConformanceCase, MetricConformanceOptions, MetricV1 } from "./types.js";

/**
 * Runs every conformance check on a metric and returns what failed, without any test framework:
 * usable from node:test, a CLI, or a plugin's own CI script.
 */
export async function checkMetricConformance(
  metric: MetricV1,
  cases: readonly MetricConformanceCase[],
  opts: MetricConformanceOptions = {},
): Promise<ConformanceReport> {
  const checks = planConformanceChecks(metric, cases, opts);
  const failures: ConformanceFailure[] = [];
  for (const check of checks) {
    let problems: string[];
    try {
      problems = await check.run();
    } catch (error) {
      problems = [`the check itself failed: ${describeError(error)}`];
    }
    for (const message of problems) {
      failures.push(check.caseName === undefined ? { check: check.name, message } : { check: check.name, caseName: check.caseName, message });
    }
  }
  const metricId = typeof (metric as { id?: unknown } | null)?.id === "string" ? metric.id : "(no id)";
  return { metricId, checks: checks.map((c) => c.name), failures, passed: failures.length === 0 };
}

/** One line per failure, for printing. */
export function formatConformanceReport(report: ConformanceReport): string {
  if (report.passed) return `metric ${report.metricId}: all ${report.checks.length} conformance checks passed`;
  const lines = report.failures.map((f) => `  - ${f.check}: ${f.message}`);
  return [`metric ${report.metricId}: ${report.failures.length} conformance problem(s)`, ...lines].join("\n");
}
