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

type SeaHelmRow = z.output<typeof seaHelmRowSchema>;

const SHAPE_KEYS = new Set(["id", "question_id", "prompts", "label", "metadata"]);
const isId = (v: unknown) => v === undefined || typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
/** A JSON object zod's record/object accepts and copies key for key (no own `__proto__`, which zod drops). */
const isPlainRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !Object.hasOwn(v, "__proto__");

/**
 * `seaHelmRowSchema.parse(row)` for the usual row, checked by hand: zod was about half of the
 * per-row cost of loading. Builds the same output (schema keys first, then the other columns in
 * row order; `prompts` and `metadata` entries copied). Returns undefined for anything it is not
 * sure of, and the caller falls back to zod, which then accepts the row or reports its error.
 */
function fastRow(row: unknown): SeaHelmRow | undefined {
  if (!isPlainRecord(row)) return undefined;
  const { id, question_id: questionId, prompts, metadata } = row;
  if (!isId(id) || !isId(questionId) || !Array.isArray(prompts) || prompts.length === 0) return undefined;
  const promptsOut: Record<string, unknown>[] = [];
  for (const p of prompts) {
    if (!isPlainRecord(p)) return undefined;
    promptsOut.push({ ...p });
  }
  if (metadata !== undefined && metadata !== null && !isPlainRecord(metadata)) return undefined;
  const out: Record<string, unknown> = {};
  if ("id" in row) out.id = id;
  if ("question_id" in row) out.question_id = questionId;
  out.prompts = promptsOut;
  if ("label" in row) out.label = row.label;
  if ("metadata" in row) out.metadata = metadata === null || metadata === undefined ? metadata : { ...metadata };
  for (const key in row) if (!SHAPE_KEYS.has(key)) out[key] = row[key];
  return out as SeaHelmRow;
}

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
  const fast = fastRow(row);
  const parsed = fast !== undefined ? ({ success: true, data: fast } as const) : seaHelmRowSchema.safeParse(row);
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
