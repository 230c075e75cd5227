export { checkMetricConformance, formatConformanceReport } from "./check-metric-conformance.js";
export { declaresOrderIndependence, planConformanceChecks } from "./plan-checks.js";
export { seededShuffle } from "./shuffle.js";
export { testMetric } from "./test-metric.js";
export type {
  ConformanceCheck,
  ConformanceFailure,
  ConformanceReport,
  MetricConformanceCase,
  MetricConformanceOptions,
} from "./types.js";
