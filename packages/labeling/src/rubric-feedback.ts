/**
 * A `rubric.yaml` (the format LLM judges read, `@yardstick/config`'s rubric.ts) as the labeling
 * form's question: the rubric's choices become the options of one select feedback item whose
 * values are the choice labels, so a human's answer and a rubric judge's `judgement.label` are the
 * same values, and the choice's score comes with it.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseRubric, type Rubric } from "@yardstick/config";
import { ConfigError } from "@yardstick/core";
import type { Feedback, TaskDef } from "./schemas.js";

/** The feedback key a task's rubric question is stored under in results and label records. */
export const RUBRIC_FEEDBACK_KEY = "rubric";

/** What the rubric select item carries beside Quest's keys, so labels map back to scores. */
export interface RubricScale {
  id: string;
  question: string;
  /** Choice label → score. */
  scores: Record<string, number>;
}

type RubricFeedback = Extract<Feedback, { type: "select" }> & { rubric: RubricScale };

/** The select feedback item for a rubric: the question as its label, instructions as its hint. */
export function rubricFeedback(rubric: Rubric & { id: string }): RubricFeedback {
  return {
    type: "select",
    label: rubric.question,
    description: rubric.instructions?.trim() ?? "",
    options: rubric.choices.map((c) => ({ value: c.label, label: c.description ? `${c.label}: ${c.description}` : c.label })),
    rubric: { id: rubric.id, question: rubric.question, scores: Object.fromEntries(rubric.choices.map((c) => [c.label, c.score])) },
  };
}

/**
 * Reads the rubric a task names and adds its select item to the task's feedback. `resolve` turns
 * the task's `rubric` name into a path (the data folder confines it); by default it is taken
 * relative to the task file's folder.
 */
export function withRubric(def: TaskDef, taskFile: string, resolve?: (name: string) => string): TaskDef {
  if (def.rubric === undefined) return def;
  if (def.feedback[RUBRIC_FEEDBACK_KEY] !== undefined) {
    throw new ConfigError(`the feedback key "${RUBRIC_FEEDBACK_KEY}" is taken by the rubric; rename this feedback item`, {
      file: taskFile,
      keyPath: ["feedback", RUBRIC_FEEDBACK_KEY],
    });
  }
  const path = resolve ? resolve(def.rubric) : join(dirname(taskFile), def.rubric);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(`cannot read the task's rubric ${def.rubric}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
      file: taskFile,
      keyPath: ["rubric"],
    });
  }
  const rubric = parseRubric(path, text);
  return { ...def, feedback: { [RUBRIC_FEEDBACK_KEY]: rubricFeedback(rubric), ...def.feedback } };
}

/** The rubric scale of a task's feedback item, when it is a rubric question. */
export function rubricScale(feedback: Feedback | undefined): RubricScale | undefined {
  const scale = (feedback as { rubric?: unknown } | undefined)?.rubric;
  if (!scale || typeof scale !== "object") return undefined;
  const s = scale as Partial<RubricScale>;
  return typeof s.id === "string" && s.scores && typeof s.scores === "object" ? (s as RubricScale) : undefined;
}

/**
 * The judgement a labeler's answer to a rubric task stands for: `{label, score, rubric}` as a rubric
 * judge writes it, or undefined when the task has no rubric or the answer is not one of its choices.
 */
export function rubricJudgement(
  feedbackDefs: Record<string, Feedback>,
  answer: Record<string, unknown>,
): { label: string; score: number; rubric: string } | undefined {
  const scale = rubricScale(feedbackDefs[RUBRIC_FEEDBACK_KEY]);
  const label = answer[RUBRIC_FEEDBACK_KEY];
  if (!scale || typeof label !== "string" || !Object.hasOwn(scale.scores, label)) return undefined;
  return { label, score: scale.scores[label]!, rubric: scale.id };
}

/**
 * A single-answer task for a rubric (what `yardstick label import RUN --rubric FILE` writes): the
 * task id, dataset and results file are named after the rubric id, and the task names the rubric
 * file it is given (copied beside it in `tasks/`).
 */
export function taskFromRubric(rubric: Rubric & { id: string }, rubricFile: string): { id: string; task: TaskDef } {
  const id = rubric.id.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[.]+/, "_").slice(0, 100);
  const task: TaskDef = {
    taskInfo: { name: rubric.id, description: rubric.question, instructions: rubric.instructions?.trim() || rubric.question },
    presentation: { type: "single", displayType: "standard" },
    feedback: {},
    dataset: { type: "jsonl", name: `${id}.jsonl` },
    results: `${id}_results.jsonl`,
    rubric: rubricFile,
  };
  return { id, task };
}
