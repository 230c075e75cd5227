export * from "./constants.js";
export { SpatialGenerationError } from "./errors.js";
export type { Shape, BBox, ShapeJson } from "./shape.js";
export { bbox, shapeLabel, shapeMeasure, inBounds, shapeToJson, shapeFromJson } from "./shape.js";
export { shapePolygon, shapesIntersect, polygonsIntersect } from "./geometry.js";
// The canvas generator draws from createRng (@yardstick/core), seeded with a string key.
export { createRng, type Rng } from "@yardstick/core";
export { sampleShapes } from "./sampling.js";
export { getRelationships, relationsOf, type Relations } from "./relations.js";
export { fullDescription, partialDescription, coordinatesDescription, directionPhrase } from "./descriptions.js";
export { describeCanvas, type CanvasDescription } from "./describe.js";
export { SPATIAL_TASKS, TASKS_BY_NAME } from "./tasks/index.js";
export type { QA, SpatialTask, ExpectedAnswer } from "./tasks/types.js";
export {
  generateDataset,
  generateCanvas,
  resolveOptions,
  optionsFingerprint,
  type GenerateOptions,
  type CanvasRecord,
  type ResolvedOptions,
} from "./generate.js";
export { parseOriginalFile, canvasShapes, toOriginalJson, originalFileSchema } from "./original-format.js";
export { itemsOf, TASK_DESCRIPTIONS, IMAGE_TASKS, type SpatialItem } from "./rows.js";
export { writeDataset, seahelmRow, ultraevalRow, type WriteOptions, type WriteSummary, type OutputFormat } from "./write-dataset.js";
export { seahelmConfigYaml, seahelmTaskKey } from "./seahelm-config.js";
export { promptTemplate, buildPromptText, fillTemplate, ANSWER_TAG } from "./prompts.js";
export { lenientScore, strictScore, normalizeAnswer, defaultScore, transitivityScore, coordinateScore, shuffleScore } from "./scoring.js";
export { spatialMetrics, createSpatialLenientMetric, createSpatialStrictMetric } from "./metrics.js";
export { solveQuestion, type SolverAnswer } from "./solver/answer.js";
export { solveSpatialPrompt } from "./solver/prompt.js";
export { auditDirectory, formatAuditReport, auditOne, type AuditReport, type AuditIssue } from "./audit.js";
export { renderSvg } from "./render/svg.js";
export { renderPng, rasterize } from "./render/png.js";
export { encodePng } from "./render/png-encode.js";
export { runSpatialCli, SPATIAL_HELP, type CliIo } from "./run-cli.js";
export { checklistStats, type ChecklistStats } from "./checklist.js";
