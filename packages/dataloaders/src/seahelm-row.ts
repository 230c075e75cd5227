/** The SEA-HELM row format, checked with zod and turned into a yardstick Sample. */
import { DataLoadError, type Sample } from "@yardstick/core";
import { z } from "zod";

const idSchema = z.union([z.string(), z.number()]);

export const seaHelmRowSchema = z.looseObject({
  id: idSchema.optional(),
  question_id: idSchema.optional(),
  prompts: z.array(z.record(z.string(), z.unknown())).min(1),
  label: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

export interface RowToSampleOptions {
  /** Column holding the gold answer (default "label"; safeguard tasks use "prompt_label"/"response_label"). */
  labelField?: string;
  /** What to do with a row that has neither `id` nor `question_id`: use its 0-based index, or fail. */
  idFallback?: "index" | "error";
}

export function rowToSample(
  row: unknown,
  where: { file: string; line: number; index: number },
  options: RowToSampleOptions = {},
): Sample {
  const parsed = seaHelmRowSchema.safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.length > 0 ? issue.path.join(".") : "row";
    throw new DataLoadError(`bad row: ${at}: ${issue.message} (expected an object with a non-empty "prompts" list of objects)`, {
      file: where.file,
      line: where.line,
    });
  }
  const data = parsed.data;
  const rawId = data.id ?? data.question_id;
  let id: string;
  if (rawId !== undefined) id = String(rawId);
  else if ((options.idFallback ?? "index") === "index") id = String(where.index);
  else throw new DataLoadError('row has neither "id" nor "question_id"', { file: where.file, line: where.line });
  const labelField = options.labelField ?? "label";
  const sample: Sample = { id, prompts: data.prompts, raw: data as Record<string, unknown> };
  const label = (data as Record<string, unknown>)[labelField];
  if (label !== undefined) sample.label = label;
  if (data.metadata) sample.metadata = data.metadata;
  return sample;
}
