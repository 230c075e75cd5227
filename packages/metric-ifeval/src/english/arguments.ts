import { InstructionArgumentError, type Kwargs } from "../checkers/arguments.js";

/** google's checkers compare with these two relations only; anything else is a ValueError upstream. */
export const ENGLISH_RELATIONS = ["less than", "at least"] as const;
export type EnglishRelation = (typeof ENGLISH_RELATIONS)[number];

export function englishRelationArg(kwargs: Kwargs, key: string): EnglishRelation {
  const value = kwargs[key];
  if (typeof value === "string" && (ENGLISH_RELATIONS as readonly string[]).includes(value)) return value as EnglishRelation;
  const got = value === undefined ? "missing" : `${JSON.stringify(value)}`;
  throw new InstructionArgumentError(`kwargs.${key} is ${got}, expected "less than" or "at least"`);
}

export function compareEnglish(actual: number, relation: EnglishRelation, target: number): boolean {
  return relation === "less than" ? actual < target : actual >= target;
}

/**
 * One instruction's kwargs as upstream passes them to `build_description`: entries that Python
 * finds false (None, 0, "", empty lists, lists of false items) are dropped, since the Hugging Face
 * struct fills every row with every argument name.
 */
export function truthyKwargs(value: unknown): Kwargs {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new InstructionArgumentError(`kwargs entry is ${JSON.stringify(value)}, expected an object`);
  }
  return Object.fromEntries(Object.entries(value).filter(([, v]) => pythonTruthy(v)));
}

function pythonTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(pythonTruthy);
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  return Boolean(value);
}
