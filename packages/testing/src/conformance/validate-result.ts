import type { MetricResult, SampleScore } from "@yardstick/core";
import { isDeepStrictEqual } from "node:util";

export interface ResultExpectations {
  inputIds: readonly string[];
  requireEveryPerSample: boolean;
  expectedRange?: Record<string, [number, number]>;
  /** Empty input: per-sample list must be empty and task scores may be absent. */
  allowNoScores?: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Problems with the shape and values of a MetricResult; empty when it conforms. */
export function validateResult(result: unknown, expect: ResultExpectations): string[] {
  const problems: string[] = [];
  if (!isRecord(result)) return [`compute returned ${typeof result}, expected a MetricResult object`];
  const { scores, perSample, perSampleColumns, details } = result as Partial<MetricResult> & Record<string, unknown>;

  if (!isRecord(scores)) problems.push("result.scores is not an object of numbers");
  else {
    const names = Object.keys(scores);
    if (names.length === 0 && !expect.allowNoScores) problems.push("result.scores has no task-level score");
    for (const name of names) {
      const value = scores[name];
      if (typeof value !== "number" || !Number.isFinite(value)) problems.push(`task score "${name}" is ${String(value)}, expected a finite number`);
    }
    for (const [name, [lo, hi]] of Object.entries(expect.expectedRange ?? {})) {
      const value = scores[name];
      if (value === undefined) problems.push(`task score "${name}" is missing (a range [${lo}, ${hi}] was declared for it)`);
      else if (typeof value === "number" && (value < lo || value > hi)) problems.push(`task score "${name}" = ${value} is outside [${lo}, ${hi}]`);
    }
  }

  if (details !== undefined && !isRecord(details)) problems.push("result.details is present but not an object");

  if (!Array.isArray(perSample)) {
    problems.push("result.perSample is not an array");
    return problems;
  }
  if (perSampleColumns !== undefined) {
    const columnProblems = perSampleColumnsProblems(perSampleColumns, expect.inputIds.length);
    problems.push(...columnProblems);
    // The columns are what the engine reads, `perSample` what other readers do: they must agree.
    if (columnProblems.length === 0) problems.push(...disagreements(perSample, sampleScoresFromColumns(perSampleColumns as MetricResult["perSampleColumns"] & object, expect.inputIds)));
  }
  const known = new Set(expect.inputIds);
  const seen = new Set<string>();
  perSample.forEach((entry: unknown, i) => {
    if (!isRecord(entry) || typeof entry.sampleId !== "string" || !isRecord(entry.scores)) {
      problems.push(`perSample[${i}] is not { sampleId: string, scores: object }`);
      return;
    }
    const id = entry.sampleId;
    if (!known.has(id)) problems.push(`perSample[${i}] has sampleId "${id}", which is not an input id`);
    if (seen.has(id)) problems.push(`perSample has sampleId "${id}" more than once`);
    seen.add(id);
    for (const [name, value] of Object.entries(entry.scores)) {
      if (typeof value !== "number" || !Number.isFinite(value)) problems.push(`perSample "${id}" score "${name}" is ${String(value)}, expected a finite number`);
    }
  });
  if (expect.requireEveryPerSample) {
    const missing = [...known].filter((id) => !seen.has(id));
    if (missing.length > 0) problems.push(`perSample lacks ${missing.length} input id(s): ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""}`);
  }
  return problems;
}

/** Problems with `perSampleColumns`: an object of Float64Arrays, one finite value per input. */
function perSampleColumnsProblems(columns: unknown, inputCount: number): string[] {
  if (!isRecord(columns) || !isRecord(columns.scores)) return ["result.perSampleColumns is present but not { scores: { [name]: Float64Array } }"];
  const problems: string[] = [];
  for (const [name, values] of Object.entries(columns.scores)) {
    if (!(values instanceof Float64Array)) {
      problems.push(`perSampleColumns "${name}" is not a Float64Array`);
      continue;
    }
    if (values.length !== inputCount) problems.push(`perSampleColumns "${name}" has ${values.length} values, expected one per input (${inputCount})`);
    const bad = values.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) problems.push(`perSampleColumns "${name}"[${bad}] is ${values[bad]}, expected a finite number`);
  }
  return problems;
}

/** The per-sample records a result's columns stand for, given the ids of its inputs in order. */
export function sampleScoresFromColumns(columns: NonNullable<MetricResult["perSampleColumns"]>, inputIds: readonly string[]): SampleScore[] {
  const entries = Object.entries(columns.scores);
  return inputIds.map((sampleId, i) => {
    const scores: Record<string, number> = {};
    for (const [key, values] of entries) scores[key] = values[i]!;
    return { sampleId, scores };
  });
}

/** Where `perSample` differs from the records made from the columns (first five). */
function disagreements(perSample: readonly unknown[], fromColumns: readonly SampleScore[]): string[] {
  if (perSample.length !== fromColumns.length) return [`perSample has ${perSample.length} entries but perSampleColumns ${fromColumns.length}`];
  const problems: string[] = [];
  for (let i = 0; i < perSample.length && problems.length < 5; i++) {
    const entry = perSample[i] as Partial<SampleScore> | undefined;
    const expected = fromColumns[i]!;
    if (entry?.sampleId !== expected.sampleId || !isDeepStrictEqual({ ...entry.scores }, expected.scores)) {
      problems.push(`perSample[${i}] is ${JSON.stringify(entry)}, but perSampleColumns give ${JSON.stringify(expected)}`);
    }
  }
  return problems;
}
