import { isDeepStrictEqual } from "node:util";
import { MetricError, type MetricInput, type MetricResult, type MetricV1, type SampleScore, YardstickError } from "@yardstick/core";
import { checkOptionsAccepts, checkOptionsRejects } from "./options-checks.js";
import { cloneInputs, describeError, runCompute } from "./run-compute.js";
import { countedScoreProblems } from "./resample-checks.js";
import { seededShuffle } from "./shuffle.js";
import type { ConformanceCheck, MetricConformanceCase, MetricConformanceOptions } from "./types.js";
import { sampleScoresFromColumns, validateResult } from "./validate-result.js";

/** Prediction values a metric must either reject with a MetricError or still score finitely. */
const MALFORMED_PREDICTIONS: readonly [string, unknown][] = [
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["undefined", undefined],
  ["null", null],
  ["a number", 42],
  ["an object", { unexpected: true }],
  ["an array of numbers", [1, 2, 3]],
];

/** Whether the metric declares itself order independent (an opt-in property outside MetricV1). */
export function declaresOrderIndependence(metric: MetricV1): boolean {
  return (metric as MetricV1 & { orderIndependent?: unknown }).orderIndependent === true;
}

const caseName = (c: MetricConformanceCase, i: number): string => c.name ?? `case ${i + 1}`;

/**
 * The list of checks the conformance suite runs, shared by `testMetric` (one vitest `it` each) and
 * `checkMetricConformance` (runs them all and collects failures).
 */
export function planConformanceChecks(
  metric: MetricV1,
  cases: readonly MetricConformanceCase[],
  opts: MetricConformanceOptions = {},
): ConformanceCheck[] {
  const requireEveryPerSample = opts.requireEveryPerSample ?? true;
  const orderIndependent = opts.orderIndependent ?? declaresOrderIndependence(metric);
  const tolerance = opts.tolerance ?? 1e-9;
  const seed = opts.seed ?? 1;
  const checks: ConformanceCheck[] = [];

  checks.push({ name: "satisfies the MetricV1 contract", run: async () => contractProblems(metric) });
  if (contractProblems(metric).length > 0) return checks; // nothing else can run on a non-metric

  cases.forEach((c, i) => {
    const name = caseName(c, i);
    const options = c.options ?? {};
    const inputIds = c.inputs.map((input) => input.sampleId);

    checks.push({
      name: `returns a valid result (${name})`,
      caseName: name,
      run: async () => {
        const inputs = cloneInputs(c.inputs);
        const before = cloneInputs(inputs);
        const outcome = await runCompute(metric, inputs, options, c.ctx);
        if (!outcome.ok) return [`compute threw ${describeError(outcome.error)}`];
        const problems = validateResult(outcome.result, { inputIds, requireEveryPerSample, expectedRange: c.expectedRange });
        if (!isDeepStrictEqual(inputs, before)) problems.push("compute mutated its inputs");
        return problems;
      },
    });

    checks.push({
      name: `is deterministic (${name})`,
      caseName: name,
      run: async () => {
        const first = await runCompute(metric, cloneInputs(c.inputs), options, c.ctx);
        const second = await runCompute(metric, cloneInputs(c.inputs), options, c.ctx);
        if (!first.ok || !second.ok) return [`compute threw ${describeError(first.ok ? (second as { error: unknown }).error : first.error)}`];
        return isDeepStrictEqual(first.result, second.result) ? [] : ["two runs on the same input returned different results"];
      },
    });

    if (orderIndependent && c.inputs.length >= 2) {
      checks.push({
        name: `gives the same scores for shuffled input (${name})`,
        caseName: name,
        run: async () => {
          const original = await runCompute(metric, cloneInputs(c.inputs), options, c.ctx);
          const shuffledInputs = seededShuffle(cloneInputs(c.inputs), seed);
          const shuffled = await runCompute(metric, cloneInputs(shuffledInputs), options, c.ctx);
          if (!original.ok || !shuffled.ok) return [`compute threw ${describeError(original.ok ? (shuffled as { error: unknown }).error : original.error)}`];
          return compareUnordered(recordsOf(original.result, c.inputs), recordsOf(shuffled.result, shuffledInputs), original.result, shuffled.result, tolerance);
        },
      });
    }

    if (typeof metric.resampleByCounts === "function") {
      checks.push({
        name: `resampleByCounts agrees with compute (${name})`,
        caseName: name,
        run: async () => {
          const outcome = await runCompute(metric, cloneInputs(c.inputs), options, c.ctx);
          if (!outcome.ok) return [`compute threw ${describeError(outcome.error)}`];
          const problems: string[] = [];
          for (const [key, value] of Object.entries(outcome.result.scores)) {
            if (typeof value !== "number") continue;
            try {
              const counted = metric.resampleByCounts!(cloneInputs(c.inputs), options, key, c.ctx);
              if (counted !== undefined) problems.push(...countedScoreProblems(counted, c.inputs.length, key, value, tolerance));
            } catch (err) {
              problems.push(`resampleByCounts(…, "${key}") threw ${describeError(err)}`);
            }
          }
          return problems;
        },
      });
    }

    checks.push({
      name: `rejects or survives malformed predictions (${name})`,
      caseName: name,
      run: async () => {
        if (c.inputs.length === 0) return [];
        const problems: string[] = [];
        for (const [label, value] of MALFORMED_PREDICTIONS) {
          const inputs = cloneInputs(c.inputs);
          inputs[0] = { ...(inputs[0] as MetricInput), prediction: value };
          const outcome = await runCompute(metric, inputs, options, c.ctx);
          if (!outcome.ok) {
            if (!MetricError.isInstance(outcome.error)) problems.push(`prediction ${label}: threw ${describeError(outcome.error)}, expected a MetricError`);
            else if (outcome.error.metricId !== metric.id) problems.push(`prediction ${label}: MetricError names metric "${outcome.error.metricId}", expected "${metric.id}"`);
            continue;
          }
          for (const p of validateResult(outcome.result, { inputIds, requireEveryPerSample: false })) problems.push(`prediction ${label}: ${p}`);
        }
        return problems;
      },
    });
  });

  const first = cases[0];
  checks.push({
    name: "handles empty input",
    run: async () => {
      const outcome = await runCompute(metric, [], first?.options ?? {}, first?.ctx);
      if (!outcome.ok) {
        return YardstickError.isInstance(outcome.error) ? [] : [`threw ${describeError(outcome.error)}, expected a documented score or a YardstickError (MetricError)`];
      }
      return validateResult(outcome.result, { inputIds: [], requireEveryPerSample: false, allowNoScores: true });
    },
  });

  (opts.invalidOptions ?? []).forEach((bad, i) => {
    checks.push({
      name: `rejects invalid options #${i + 1}`,
      run: async () => {
        // checkOptions (when the metric has it) must agree with compute: a ConfigError naming the metric and the key.
        const upFront = await checkOptionsRejects(metric, bad);
        const outcome = await runCompute(metric, cloneInputs(first?.inputs ?? []), bad, first?.ctx);
        if (outcome.ok) return [...upFront, `options ${JSON.stringify(bad)} were accepted, expected a YardstickError (ConfigError)`];
        return YardstickError.isInstance(outcome.error)
          ? upFront
          : [...upFront, `options ${JSON.stringify(bad)}: threw ${describeError(outcome.error)}, expected a YardstickError`];
      },
    });
  });

  if (typeof metric.checkOptions === "function") {
    checks.push({
      name: "checkOptions accepts the options of every case",
      run: async () => (await Promise.all(cases.map((c) => checkOptionsAccepts(metric, c.options ?? {})))).flat(),
    });
  }

  return checks;
}

