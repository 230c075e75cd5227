/**
 * `rubric.yaml`: one question with labelled, scored choices, written once. It drives an LLM judge
 * (`@yardstick/judges`' rubric judge: a forced choice among the labels) and the labeling app's
 * feedback form (`@yardstick/labeling`), so judge and human answer the same question on the same scale.
 */
import { readFile } from "node:fs/promises";
import { ConfigError } from "@yardstick/core";
import { z } from "zod";
import { nodeAtPath, nodePosition, parseYamlSource } from "./yaml-source.js";
import { issueToConfigError } from "./zod-issues.js";

export const rubricChoiceSchema = z.strictObject({
  /** What is stored as the judgement's `label` (and the labeling form's option value). */
  label: z.string().min(1),
  /** The choice's numeric value (the judgement's `score`). */
  score: z.number(),
  /** What the choice means, shown to labelers and put in the judge's prompt. */
  description: z.string().optional(),
});

export const rubricSchema = z
  .strictObject({
    /** Identifies the rubric in results and in the labeling app; defaults to the file name. */
    id: z.string().min(1).optional(),
    /** What is asked about each response, e.g. "Is the answer factually correct?". */
    question: z.string().min(1),
    /** Guidance given to both the judge and the labelers. */
    instructions: z.string().optional(),
    choices: z.array(rubricChoiceSchema).min(2),
    /**
     * The judge's user message, a Python-style format string over `{question}`, `{instructions}`,
     * `{choices}`, `{prompt}`, `{response}` and `{reference}`; a built-in template when absent.
     */
    judge_template: z.string().optional(),
  })
  .superRefine((r, ctx) => {
    const seen = new Set<string>();
    r.choices.forEach((c, i) => {
      if (seen.has(c.label)) ctx.addIssue({ code: "custom", message: `duplicate choice label "${c.label}"`, path: ["choices", i, "label"] });
      seen.add(c.label);
    });
  });

export type Rubric = z.output<typeof rubricSchema>;
export type RubricChoice = z.output<typeof rubricChoiceSchema>;

/** Parses rubric YAML text; errors name the file, line and key path. */
export function parseRubric(file: string, text: string): Rubric & { id: string } {
  const source = parseYamlSource(file, text);
  const parsed = rubricSchema.safeParse(source.doc.toJS() ?? {});
  if (!parsed.success) throw issueToConfigError(parsed.error.issues[0]!, [], (p) => nodePosition(source, nodeAtPath(source, p).node));
  const base = file.replace(/^.*[\\/]/, "").replace(/\.ya?ml$/i, "");
  return { ...parsed.data, id: parsed.data.id ?? base };
}

export async function loadRubric(file: string): Promise<Rubric & { id: string }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new ConfigError(`cannot read rubric: ${(e as Error).message}`, { file });
  }
  return parseRubric(file, text);
}
