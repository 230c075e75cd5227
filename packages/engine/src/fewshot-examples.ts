/**
 * Few-shot examples of one sample: the first `task.fewshot` example rows, or, when the task sets
 * `examplesMatch`, the first `task.fewshot` rows that agree with the sample on those fields (SEA-HELM's
 * global_mmlu_lite takes examples of the question's own subject).
 */
import type { Registry, Sample, TaskSpec } from "@yardstick/core";

/** Whether the examples source must be read whole (a per-sample choice) or only its first rows. */
export function needsWholeExamplePool(task: TaskSpec): boolean {
  return (task.examplesMatch?.length ?? 0) > 0;
}

function valueAt(row: Record<string, unknown>, dotted: string): unknown {
  let value: unknown = row;
  for (const key of dotted.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Keys of a field's value that compare equal the way JSON values do (a missing field matches nothing). */
function fieldKey(row: Record<string, unknown>, dotted: string): string | undefined {
  const value = valueAt(row, dotted);
  return value === undefined ? undefined : JSON.stringify(value);
}

export function examplesFor(sample: Sample, pool: readonly Sample[], task: TaskSpec): Sample[] {
  const fields = task.examplesMatch ?? [];
  if (fields.length === 0) return pool.slice(0, task.fewshot);
  const wanted = fields.map((f) => fieldKey(sample.raw, f));
  if (wanted.some((k) => k === undefined)) return [];
  const out: Sample[] = [];
  for (const ex of pool) {
    if (fields.every((f, i) => fieldKey(ex.raw, f) === wanted[i])) out.push(ex);
    if (out.length >= task.fewshot) break;
  }
  return out;
}

/**
 * The example rows a task's samples draw their few-shot examples from: the first `task.fewshot`
 * rows, or the whole source when examples are chosen per sample. Empty for a zero-shot task.
 */
export async function loadExamplePool(registry: Registry, task: TaskSpec, baseDir: string | undefined): Promise<Sample[]> {
  if (task.fewshot <= 0 || !task.examples) return [];
  const loader = registry.get("dataloaders", task.examples.id);
  const out: Sample[] = [];
  for await (const s of loader.load(task.examples.options ?? {}, { baseDir, task })) {
    out.push(s);
    if (out.length >= task.fewshot && !needsWholeExamplePool(task)) break;
  }
  return out;
}
