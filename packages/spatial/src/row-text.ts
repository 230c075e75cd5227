import type { DescriptionType, TaskName } from "./constants.js";
import type { CanvasRecord, ResolvedOptions } from "./generate.js";
import { jsonBody } from "./json-text.js";
import { imageDescription } from "./prompts.js";
import { IMAGE_TASKS, itemId, seahelmTaskKey, TASK_DESCRIPTIONS, withFewshot } from "./rows.js";
import type { QA } from "./tasks/types.js";

/** One JSONL line of a SEA-HELM/UltraEval data file, and the file it belongs to. */
export interface RowLine {
  file: string;
  task: TaskName;
  image: boolean;
  /**
   * The JSON text without the newline is `head + description + tail`: `description` is the escaped
   * description without its quotes, one flat string shared by the rows of a canvas, so a writer can
   * copy it as is instead of flattening a concatenation of several KB per row.
   */
  head: string;
  description: string;
  tail: string;
}

/** The whole line (without the newline). */
export function lineText(row: RowLine): string {
  return row.head + row.description + row.tail;
}

const q = JSON.stringify;

/**
 * The rows of one canvas as JSON text: the same bytes as `JSON.stringify(seahelmRow(item, ...))` /
 * `JSON.stringify(ultraevalRow(item, ...))` for every item of `itemsOf` (tested), written directly.
 * It is the hot path of these layouts: a canvas has 14 rows but only 8 distinct descriptions of a
 * few KB each, so each description is escaped once and the per-row suffixes (tracking operations,
 * few-shot pairs) are escaped on their own. Splitting a string before escaping gives the same JSON
 * because JSON.stringify escapes code unit by code unit (the generated text is ASCII, so no
 * surrogate pair is ever split).
 */
export function rowLines(
  record: CanvasRecord,
  options: ResolvedOptions,
  fingerprint: string,
  format: "seahelm" | "ultraeval",
  images: boolean,
  inlineFewshot: boolean,
  imageRef: () => string,
): RowLine[] {
  const out: RowLine[] = [];
  const n = record.shapes.length;
  const compat = options.mode === "compat";
  // Escaped descriptions without their quotes, so a suffix can be appended.
  const escaped = new Map<DescriptionType, string>();
  const escapedOf = (dtype: DescriptionType): string | undefined => {
    let e = escaped.get(dtype);
    if (e === undefined) {
      const base = dtype === "image" ? imageDescription(n) : record.descriptions[dtype];
      if (base === undefined) return undefined;
      e = jsonBody(base);
      escaped.set(dtype, e);
    }
    return e;
  };
  const canvasJ = q(record.name);
  // SEA-HELM metadata after `canvas`: the same for every row of the canvas.
  const metaTail = format === "seahelm" ? `,"index":${q(record.index)},"n_shapes":${q(options.shapes)},"mode":${q(options.mode)},"seed":${q(options.seed)},"fewshot":` : "";
  let imageJ: string | undefined;
  for (const task of options.tasks) {
    const qa: QA[] | undefined = record.questions[task];
    if (qa === undefined || qa.length === 0) continue;
    const [first, ...rest] = qa as [QA, ...QA[]];
    const fewshot = rest.map(([fq, fa]): [string, string] => [fq, String(fa)]);
    const fewshotJ = `[${fewshot.map(([fq, fa]) => `[${q(fq)},${q(fa)}]`).join(",")}]`;
    const ops = task === "existence_tracking" ? record.descriptions.existence_tracking : undefined;
    const questionJ = q(first[0]);
    const answerJ = q(String(first[1]));
    const taskJ = q(task);
    const dtypes: DescriptionType[] = [...TASK_DESCRIPTIONS[task]];
    if (images && IMAGE_TASKS.includes(task)) dtypes.push("image");
    for (const dtype of dtypes) {
      const body = escapedOf(dtype);
      if (body === undefined) continue;
      const isImage = dtype === "image";
      // What itemsOf appends to the description: tracking operations, then inline few-shot pairs.
      let suffix = ops === undefined ? "" : compat && !isImage ? ops : ` ${ops}`;
      if (inlineFewshot) suffix = withFewshot(suffix, fewshot);
      const descriptionTail = `${jsonBody(suffix)}"`;
      // Ids are made of the hex fingerprint, task and type names and the index: nothing to escape.
      const idJ = `"${itemId(fingerprint, task, dtype, record.index, inlineFewshot)}"`;
      if (isImage) imageJ ??= q(imageRef());
      const imagePart = isImage ? `,"image":${imageJ}` : "";
      const dtypeJ = q(dtype);
      const [head, tail] =
        format === "seahelm"
          ? [
              `{"id":${idJ},"prompts":[{"description":"`,
              `${descriptionTail},"question":${questionJ}}],"label":${answerJ}${imagePart},` +
                `"metadata":{"task":${taskJ},"description_type":${dtypeJ},"canvas":${canvasJ}${metaTail}${fewshotJ}}}`,
            ]
          : [
              `{"id":${idJ},"passage":"`,
              `${descriptionTail},"question":${questionJ},"target_scores":{},"answer":${answerJ}${imagePart},` +
                `"task":${taskJ},"description_type":${dtypeJ},"canvas":${canvasJ}}`,
            ];
      out.push({ file: `${seahelmTaskKey(task, isImage)}.jsonl`, task, image: isImage, head, description: body, tail });
    }
  }
  return out;
}
