export * from "./schemas.js";
export * from "./read.js";
export * from "./json-schema.js";
export * from "./run-stats.js";
export * from "./jsonl-lines.js";
