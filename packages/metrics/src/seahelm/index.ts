import type { MetricV1 } from "@yardstick/core";

/** The seahelm metrics, keyed by registry id. */
export const seahelmMetrics: Record<string, MetricV1> = {};
