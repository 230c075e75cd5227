import type { TaskName } from "./constants.js";

/** The tag the prompt asks the model to put before its final answer. */
export const ANSWER_TAG = "Answer:";

/** What each task's answer looks like, as told to the model. */
export const ANSWER_FORMATS: Record<TaskName, string> = {
  existence: "Yes or No",
  count: "a number, e.g. 2",
  transitivity: "one of Left, Right, Above, Below",
  coordinate: "the vertical then the horizontal direction, e.g. Above Left, Below Right, or one word if only one applies",
  existence_tracking: "Yes or No",
  shuffle_tracking: "the shape's size, colour and kind, e.g. large blue square",
};

/** SEA-HELM style prompt template parts for one task; `{answer_tag}` is filled by the prompt builder. */
export function promptTemplate(task: TaskName): { preamble: string; task_template: string; answer_template: string; answer_tag: string } {
  return {
    preamble:
      "You are given a description of a canvas of shapes and a question about it. " +
      `Answer with ${ANSWER_FORMATS[task]}. ` +
      'Put your final answer on the last line in the format "{answer_tag} <answer>".',
    task_template: "Canvas:\n{description}\n\nQuestion: {question}",
    answer_template: "{answer_tag} {label}",
    answer_tag: ANSWER_TAG,
  };
}

/** The text that stands in for the description when the canvas is shown as an image. */
export function imageDescription(n: number): string {
  return n === 1 ? "The image shows a canvas with 1 shape." : `The image shows a canvas with ${n} shapes.`;
}

/** Fills a `{name}` template like Python's str.format (`{{`/`}}` are literal braces). */
export function fillTemplate(template: string, vars: Record<string, unknown>): string {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (m, name: string | undefined) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    const v = vars[name!];
    return v === undefined ? m : String(v);
  });
}

/** The full user prompt text for one row, as the SEA-HELM prompt builder assembles it (zero-shot). */
export function buildPromptText(task: TaskName, description: string, question: string): string {
  const t = promptTemplate(task);
  const preamble = fillTemplate(t.preamble, { answer_tag: t.answer_tag });
  return `${preamble}\n\n${fillTemplate(t.task_template, { description, question })}`.trim();
}
