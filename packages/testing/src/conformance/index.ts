export { checkMetricConformance, formatConformanceReport } from "./check-metric-conformance.js";
export { type DataloaderConformanceCase, type DataloaderConformanceCases, planDataloaderChecks } from "./dataloader-checks.js";
export type { BrokenDialectConfig, DialectConformanceCases, DialectFixture } from "./dialect-checks.js";
export { planDialectChecks } from "./dialect-checks.js";
export { plainDataProblems } from "./plain-data.js";
export { checkOptionsAccepts, checkOptionsRejects, type OptionsChecker } from "./options-checks.js";
export { declaresOrderIndependence, planConformanceChecks } from "./plan-checks.js";
export {
  type PostprocessorConformanceCases,
  type PostprocessorExample,
  planPostprocessorChecks,
  ROBUSTNESS_INPUTS,
} from "./postprocessor-checks.js";
export {
  type ProviderConformanceOptions,
  type ProviderFactory,
  type ProviderSettings,
  planProviderChecks,
} from "./provider-checks.js";
export { formatPluginConformanceReport, runConformanceChecks } from "./run-checks.js";
export { seededShuffle } from "./shuffle.js";
export { taskSpecSchema } from "./task-spec-schema.js";
export { responseProblems } from "./validate-response.js";
export { checkDataloaderConformance, testDataloader } from "./test-dataloader.js";
export { checkDialectConformance, testDialect } from "./test-dialect.js";
export {
  GARBAGE_REPLIES,
  type JudgeConformanceCase,
  type JudgeConformanceCases,
  type JudgeReplyExample,
  planJudgeChecks,
  textResponse,
} from "./judge-checks.js";
export { checkJudgeConformance, testJudge } from "./test-judge.js";
export { testMetric } from "./test-metric.js";
export { checkProviderConformance, testProvider } from "./test-provider.js";
export { checkPostprocessorConformance, testPostprocessor } from "./test-postprocessor.js";
export type {
  ConformanceCheck,
  ConformanceFailure,
  ConformanceReport,
  MetricConformanceCase,
  MetricConformanceOptions,
  PluginConformanceReport,
} from "./types.js";