function contractProblems(metric: MetricV1): string[] {
  const m = metric as unknown as Record<string, unknown> | null;
  if (typeof m !== "object" || m === null) return [`metric is ${m === null ? "null" : typeof m}, expected an object`];
  const problems: string[] = [];
  if (m.specVersion !== "v1") problems.push(`specVersion is ${JSON.stringify(m.specVersion)}, expected "v1"`);
  if (typeof m.id !== "string" || m.id.trim() === "") problems.push(`id is ${JSON.stringify(m.id)}, expected a non-empty string`);
  if (typeof m.compute !== "function") problems.push("compute is not a function");
  if (m.description !== undefined && typeof m.description !== "string") problems.push("description is present but not a string");
  if (m.textPairs !== undefined && typeof m.textPairs !== "boolean") problems.push("textPairs is present but not a boolean");
  if (m.checkOptions !== undefined && typeof m.checkOptions !== "function") problems.push("checkOptions is present but not a function");
  for (const optional of ["resampleScores", "resampleByCounts"]) {
    if (m[optional] !== undefined && typeof m[optional] !== "function") problems.push(`${optional} is present but not a function`);
  }
  return problems;
}

/** A result's per-sample records: from its columns when it has them (as the engine reads it). */
function recordsOf(result: MetricResult, inputs: readonly MetricInput[]): SampleScore[] {
  if (!result.perSampleColumns) return result.perSample;
  return sampleScoresFromColumns(
    result.perSampleColumns,
    inputs.map((input) => input.sampleId),
  );
}

/** Task scores must match within `tolerance`; per-sample scores must match by sample id. */
function compareUnordered(aRecords: SampleScore[], bRecords: SampleScore[], a: MetricResult, b: MetricResult, tolerance: number): string[] {
  const problems: string[] = [];
  const keys = new Set([...Object.keys(a.scores), ...Object.keys(b.scores)]);
  for (const key of keys) {
    const x = a.scores[key];
    const y = b.scores[key];
    if (x === undefined || y === undefined) problems.push(`task score "${key}" is present in only one of the two orders`);
    else if (!(Math.abs(x - y) <= tolerance)) problems.push(`task score "${key}" is ${x} in input order but ${y} shuffled`);
  }
  const byId = new Map(aRecords.map((s) => [s.sampleId, s.scores]));
  for (const s of bRecords) {
    const original = byId.get(s.sampleId);
    if (original === undefined) problems.push(`perSample "${s.sampleId}" appears only for shuffled input`);
    else if (!isDeepStrictEqual(original, s.scores)) problems.push(`perSample "${s.sampleId}" scores differ between input orders`);
  }
  if (aRecords.length !== bRecords.length) problems.push(`perSample has ${aRecords.length} entries in input order but ${bRecords.length} shuffled`);
  return problems;
}
