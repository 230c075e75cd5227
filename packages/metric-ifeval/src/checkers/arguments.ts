/**
 * Checked access to a row's `kwargs[0]`. SEA-HELM converts counts with Python's `int()` and fails
 * on a missing argument; here a bad argument raises `InstructionArgumentError`, which the metric
 * turns into a MetricError naming the sample.
 */
export class InstructionArgumentError extends Error {
  override name = "InstructionArgumentError";
}

export type Kwargs = Readonly<Record<string, unknown>>;

export const RELATIONS = ["exactly", "at least", "less than"] as const;
export type Relation = (typeof RELATIONS)[number];

function present(kwargs: Kwargs, key: string): unknown {
  const value = kwargs[key];
  if (value === undefined || value === null) throw new InstructionArgumentError(`kwargs.${key} is missing`);
  return value;
}

/** An integer, accepting what Python's `int()` accepts here: integral numbers and digit strings. */
export function intArg(kwargs: Kwargs, key: string): number {
  const value = present(kwargs, key);
  if (typeof value === "number" && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  throw new InstructionArgumentError(`kwargs.${key} is ${JSON.stringify(value)}, expected an integer`);
}

export function stringArg(kwargs: Kwargs, key: string): string {
  const value = present(kwargs, key);
  if (typeof value === "string") return value;
  // Upstream interpolates numbers into patterns (e.g. number_frequency's `number`).
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new InstructionArgumentError(`kwargs.${key} is ${JSON.stringify(value)}, expected a string`);
}

export function stringListArg(kwargs: Kwargs, key: string): string[] {
  const value = present(kwargs, key);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value;
  throw new InstructionArgumentError(`kwargs.${key} is ${JSON.stringify(value)}, expected a list of strings`);
}

export function relationArg(kwargs: Kwargs, key = "relation"): Relation {
  const value = present(kwargs, key);
  if (typeof value === "string" && (RELATIONS as readonly string[]).includes(value)) return value as Relation;
  throw new InstructionArgumentError(`kwargs.${key} is ${JSON.stringify(value)}, expected one of ${RELATIONS.map((r) => `"${r}"`).join(", ")}`);
}

export function compare(actual: number, relation: Relation, target: number): boolean {
  if (relation === "exactly") return actual === target;
  if (relation === "at least") return actual >= target;
  return actual < target;
}
