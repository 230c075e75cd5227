import type { Mode, TaskName } from "../constants.js";
import type { Rng } from "@yardstick/core";
import type { Relations } from "../relations.js";
import type { Shape } from "../shape.js";

/** A (question, answer) pair; count answers are numbers, as in the original JSON. */
export type QA = [string, string | number];

/** The answer the first question must have, chosen by the generator to balance the dataset. */
export type ExpectedAnswer = "Yes" | "No" | 0 | "non-zero";

export interface TaskContext {
  shapes: readonly Shape[];
  rels: readonly Relations[];
  rng: Rng;
  mode: Mode;
  /** Used in error messages, e.g. `canvas_3_17`. */
  canvasName: string;
}

/**
 * Texts are final for the context's mode: compat keeps upstream's trailing spaces, fixed has none
 * at the end of any question, answer or description (build sentences separated by one space and
 * end them with `ending`; the generator does not trim).
 */
export interface TaskOutput {
  /** Item 0 is the evaluation question, the rest are few-shot examples. */
  questions: QA[];
  /** Task-owned description text (transitivity, existence tracking, shuffle tracking). */
  description?: string;
}

export interface SpatialTask {
  readonly name: TaskName;
  /** The balanced answer for item i of n; undefined when the task is not balanced. */
  selectExpected(index: number, total: number, mode: Mode): ExpectedAnswer | undefined;
  /**
   * Optional cheap, deterministic test run right after sampling: false redraws the canvas before any
   * text is built (fixed transitivity needs shapes that form a strict chain).
   */
  accepts?(shapes: readonly Shape[], mode: Mode): boolean;
  /** undefined when the task does not apply to this canvas (e.g. transitivity with 2 shapes). */
  generate(ctx: TaskContext, expected: ExpectedAnswer | undefined): TaskOutput | undefined;
}

/**
 * Thrown by a task when the canvas cannot carry it (upstream would loop forever on such a canvas,
 * so it never appears in upstream data); the generator draws a new canvas.
 */
export class CanvasRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Balancing: upstream fills contiguous blocks (compat); fixed interleaves so every prefix is balanced. */
export function yesNoBalance(index: number, total: number, mode: Mode): ExpectedAnswer {
  if (mode === "compat") return index < Math.floor(total / 2) ? "Yes" : "No";
  return index % 2 === 0 ? "Yes" : "No";
}
