export * from "./schemas.js";
export {
  type Dataset,
  type DatasetItem,
  firstIssue,
  loadDatasetFile,
  loadResultsFile,
  loadTaskFile,
  parseDataset,
  parseResults,
  parseTask,
  visibleSample,
} from "./load.js";
export { DEFAULT_TEXT_MAX, feedbackProblems } from "./validate-feedback.js";
export { confinedPath, type DataFolder, type LoadedTask, loadDataFolder, TASK_ID } from "./data-folder.js";
export { LabelStore, LabelStoreError, type Labeler, type LabelerProgress } from "./store.js";
export { resultLine, resultsCsv } from "./results-file.js";
export { createLabelingServer, HttpError, type LabelingServer, type LabelingServerOptions } from "./server.js";
export { datasetFromRuns, HIDDEN_RUN_KEYS, type LabelRecord, labelRecords, type RunAnswer, type RunAnswers } from "./run-bridge.js";
export type { DoneRow } from "./store.js";
export { RUBRIC_FEEDBACK_KEY, type RubricScale, rubricFeedback, rubricJudgement, rubricScale, taskFromRubric, withRubric } from "./rubric-feedback.js";
