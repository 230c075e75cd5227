import type { MetricInput } from "@yardstick/core";
import { INSTRUCTION_IDS, type InstructionId, isInstructionId, type Kwargs } from "./checkers/index.js";

/** What a row tells the metric: which instruction to check, with which arguments. */
export interface InstructionRow {
  subcategory: InstructionId;
  /** "language" rows expect `kwargs.response_language` instead of the task language. */
  category: string;
  kwargs: Kwargs;
  /** The row's own language, used when neither the options nor the task name one. */
  language?: string;
}

/** Thrown for a row that does not describe an instruction; the metric adds the sample id. */
export class InstructionRowError extends Error {
  override name = "InstructionRowError";
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads the instruction of one input. SEA-HELM rows carry it as `metadata.subcategory` and a
 * one-element `kwargs` list; `reference` may instead be `{ subcategory, kwargs }` (handy for
 * scoring predictions outside a task).
 */
export function readInstructionRow(input: MetricInput): InstructionRow {
  const ref = isRecord(input.reference) && "subcategory" in input.reference ? input.reference : undefined;
  const sample = input.sample;
  const rawMeta = isRecord(sample?.raw?.metadata) ? sample.raw.metadata : {};
  const meta = { ...rawMeta, ...(sample?.metadata ?? {}) };
  const source = ref ?? meta;

  const subcategory = source.subcategory;
  if (subcategory === undefined) {
    throw new InstructionRowError(
      "no IFEval instruction found: expected sample.metadata.subcategory with sample.raw.kwargs, or a reference { subcategory, kwargs }",
    );
  }
  if (!isInstructionId(subcategory)) {
    throw new InstructionRowError(`unknown instruction subcategory ${JSON.stringify(subcategory)}; known: ${INSTRUCTION_IDS.join(", ")}`);
  }
  const kwargs = firstKwargs(ref !== undefined ? ref.kwargs : (sample?.raw?.kwargs ?? meta.kwargs));
  const category = typeof source.category === "string" ? source.category : (subcategory.split(":")[0] as string);
  const language = typeof meta.language === "string" && meta.language !== "" ? meta.language : undefined;
  return language === undefined ? { subcategory, category, kwargs } : { subcategory, category, kwargs, language };
}

/** `kwargs[0]` without its null entries (Hugging Face fills every row's struct with all keys). */
function firstKwargs(value: unknown): Kwargs {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return {};
  if (!isRecord(first)) throw new InstructionRowError(`kwargs is ${JSON.stringify(value)}, expected a list holding one object`);
  return Object.fromEntries(Object.entries(first).filter(([, v]) => v !== null && v !== undefined));
}
