/**
 * The `ultraeval` prompt builder: UltraEval's `construct_input` with a ported transform.
 *
 *   prompt = (description + "\n\n" if description) + examples + transform(record).input
 *   examples = "\n\n".join(ex.input + ex.output) + "\n\n"   (when the task is few-shot)
 *
 * The record and its few-shot examples come from the `ultraeval` dataloader (`sample.prompts[0]`).
 * `build` gives the raw completion prompt (no chat template, as upstream); `buildChoices` gives that
 * prompt as the context and every `target_scores` key, in file order, as a continuation.
 */
import { ConfigError, DataLoadError, type PromptBuilderV1, type PromptBuildInput } from "@yardstick/core";
import { z } from "zod";
import type { TransformResult, UltraEvalRecord, UltraEvalTransform, UltraEvalTransforms } from "./transforms/index.js";

export const ultraEvalPromptOptionsSchema = z.strictObject({
  transform: z.string().min(1),
  description: z.string().default(""),
  /** The renamed task name (`<dataset>_<task>_<gen|ppl>`), passed to the transform. */
  taskName: z.string().default(""),
});

export type UltraEvalPromptOptions = z.output<typeof ultraEvalPromptOptionsSchema>;

export interface UltraEvalPromptBuilderSettings {
  /** The ported transforms (`createUltraEvalTransforms`), injected by the composition root. */
  transforms: UltraEvalTransforms;
}

/**
 * The options and the port of their transform; undefined when there is no port but a python3 bridge,
 * whose results the dataloader attaches to each sample (`transformed`).
 */
function parseOptions(options: Record<string, unknown>, transforms: UltraEvalTransforms): { opts: UltraEvalPromptOptions; transform: UltraEvalTransform | undefined } {
  const parsed = ultraEvalPromptOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`ultraeval prompt options: ${issue.message}`, { keyPath: ["prompt", "options", ...issue.path.map(String)] });
  }
  const transform = transforms.get(parsed.data.transform);
  if (!transform && !transforms.bridge) {
    throw new ConfigError(`the transform ${parsed.data.transform} has no TypeScript port, and no python3 bridge is configured`, {
      keyPath: ["prompt", "options", "transform"],
    });
  }
  return { opts: parsed.data, transform };
}

const isRecord = (v: unknown): v is UltraEvalRecord =>
  typeof v === "object" && v !== null && typeof (v as UltraEvalRecord).fields === "object" && Array.isArray((v as UltraEvalRecord).targetScores);

interface PromptVars {
  record: UltraEvalRecord;
  fewshot: UltraEvalRecord[];
  transformed?: { record: TransformResult; fewshot: TransformResult[] };
}

function promptVars(input: PromptBuildInput): PromptVars {
  const vars = input.sample.prompts[0] as { record?: unknown; fewshot?: unknown; transformed?: PromptVars["transformed"] } | undefined;
  if (!vars || !isRecord(vars.record) || !Array.isArray(vars.fewshot) || !vars.fewshot.every(isRecord)) {
    throw new DataLoadError(`sample ${input.sample.id}: expected the record and its few-shot examples from the ultraeval dataloader`);
  }
  return { record: vars.record, fewshot: vars.fewshot, ...(vars.transformed ? { transformed: vars.transformed } : {}) };
}

/** The prompt text for one sample. */
export function ultraEvalPrompt(
  input: PromptBuildInput,
  options: Record<string, unknown>,
  transforms: UltraEvalTransforms,
): { prompt: string; record: UltraEvalRecord } {
  const { opts, transform } = parseOptions(options, transforms);
  const { record, fewshot, transformed } = promptVars(input);
  const ctx = { taskName: opts.taskName, fewshot: input.task.fewshot };
  // Without a port, the Python file's results came with the sample, in the order of record and examples.
  const bridged = new Map<UltraEvalRecord, TransformResult>();
  if (!transform) {
    if (!transformed || transformed.fewshot.length !== fewshot.length) {
      throw new DataLoadError(
        `task ${input.task.key}, sample ${input.sample.id}: the transform ${opts.transform} has no TypeScript port and the sample carries no python3 bridge results (load it with the ultraeval dataloader and an UltraEval root)`,
      );
    }
    bridged.set(record, transformed.record);
    for (const [i, ex] of fewshot.entries()) bridged.set(ex, transformed.fewshot[i]!);
  }
  const run = (r: UltraEvalRecord, what: string): TransformResult => {
    if (!transform) return bridged.get(r)!;
    try {
      return transform(r, ctx);
    } catch (cause) {
      throw new DataLoadError(`task ${input.task.key}, sample ${input.sample.id}: transform ${opts.transform} failed on ${what}: ${(cause as Error).message}`, {
        cause,
      });
    }
  };
  let examples = "";
  if (input.task.fewshot > 0) {
    const shown = fewshot.map((ex, i) => {
      const t = run(ex, `few-shot example ${i + 1}`);
      const output = Array.isArray(t.output) ? (t.output[0] ?? "") : t.output;
      return t.input + output;
    });
    examples = `${shown.join("\n\n")}\n\n`;
  }
  const description = opts.description ? `${opts.description}\n\n` : "";
  return { prompt: description + examples + run(record, "the record").input, record };
}

export function createUltraEvalPromptBuilder(settings: UltraEvalPromptBuilderSettings): PromptBuilderV1 {
  const { transforms } = settings;
  return {
    specVersion: "v1",
    id: "ultraeval",
    checkOptions: (options) => void parseOptions(options, transforms),
    build: (input, options) => ultraEvalPrompt(input, options, transforms).prompt,
    buildChoices(input, options) {
      const { prompt, record } = ultraEvalPrompt(input, options, transforms);
      return { context: prompt, continuations: record.targetScores.map(([option]) => option) };
    },
  };
}
