import type { MetricV1 } from "@yardstick/core";

/** The ultraeval metrics, keyed by registry id. */
export const ultraevalMetrics: Record<string, MetricV1> = {};
