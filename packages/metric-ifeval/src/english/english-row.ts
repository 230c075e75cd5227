import type { MetricInput } from "@yardstick/core";
import type { Kwargs } from "../checkers/arguments.js";
import { InstructionRowError } from "../instruction-row.js";
import { truthyKwargs } from "./arguments.js";
import { ENGLISH_INSTRUCTION_IDS, type EnglishInstructionId, isEnglishInstructionId } from "./checkers.js";

/** One instruction of a google/IFEval row with its arguments. */
export interface EnglishInstruction {
  id: EnglishInstructionId;
  kwargs: Kwargs;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The instructions of one input. SEA-HELM's IFEvalDataloader keeps `instruction_id_list` in the
 * metadata and `kwargs` (one object per instruction) as a column; a google-shaped row with both at
 * its top level, or a `reference` `{ instruction_id_list, kwargs }`, is read too.
 */
export function readEnglishInstructions(input: MetricInput): EnglishInstruction[] {
  const ref = isRecord(input.reference) && "instruction_id_list" in input.reference ? input.reference : undefined;
  const raw = input.sample?.raw ?? {};
  const meta = { ...(isRecord(raw.metadata) ? raw.metadata : {}), ...(input.sample?.metadata ?? {}) };
  const ids = ref?.instruction_id_list ?? meta.instruction_id_list ?? raw.instruction_id_list;
  const kwargsList = ref !== undefined ? ref.kwargs : (raw.kwargs ?? meta.kwargs);
  if (!Array.isArray(ids) || ids.length === 0) {
    throw new InstructionRowError(
      `no IFEval instructions found: expected a non-empty sample.metadata.instruction_id_list (got ${JSON.stringify(ids)}) with sample.raw.kwargs, or a reference { instruction_id_list, kwargs }`,
    );
  }
  if (!Array.isArray(kwargsList) || kwargsList.length !== ids.length) {
    throw new InstructionRowError(`kwargs is ${JSON.stringify(kwargsList)}, expected a list of ${ids.length} objects, one per instruction`);
  }
  return ids.map((id, i) => {
    if (!isEnglishInstructionId(id)) {
      throw new InstructionRowError(`unknown instruction id ${JSON.stringify(id)}; known: ${ENGLISH_INSTRUCTION_IDS.join(", ")}`);
    }
    return { id, kwargs: truthyKwargs(kwargsList[i]) };
  });
}
