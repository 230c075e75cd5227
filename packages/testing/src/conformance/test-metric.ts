import { planConformanceChecks } from "./plan-checks.js";
import type { MetricConformanceCase, MetricConformanceOptions, MetricV1 } from "./types.js";

type Vitest = typeof import("vitest");

// vitest is an optional peer: load it only if it is installed, so that importing @yardstick/testing
// for its servers never requires a test framework. (Importing vitest outside a test run is harmless.)
const vitest: Vitest | undefined = await import("vitest").catch(() => undefined);

/**
 * Registers a vitest `describe` block with one `it` per conformance check. Call it at the top level
 * of a `*.test.ts` file. Outside vitest, use `checkMetricConformance` instead.
 */
export function testMetric(metric: MetricV1, cases: readonly MetricConformanceCase[], opts: MetricConformanceOptions = {}): void {
  if (vitest === undefined) {
    throw new Error("testMetric needs vitest (a peer dependency of @yardstick/testing); use checkMetricConformance with other test runners");
  }
  const { describe, it } = vitest;
  const label = typeof (metric as { id?: unknown } | null)?.id === "string" ? metric.id : "(metric without id)";
  try {
    describe(`metric conformance: ${label}`, () => {
      for (const check of planConformanceChecks(metric, cases, opts)) {
        it(check.name, async () => {
          const problems = await check.run();
          if (problems.length > 0) throw new Error(`${check.name}:\n  - ${problems.join("\n  - ")}`);
        });
      }
    });
  } catch (error) {
    // vitest's own message for this case is an opaque TypeError about its internal state.
    throw new Error("testMetric must be called at the top level of a file run by vitest; use checkMetricConformance elsewhere", { cause: error });
  }
}
