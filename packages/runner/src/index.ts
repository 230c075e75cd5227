export { createBuiltinRegistry, loadPluginPackages } from "./builtins.js";
export type { CliIO } from "./io.js";
export { main } from "./main.js";
export { createModel, preflight } from "./model-setup.js";
export { runCommand } from "./run-command.js";
export { formatResultsTable } from "./table.js";
export { loadTaskSpecs } from "./tasks.js";
export { spatialSolverPolicy } from "./spatial-policy.js";
export { tuneHeapForBatchRuns } from "./heap-tuning.js";
