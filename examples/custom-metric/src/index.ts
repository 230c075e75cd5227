import type { PluginModule } from "@yardstick/core";
import { createKeywordCoverageMetric } from "./keyword-coverage.js";

export { createKeywordCoverageMetric, KEYWORD_COVERAGE_ID } from "./keyword-coverage.js";
export { type KeywordCoverageOptions, keywordCoverageOptionsSchema, parseKeywordCoverageOptions } from "./options.js";

/** What the runner merges into its registry when this package is named in `plugins:` or `--plugin`. */
const plugins: PluginModule = { metrics: { "keyword-coverage": createKeywordCoverageMetric() } };

export default plugins;
