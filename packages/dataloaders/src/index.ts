import type { DataloaderV1 } from "@yardstick/core";
import { createHuggingFaceDataloader } from "./huggingface.js";
import { createSeahelmAaLcrDataloader } from "./seahelm-aa-lcr.js";
import { createSeahelmCweDataloader } from "./seahelm-cwe.js";
import { createSeahelmHealthbenchDataloader } from "./seahelm-healthbench.js";
import { createSeahelmLiveCodeBenchDataloader } from "./seahelm-livecodebench.js";
import { createSeahelmLocalDataloader } from "./seahelm-local.js";
import { createSeahelmNiahDataloader } from "./seahelm-niah.js";

export * from "./hub-snapshot.js";
export * from "./huggingface.js";
export { sha256File } from "@yardstick/core";
export * from "./images.js";
export * from "./read-rows.js";
export * from "./seahelm-aa-lcr.js";
export * from "./seahelm-cwe.js";
export * from "./seahelm-healthbench.js";
export * from "./seahelm-livecodebench.js";
export * from "./seahelm-local.js";
export * from "./seahelm-niah.js";
export * from "./seahelm-row.js";
export * from "./ultraeval-dataloader.js";
export * from "./ultraeval-rows.js";

/**
 * Dataloaders of this package that need no settings, by id (the runner registers a `huggingface`
 * instance with its token and cache folder, and the `ultraeval` one with the transforms of `@yardstick/config`).
 */
export const builtinDataloaders: Record<string, DataloaderV1> = {
  "seahelm-local": createSeahelmLocalDataloader(),
  huggingface: createHuggingFaceDataloader(),
  // These read their Hub dataset's files from the Hugging Face cache, downloading what is missing from huggingface.co (the runner passes HF_HUB_CACHE, HF_ENDPOINT, HF_TOKEN).
  "seahelm-healthbench": createSeahelmHealthbenchDataloader(),
  "seahelm-aa-lcr": createSeahelmAaLcrDataloader(),
  "seahelm-livecodebench": createSeahelmLiveCodeBenchDataloader(),
  // SEA-HELM's generated long-context tasks, seeded as upstream; they read local books and word lists.
  "seahelm-niah": createSeahelmNiahDataloader(),
  "seahelm-cwe": createSeahelmCweDataloader(),
};
