import { ConfigError } from "@yardstick/core";
import type { z } from "zod";

/** Parses factory settings with a zod schema; a failure becomes a ConfigError naming the key path. */
export function parseSettings<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const keyPath = (issue?.path ?? []).map((k) => (typeof k === "symbol" ? String(k) : k));
  throw new ConfigError(`invalid ${what} settings: ${issue?.message ?? "invalid value"}`, { keyPath });
}
