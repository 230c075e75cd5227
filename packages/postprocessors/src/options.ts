/** Explicit option checks (this package has no schema library dependency). */
import { ConfigError, DataLoadError } from "@yardstick/core";

/** Rejects keys a postprocessor does not know, so a typo in a config is reported, not ignored. */
export function checkKnownKeys(id: string, options: Record<string, unknown>, known: readonly string[]): void {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ConfigError(`postprocessor ${id}: options must be an object`, { expected: "an object" });
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new ConfigError(`postprocessor ${id}: unknown option "${key}"`, {
        keyPath: [key],
        expected: known.length > 0 ? `one of ${known.join(", ")}` : "no options",
      });
    }
  }
}

export function optionalString(id: string, options: Record<string, unknown>, key: string): string | undefined {
  const v = options[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw new ConfigError(`postprocessor ${id}: option ${key} must be a string`, { keyPath: [key], expected: "a string" });
  return v;
}

export function optionalBoolean(id: string, options: Record<string, unknown>, key: string): boolean | undefined {
  const v = options[key];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") throw new ConfigError(`postprocessor ${id}: option ${key} must be true or false`, { keyPath: [key], expected: "a boolean" });
  return v;
}

export function optionalStringList(id: string, options: Record<string, unknown>, key: string): string[] | undefined {
  const v = options[key];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
    throw new ConfigError(`postprocessor ${id}: option ${key} must be a list of strings`, { keyPath: [key], expected: "a list of strings" });
  }
  return v as string[];
}

/** The response text must be a string; anything else is a broken response record. */
export function checkText(id: string, text: unknown): string {
  if (typeof text !== "string") throw new DataLoadError(`postprocessor ${id}: expected the response text as a string, got ${describe(text)}`);
  return text;
}

export function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "number" && Number.isNaN(v)) return "NaN";
  return typeof v;
}
