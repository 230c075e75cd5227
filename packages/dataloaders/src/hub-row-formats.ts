/**
 * Row shapes of Hugging Face datasets that SEA-HELM maps to its own row shape in a task-specific
 * dataloader (the vision tasks' `HuggingFaceImageDataloader` subclasses). `seahelm` rows are
 * already in SEA-HELM's shape. The mapping follows upstream's `map_columns` of each dataloader:
 * the prompt variables, the `images` list that becomes the user turn's image parts, the label and
 * the metadata.
 */
import { DataLoadError } from "@yardstick/core";

export const HUB_ROW_FORMATS = ["seahelm", "mathvision", "babyvision", "ifeval"] as const;
export type HubRowFormat = (typeof HUB_ROW_FORMATS)[number];

export interface RowWhere {
  file: string;
  line: number;
}

function column(row: Record<string, unknown>, name: string, where: RowWhere): unknown {
  if (!Object.hasOwn(row, name)) {
    throw new DataLoadError(`the row has no column "${name}" (columns: ${Object.keys(row).join(", ")})`, where);
  }
  return row[name];
}

function list(row: Record<string, unknown>, name: string, where: RowWhere): unknown[] {
  const value = column(row, name, where);
  if (value === null) return [];
  if (!Array.isArray(value)) throw new DataLoadError(`column "${name}" must be a list, got ${typeof value}`, where);
  return value;
}

/** Lines `<letter><sep><option>` for as many options as there are letters, after a newline; "" for none. */
function lettered(options: unknown[], letters: string, format: (letter: string, option: unknown) => string): string {
  const lines = options.slice(0, letters.length).map((o, i) => format(letters[i]!, o));
  return lines.length === 0 ? "" : `\n${lines.join("\n")}`;
}

/** MathVision (`MathLLMs/MathVision`): options as `(A) ...` lines, the `decoded_image` as the one image. */
function mathVisionRow(row: Record<string, unknown>, where: RowWhere): Record<string, unknown> {
  const options = list(row, "options", where);
  return {
    id: column(row, "id", where),
    prompts: [{ question: column(row, "question", where), options: lettered(options, "ABCDE", (l, o) => `(${l}) ${String(o)}`) }],
    images: [column(row, "decoded_image", where)],
    label: column(row, "answer", where),
    metadata: { language: "en", subject: column(row, "subject", where), level: column(row, "level", where) },
  };
}

/** BabyVision (`UnipatAI/BabyVision`): a choice question's options as `A: ...` lines and its answer letter, or a blank's answer. */
function babyVisionRow(row: Record<string, unknown>, where: RowWhere): Record<string, unknown> {
  const ansType = column(row, "ansType", where);
  let choices: string;
  let label: unknown;
  if (ansType === "choice") {
    choices = lettered(list(row, "options", where), "ABCDEF", (l, o) => `${l}: ${String(o)}`);
    const index = column(row, "choiceAns", where);
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= 6) {
      throw new DataLoadError(`column "choiceAns" must be an option index 0-5, got ${JSON.stringify(index)}`, where);
    }
    label = "ABCDEF"[index];
  } else if (ansType === "blank") {
    choices = "";
    label = column(row, "blankAns", where);
  } else {
    throw new DataLoadError(`column "ansType" must be "choice" or "blank", got ${JSON.stringify(ansType)}`, where);
  }
  return {
    id: column(row, "taskId", where),
    prompts: [{ question: column(row, "question", where), choices }],
    images: [column(row, "image", where)],
    label,
    metadata: { language: "en", type: column(row, "type", where), subtype: column(row, "subtype", where) },
  };
}

/**
 * google/IFEval (`IFEvalDataloader`): the prompt as `text`, the instruction ids in the metadata, the
 * per-instruction `kwargs` list kept as a column. Upstream corrects row 1174 (its letter-frequency
 * instruction has no relation) to "at least"; so is it here.
 */
function googleIfevalRow(row: Record<string, unknown>, where: RowWhere): Record<string, unknown> {
  const key = column(row, "key", where);
  let kwargs = list(row, "kwargs", where);
  if (key === 1174 && typeof kwargs[0] === "object" && kwargs[0] !== null) {
    kwargs = [{ ...(kwargs[0] as Record<string, unknown>), let_relation: "at least" }, ...kwargs.slice(1)];
  }
  return {
    id: key,
    prompts: [{ text: column(row, "prompt", where) }],
    metadata: { language: "en", instruction_id_list: list(row, "instruction_id_list", where) },
    kwargs,
  };
}

/** The row in SEA-HELM's shape (`prompts`, `label`, `images`, ...). */
export function toSeaHelmShape(row: Record<string, unknown>, format: HubRowFormat, where: RowWhere): Record<string, unknown> {
  if (format === "mathvision") return mathVisionRow(row, where);
  if (format === "babyvision") return babyVisionRow(row, where);
  if (format === "ifeval") return googleIfevalRow(row, where);
  return row;
}
