import { MetricError } from "@yardstick/core";
import type { z } from "zod";

/** Parses a metric's options with its zod schema; failures become a MetricError naming the option. */
export function parseOptions<T extends z.ZodType>(metricId: string, schema: T, options: unknown): z.infer<T> {
  const result = schema.safeParse(options ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues
    .map((i) => `${i.path.length > 0 ? i.path.join(".") : "(options)"}: ${i.message}`)
    .join("; ");
  throw new MetricError(`invalid options: ${issues}`, { metricId });
}
