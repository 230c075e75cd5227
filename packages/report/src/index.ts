export { buildReport, REPORT_SAMPLES_PER_TASK, writeReport, type ReportSettings, type ReportSummary, type WriteReportSettings } from "./write-report.js";
export { type ReadRunOptions, readRun, type ReportTask, type RunData, type SampleJudgement, type StoredSample, type TaskStats } from "./read-run.js";
export { asText, buildReportData, type EmbeddedData, type EmbeddedRun, type EmbeddedSamples, type EmbeddedTask } from "./report-data.js";
export { embedJson, renderHtml } from "./render-html.js";
export {
  type CompareRuns,
  compareWithFirst,
  type EmbeddedComparison,
  type PairedComparisonResult,
  type PairedComparisonRow,
  type PairedItems,
  pairedItems,
} from "./paired-comparison.js";
