/** Test helpers: the copied corpus folder and throwaway config trees in a temp folder. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
export const CORPUS_TASKS = path.join(FIXTURES, "seahelm_tasks");

/** Writes `files` (relative path → text) under a fresh temp folder and returns its path. */
export function writeTree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "yardstick-config-"));
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(root, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}

/** A minimal valid task body (YAML, indented under a task key). */
export function taskYaml(key: string, extra = "", lang = "id", maxTokens = "32"): string {
  return `${key}:
  metadata:
    version: 1
  name: ${key}
  competency: nlu
  metric_file: src/metrics/f1_acc_metric.py
  metric_class: F1AccMetric
  metric: normalized_accuracy
${extra}  languages:
    ${lang}:
      filepath: owner/dataset
      max_tokens: ${maxTokens}
      prompt_template:
        preamble: "Answer with {answer_tag} X"
        task_template: "Text: {text}"
        answer_template: "{answer_tag} {label}"
        answer_tag: "Answer:"
`;
}
