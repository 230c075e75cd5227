/** The UltraEval dialect: configs, transforms and the prompt builder. */
export { createUltraEvalDialect, detectUltraEval, loadUltraEval, type UltraEvalDialect, ultraevalDialect } from "./dialect.js";
export { looksLikeUltraEval, readUltraEvalFile, type UltraEvalEntry } from "./files.js";
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
export {
  createPythonTransformBridge,
  type PythonBridgeOptions,
  type PythonBridgeRequest,
  PYTHON_TRANSFORM_WORKER,
  pythonBridgeStatus,
  pythonProblem,
  type UltraEvalTransformBridge,
} from "./python-transform-bridge.js";
export {
  createUltraEvalPromptBuilder,
  ultraEvalPrompt,
  type UltraEvalPromptBuilderSettings,
  type UltraEvalPromptOptions,
  ultraEvalPromptOptionsSchema,
} from "./prompt-builder.js";
