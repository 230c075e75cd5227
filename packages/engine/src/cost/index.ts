export * from "./budget.js";
export * from "./dry-run-provider.js";
export * from "./estimate-run.js";
export * from "./price-table.js";
export * from "./token-count.js";
