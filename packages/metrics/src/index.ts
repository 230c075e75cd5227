import type { MetricV1 } from "@yardstick/core";
import { seahelmMetrics } from "./seahelm/index.js";
import { textMetrics } from "./text/index.js";
import { ultraevalMetrics } from "./ultraeval/index.js";

export * from "./score-cli/index.js";
export * from "./seahelm/index.js";
export * from "./stats/index.js";
export * from "./text/index.js";
export * from "./ultraeval/index.js";

/** Every built-in metric, keyed by registry id. */
export const builtinMetrics: Record<string, MetricV1> = {
  ...seahelmMetrics,
  ...ultraevalMetrics,
  ...textMetrics,
};
