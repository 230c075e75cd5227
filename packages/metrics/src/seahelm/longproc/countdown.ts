/**
 * SEA-HELM CountdownMetric (LongProc Countdown): the `<Solution>` block must hold exactly three
 * steps "a OP b = c" that are arithmetically right, use the given numbers (and the results of
 * earlier steps) each once, and end at the target. Partial accuracy compares the search procedure
 * with the reference one, line by line, up to the first mismatch.
 *
 * Departures from upstream, where upstream stops with an exception instead of scoring:
 * - a step whose left side Python's `eval` would reject with something other than a
 *   SyntaxError/ValueError (a name, a division by zero) counts as a wrong step;
 * - procedures of different lengths are compared over the shorter one (upstream's
 *   `zip(strict=True)` raises; LongProc's original comparison zips without it);
 * - a reference procedure line that is neither a "Pick" nor a "Try" line ends the comparison.
 * The step's left side is never evaluated as code: only "int OP int" forms can pass upstream's
 * checks, and those are computed exactly here.
 */
import type { MetricInput, MetricV1 } from "@yardstick/core";
import { MetricError, pyStrip } from "@yardstick/core";
import { z } from "zod";
import { describe } from "../common.js";
import { accuracyMetric, afterFirst, labelObject, labelString, longprocBaseOptions, taggedBlock } from "./common.js";

export const COUNTDOWN_ID = "seahelm-countdown";

export const seahelmCountdownOptionsSchema = z.strictObject({ ...longprocBaseOptions });

// A Python int literal as `eval` reads it (no leading zeros except all-zero), with the blanks
// Python's tokenizer skips; `int()` then reads the same text.
// A sign must touch its digits (int() refuses "- 5").
const EVAL_INT = /^[ \t\f]*(-?)([1-9](?:_?\d)*|0+(?:_?0)*)[ \t\f]*$/;
// What `int()` alone accepts (the right-hand side is never evaluated): sign, digits, underscores.
const INT_TEXT = /^([+-]?)(\d(?:_?\d)*)$/;
const OPS = ["+", "-", "*", "/"] as const;

interface Step {
  a: bigint;
  b: bigint;
  c: bigint;
}

function evalInt(part: string): bigint | null {
  const m = EVAL_INT.exec(part);
  if (!m) return null;
  return BigInt(`${m[1]}${m[2]!.replaceAll("_", "")}`);
}

function intText(text: string): bigint | null {
  const m = INT_TEXT.exec(pyStrip(text));
  return m ? BigInt(`${m[1] === "-" ? "-" : ""}${m[2]!.replaceAll("_", "")}`) : null;
}

/** One solution line, or null when upstream finds it malformed or arithmetically wrong. */
export function parseCountdownStep(line: string): Step | null {
  const sides = pyStrip(line).split("=");
  if (sides.length !== 2) return null;
  const [lhs, rhs] = sides as [string, string];
  const op = OPS.find((o) => lhs.includes(o));
  if (op === undefined) return null;
  const operands = lhs.split(op);
  if (operands.length !== 2) return null;
  const a = evalInt(operands[0]!);
  const b = evalInt(operands[1]!);
  const c = intText(rhs);
  if (a === null || b === null || c === null) return null;
  let holds: boolean;
  if (op === "+") holds = a + b === c;
  else if (op === "-") holds = a - b === c;
  else if (op === "*") holds = a * b === c;
  else holds = b !== 0n && a % b === 0n && a / b === c;
  return holds ? { a, b, c } : null;
}

/** Upstream's evaluate_countdown_final_solution. */
export function countdownSolutionIsCorrect(nums: readonly bigint[], target: bigint, solution: string): boolean {
  const lines = solution.split("\n");
  if (lines.length !== 3) return false;
  const pool = [...nums];
  for (const line of lines) {
    const step = parseCountdownStep(line);
    if (step === null) return false;
    for (const operand of [step.a, step.b]) {
      const at = pool.indexOf(operand);
      if (at < 0) return false;
      pool.splice(at, 1);
    }
    pool.push(step.c);
  }
  return pool[0] === target;
}

const OPEN = "<Search Procedure>";
const CLOSE = "</Search Procedure>";

/** Upstream's evaluate_countdown_search_procedure: the share of reference lines matched before the first mismatch. */
export function countdownProcedureScore(response: string, reference: string): { partial: number; error?: string } {
  if (!reference.includes(OPEN)) throw new Error(`the reference search_procedure has no ${OPEN} block`);
  const gt = afterFirst(reference, OPEN).split(CLOSE)[0]!;
  let procedure = response;
  if (procedure.includes(OPEN)) procedure = afterFirst(procedure, OPEN);
  if (procedure.includes(CLOSE)) procedure = procedure.split(CLOSE)[0]!;
  const pred = pyStrip(procedure).split("\n");
  const gold = pyStrip(gt).split("\n");
  if (pred[0] !== gold[0]) return { partial: 0, error: `line 0 | gt: ${gold[0]} | pr: ${pred[0]}` };
  const predSteps = pred.slice(1);
  const goldSteps = gold.slice(1);
  if (goldSteps.length === 0) return { partial: 0 };
  let idx = -1;
  let error: string | undefined;
  const n = Math.min(predSteps.length, goldSteps.length);
  for (let i = 0; i < n; i++) {
    idx = i;
    const p = predSteps[i]!;
    const g = goldSteps[i]!;
    if (p === g) continue;
    if (g.includes("|- Try") && !g.includes("Pick two numbers")) {
      const sameOperands = p.split("=")[0] === g.split("=")[0];
      const sameAction = p.includes("drop this branch") === g.includes("drop this branch");
      if (sameOperands && sameAction) continue;
    }
    error = `line ${i + 1} | gt: ${g} | pr: ${p}`;
    break;
  }
  // Upstream divides the index of the stopping line (the last one when none differs) by the
  // number of reference steps.
  return { partial: Math.max(idx, 0) / goldSteps.length, ...(error ? { error } : {}) };
}

function bigintList(metricId: string, input: MetricInput, value: unknown, field: string): bigint[] {
  if (Array.isArray(value) && value.every((v) => Number.isInteger(v))) return value.map((v) => BigInt(v as number));
  throw new MetricError(`reference.${field} must be a list of integers, got ${describe(value)}`, { metricId, sampleId: input.sampleId });
}

export function createSeahelmCountdownMetric(): MetricV1 {
  return accuracyMetric({
    id: COUNTDOWN_ID,
    description: "SEA-HELM LongProc Countdown: the <Solution> equations reach the target (accuracy; search-procedure partial accuracy)",
    textPairs: false,
    schema: seahelmCountdownOptionsSchema,
    score(input, response) {
      const label = labelObject(COUNTDOWN_ID, input);
      const nums = bigintList(COUNTDOWN_ID, input, label.nums, "nums");
      if (!Number.isInteger(label.target)) {
        throw new MetricError(`reference.target must be an integer, got ${describe(label.target)}`, { metricId: COUNTDOWN_ID, sampleId: input.sampleId });
      }
      const solution = taggedBlock(response, "<Solution>", "</Solution>");
      if (solution !== null && countdownSolutionIsCorrect(nums, BigInt(label.target as number), solution)) {
        return { accuracy: 1, partial: 1, extracted: 1 };
      }
      const procedure = labelString(COUNTDOWN_ID, input, "search_procedure");
      try {
        return { accuracy: 0, extracted: solution === null ? 0 : 1, ...countdownProcedureScore(response, procedure) };
      } catch (e) {
        throw new MetricError((e as Error).message, { metricId: COUNTDOWN_ID, sampleId: input.sampleId });
      }
    },
  });
}
