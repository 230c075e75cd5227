/** The UltraEval dialect: configs, transforms and the prompt builder. */
export { createUltraEvalDialect, detectUltraEval, loadUltraEval, type UltraEvalDialect, ultraevalDialect } from "./dialect.js";
export { looksLikeUltraEval, readUltraEvalFile, type UltraEvalEntry } from "./files.js";
export {
  createUltraEvalPromptBuilder,
  type UltraEvalPromptBuilderSettings,
  type UltraEvalPromptOptions,
  ultraEvalPrompt,
  ultraEvalPromptOptionsSchema,
} from "./prompt-builder.js";
export {
  createPythonTransformBridge,
  PYTHON_TRANSFORM_WORKER,
  type PythonBridgeOptions,
  type PythonBridgeRequest,
  pythonBridgeStatus,
  pythonProblem,
  type UltraEvalTransformBridge,
} from "./python-transform-bridge.js";
export { isUltraEvalTask, type UltraEvalTaskFacts, ultraEvalRunRecord, ultraEvalTaskFacts } from "./run-record.js";
export * from "./schema.js";
export {
  datasetOf,
  renamedTaskName,
  ULTRAEVAL_DATALOADER_ID,
  ULTRAEVAL_DEFAULT_FEWSHOT_SEED,
  ULTRAEVAL_DIALECT_ID,
  ULTRAEVAL_POSTPROCESS_NAMES,
  ULTRAEVAL_PROMPT_BUILDER_ID,
} from "./task-specs.js";
export * from "./transforms/index.js";
