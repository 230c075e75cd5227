/** `yardstick validate`: load configs and report every problem instead of stopping at the first. */
import { ConfigError } from "@yardstick/core";
import { checkJudgeConfigs } from "./check-judge-config.js";
import { checkTemplateKeys } from "./check-template-keys.js";
import { type LoadSeaHelmOptions, loadSeaHelmConfigsCollecting } from "./load-seahelm.js";

export interface ConfigDiagnostic {
  file: string;
  line: number;
  column: number;
  keyPath: string[];
  message: string;
}

export interface ValidationReport {
  ok: boolean;
  diagnostics: ConfigDiagnostic[];
  /** Number of tasks that loaded and passed the schema. */
  taskCount: number;
}

export async function validateConfigs(paths: string[], options: LoadSeaHelmOptions = {}): Promise<ValidationReport> {
  const errors: ConfigError[] = [];
  let taskCount = 0;
  try {
    const loaded = await loadSeaHelmConfigsCollecting(paths, options, errors);
    taskCount = loaded.tasks.size;
    await checkTemplateKeys(loaded, errors);
    checkJudgeConfigs(loaded, errors);
  } catch (e) {
    if (!ConfigError.isInstance(e)) throw e;
    errors.push(e);
  }
  const diagnostics = errors.map((e) => ({
    file: e.file ?? "",
    line: e.line ?? 0,
    column: e.column ?? 0,
    keyPath: e.keyPath.map(String),
    message: e.message,
  }));
  return { ok: diagnostics.length === 0, diagnostics, taskCount };
}
