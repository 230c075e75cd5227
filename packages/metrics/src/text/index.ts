import type { MetricV1 } from "@yardstick/core";

/** The text metrics, keyed by registry id. */
export const textMetrics: Record<string, MetricV1> = {};
