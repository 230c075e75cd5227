import type { RunManifest } from "@yardstick/run-format";
import { canonicalJson } from "./canonical-json.js";

/** At most this many differences are named; the rest are counted. */
const MAX_NAMED = 4;

/**
 * What makes two manifests different runs, in words: the model, an option, a task's data, or a
 * key of a resolved task (`sentiment/id: generation.max_tokens 64 → 99`), so a refused resume or
 * merge says which setting to put back instead of only that the fingerprints differ.
 */
export function describeRunDifference(stored: RunManifest, wanted: RunManifest): string {
  const a = stored.fingerprintParts;
  const b = wanted.fingerprintParts;
  const found: string[] = [];
  if (a?.model !== b?.model) found.push(`the model (${String(a?.model)} → ${String(b?.model)})`);
  for (const path of differingPaths(a?.options ?? {}, b?.options ?? {}, "")) found.push(`option ${path}`);
  const storedTasks = byKey(stored.tasks);
  const wantedTasks = byKey(wanted.tasks);
  const removed = [...storedTasks.keys()].filter((k) => !wantedTasks.has(k));
  const added = [...wantedTasks.keys()].filter((k) => !storedTasks.has(k));
  if (removed.length > 0) found.push(`tasks only in the stored run: ${removed.join(", ")}`);
  if (added.length > 0) found.push(`tasks only in this run: ${added.join(", ")}`);
  for (const [key, task] of wantedTasks) {
    const before = storedTasks.get(key);
    if (!before) continue;
    if (a?.data?.[key] !== b?.data?.[key]) found.push(`${key}: its data (the file's contents or the dataset revision)`);
    for (const path of differingPaths(withoutDigest(before), withoutDigest(task), "")) found.push(`${key}: ${path}`);
  }
  if (found.length === 0) return "the config, data, model or options changed";
  const named = found.slice(0, MAX_NAMED).join("; ");
  return found.length > MAX_NAMED ? `${named}; and ${found.length - MAX_NAMED} more difference(s)` : named;
}

function byKey(tasks: RunManifest["tasks"] | undefined): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const t of (tasks ?? []) as unknown as Record<string, unknown>[]) out.set(String(t.key), t);
  return out;
}

/** The data digest is reported on its own ("its data"), not as a changed key. */
function withoutDigest(task: Record<string, unknown>): Record<string, unknown> {
  const { dataDigest: _, ...rest } = task;
  return rest;
}

/** Key paths where two JSON values differ, each with both values when they are short. */
function differingPaths(a: unknown, b: unknown, path: string): string[] {
  if (canonicalJson(a) === canonicalJson(b)) return [];
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => differingPaths(a[k], b[k], path === "" ? k : `${path}.${k}`));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((x, i) => differingPaths(x, b[i], `${path}[${i}]`));
  }
  return [`${path || "(whole)"} ${shortValue(a)} → ${shortValue(b)}`];
}

function shortValue(v: unknown): string {
  if (v === undefined) return "(not set)";
  const text = canonicalJson(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
