import { ConfigError } from "@yardstick/core";

/** Options of the `ifeval` metric (the factory's settings are defaults for them). */
export interface IfevalOptions {
  /** The response language to expect; defaults to the task's language, then the row's `metadata.language`. */
  language?: string;
  /**
   * Reproduce Python's `\w` in word counts and word boundaries: combining marks are not word
   * characters, so upstream counts a Tamil word as several. Default false (marks belong to words).
   */
  pythonWordChars: boolean;
  /**
   * Reproduce upstream's response_language checker, which accepts Malay for "id" but rejects
   * Indonesian for "ms". Default false (the two are interchangeable both ways, as in the overall
   * language check).
   */
  upstreamResponseLanguage: boolean;
}

export const IFEVAL_OPTION_DEFAULTS: IfevalOptions = { pythonWordChars: false, upstreamResponseLanguage: false };

const KEYS: Record<keyof IfevalOptions, "string" | "boolean"> = {
  language: "string",
  pythonWordChars: "boolean",
  upstreamResponseLanguage: "boolean",
};

/**
 * Checks an options object (from a config file or the factory) and lays it over `base`. Unknown
 * keys and wrong types raise a ConfigError with the key path, so typos do not pass silently.
 */
export function parseIfevalOptions(raw: unknown, base: IfevalOptions, where: string): IfevalOptions {
  if (raw === undefined || raw === null) return base;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new ConfigError(`${where} must be an object`, { expected: "an object of ifeval options" });
  }
  const out: IfevalOptions = { ...base };
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const type = KEYS[key as keyof IfevalOptions];
    if (type === undefined) {
      throw new ConfigError(`unknown ${where} key "${key}"`, { keyPath: [key], expected: `one of ${Object.keys(KEYS).join(", ")}` });
    }
    if (typeof value !== type || (type === "string" && (value as string).trim() === "")) {
      throw new ConfigError(`${where} "${key}" is ${JSON.stringify(value)}`, { keyPath: [key], expected: type === "string" ? "a non-empty string" : "a boolean" });
    }
    (out as unknown as Record<string, unknown>)[key] = value;
  }
  return out;
}
