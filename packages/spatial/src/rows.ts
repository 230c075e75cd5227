import type { DescriptionType, TaskName } from "./constants.js";
import type { CanvasRecord, ResolvedOptions } from "./generate.js";
import { imageDescription } from "./prompts.js";
import type { QA } from "./tasks/types.js";

/** One evaluation item: a (canvas, task, description type) with its question and gold answer. */
export interface SpatialItem {
  id: string;
  task: TaskName;
  descriptionType: DescriptionType;
  canvas: string;
  index: number;
  description: string;
  question: string;
  answer: string;
  /** The few-shot (question, answer) pairs generated with the question, upstream style. */
  fewshot: [string, string][];
}

/** Which description types each task is asked with (the task-owned ones only go with their task). */
export const TASK_DESCRIPTIONS: Record<TaskName, DescriptionType[]> = {
  existence: ["full", "partial", "coordinates"],
  count: ["full", "partial", "coordinates"],
  coordinate: ["full", "partial", "coordinates"],
  existence_tracking: ["full", "partial", "coordinates"],
  transitivity: ["transitivity"],
  shuffle_tracking: ["shuffle_tracking"],
};

/** Tasks whose answer can be read from a picture of the canvas (shuffle tracking needs its text). */
export const IMAGE_TASKS: readonly TaskName[] = ["existence", "count", "transitivity", "coordinate", "existence_tracking"];

export function itemId(fingerprint: string, task: TaskName, dtype: DescriptionType, index: number, fewshot = false): string {
  return `spatial-${fingerprint}-${task}-${dtype}${fewshot ? "-fewshot" : ""}-${index}`;
}

/** Upstream's loader puts the few-shot pairs after the description as "\nQuestion: q\nAnswer: a". */
export function withFewshot(description: string, pairs: readonly [string, string][]): string {
  return description + pairs.map(([q, a]) => `\nQuestion: ${q}\nAnswer: ${a}`).join("");
}

/** Joins the canvas text and the tracking operations (upstream concatenates them directly). */
function withTracking(base: string, ops: string | undefined, joinDirectly: boolean): string {
  if (ops === undefined) return base;
  return joinDirectly ? base + ops : `${base} ${ops}`;
}

export function itemsOf(
  record: CanvasRecord,
  options: ResolvedOptions,
  fingerprint: string,
  images: boolean,
  inlineFewshot = false,
): SpatialItem[] {
  const out: SpatialItem[] = [];
  const n = record.shapes.length;
  for (const task of options.tasks) {
    const qa: QA[] | undefined = record.questions[task];
    if (qa === undefined || qa.length === 0) continue;
    const [first, ...rest] = qa as [QA, ...QA[]];
    const fewshot = rest.map(([q, a]): [string, string] => [q, String(a)]);
    const ops = task === "existence_tracking" ? record.descriptions.existence_tracking : undefined;
    const dtypes: DescriptionType[] = [...TASK_DESCRIPTIONS[task]];
    if (images && IMAGE_TASKS.includes(task)) dtypes.push("image");
    for (const dtype of dtypes) {
      const base = dtype === "image" ? imageDescription(n) : record.descriptions[dtype];
      if (base === undefined) continue;
      out.push({
        id: itemId(fingerprint, task, dtype, record.index, inlineFewshot),
        task,
        descriptionType: dtype,
        canvas: record.name,
        index: record.index,
        description: ((d) => (inlineFewshot ? withFewshot(d, fewshot) : d))(withTracking(base, ops, options.mode === "compat" && dtype !== "image")),
        question: first[0],
        answer: String(first[1]),
        fewshot,
      });
    }
  }
  return out;
}

/** The SEA-HELM task key of a spatial task (its image variant ends in -image); also its data file name. */
export function seahelmTaskKey(task: TaskName, image: boolean): string {
  return `spatial-${task.replaceAll("_", "-")}${image ? "-image" : ""}`;
}
