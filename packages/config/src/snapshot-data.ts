/**
 * SEA-HELM tasks whose dataloader reads the files of a Hub dataset repository itself (its own
 * `dataloader_class`), and the yardstick dataloader doing the same: HealthBench (one JSONL file per
 * task, the rows' own conversations as prompts), AA-LCR (questions in a CSV, documents in a zip) and
 * LiveCodeBench (the release files up to the task's version).
 */
import type { PluginRef } from "@yardstick/core";
import { SEAHELM_CONVERSATION_PROMPT_ID } from "./seahelm-conversation-prompt.js";

const SNAPSHOT_DATA: Record<string, (repo: string, taskKey: string) => PluginRef> = {
  // The task key names the file (healthbench, healthbench_consensus, healthbench_hard), as upstream.
  HealthBenchDataloader: (repo, taskKey) => ({ id: "seahelm-healthbench", options: { repo, subset: taskKey } }),
  AALCRDataloader: (repo) => ({ id: "seahelm-aa-lcr", options: { repo } }),
  // livecodebench_v3 reads releases 1-3, as upstream.
  LiveCodeBenchDataloader: (repo, taskKey) => ({ id: "seahelm-livecodebench", options: { repo, version: taskKey.replace(/^livecodebench_/, "") } }),
};

/** The data ref of a task read by one of these dataloaders, else undefined. */
export function snapshotDataRef(dataloaderClass: string | undefined, filepath: string, taskKey: string): PluginRef | undefined {
  return SNAPSHOT_DATA[dataloaderClass ?? ""]?.(filepath, taskKey);
}

/** HealthBench's prompt is the row's conversation, not its prompt_template. `baseOptions`: the base-model prompt options, if any. */
export function conversationPromptRef(dataloaderClass: string | undefined, baseOptions: Record<string, unknown>): PluginRef | undefined {
  if (dataloaderClass !== "HealthBenchDataloader") return undefined;
  return { id: SEAHELM_CONVERSATION_PROMPT_ID, options: { ...baseOptions } };
}
