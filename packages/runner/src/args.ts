import { parseArgs } from "node:util";
import { type CliFlags, ConfigError, type ParseArgsOptionsOf, parseArgsErrorMessage, parseArgsOptions } from "@yardstick/core";
import { z } from "zod";

/** A command-line usage error: printed with the command's help, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Parses argv with a command's option table (the same table its help is rendered from, so every
 * accepted flag is documented). An unknown flag names the closest known one.
 */
export function parseFlags<F extends CliFlags>(
  argv: string[],
  flags: F,
): {
  values: ReturnType<typeof parseArgs<{ options: ParseArgsOptionsOf<F>; allowPositionals: true; strict: true; args: string[] }>>["values"];
  positionals: string[];
} {
  try {
    const r = parseArgs({ args: argv, options: parseArgsOptions(flags), allowPositionals: true, strict: true });
    return { values: r.values as never, positionals: r.positionals };
  } catch (err) {
    throw new UsageError(parseArgsErrorMessage(err, flags));
  }
}

/** Checks a flag value with a zod schema; the message names the flag and what was expected. */
export function checkFlag<S extends z.ZodType>(flag: string, schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new UsageError(`--${flag}: ${issue?.message ?? "invalid value"} (got ${JSON.stringify(value)})`);
  }
  return r.data;
}

export const intFlag = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ message: "expected an integer" })
    .int({ message: "expected an integer" })
    .min(min, { message: `expected an integer >= ${min}` })
    .max(max, { message: `expected an integer <= ${max}` });

export const listFlag = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");

export function requireConfigPaths(positionals: string[], command: string): string[] {
  if (positionals.length === 0) throw new UsageError(`${command}: give at least one config file or folder`);
  return positionals;
}

export { ConfigError };
