import type { TaskSpec } from "@yardstick/core";
import { RUN_FORMAT_VERSION, type ModelRole, type RunManifest, type Shard } from "@yardstick/run-format";
import { runFingerprint } from "./fingerprint.js";

export interface ManifestSettings {
  /** The resolved tasks (with `dataDigest` filled in, see `digestTaskData`). */
  tasks: readonly TaskSpec[];
  /** The evaluated model; `identity` is the one that keys the request cache. */
  model: ModelRole;
  /** The judge model, when a task has a judge: recorded as role "judge", its identity part of the fingerprint. */
  judgeModel?: ModelRole;
  /** Options that change what is sent or kept (they enter the fingerprint), e.g. { limit, seed }. */
  options: Record<string, unknown>;
  /** Options kept for the record only (concurrency, config paths, ...). */
  recordedOptions?: Record<string, unknown>;
  shard?: Shard;
  /** Versions of the yardstick packages in use (the runner reads them from their package.json). */
  versions?: Record<string, string>;
}

/** The run.json of a new run: format version, fingerprint and its parts, models by role, the tasks. */
export function createRunManifest(s: ManifestSettings): RunManifest {
  // The judge's identity changes what a judged run holds, so it enters the fingerprint (as an
  // option: runs without a judge keep the fingerprint they always had).
  const options = s.judgeModel ? { ...s.options, judgeModel: s.judgeModel.identity } : s.options;
  const { fingerprint, parts } = runFingerprint({ tasks: s.tasks, modelIdentity: s.model.identity, options });
  const versions = s.versions ?? {};
  return {
    formatVersion: RUN_FORMAT_VERSION,
    yardstickVersion: versions["@yardstick/engine"] ?? "unknown",
    versions,
    fingerprint,
    fingerprintParts: parts,
    createdAt: new Date().toISOString(),
    ...(s.shard ? { shard: s.shard } : {}),
    models: { generate: s.model, ...(s.judgeModel ? { judge: s.judgeModel } : {}) },
    options: { ...options, ...s.recordedOptions },
    tasks: s.tasks as unknown as RunManifest["tasks"],
  };
}
