import { z } from "zod";

/** A plugin reference as a TaskSpec holds it. */
const pluginRefSchema = z.object({ id: z.string().min(1), options: z.record(z.string(), z.unknown()).optional() });

const generationSchema = z.object({
  maxTokens: z.number().int().nonnegative().optional(),
  temperature: z.number().optional(),
  topP: z.number().optional(),
  stop: z.array(z.string()).optional(),
  seed: z.number().int().optional(),
  n: z.number().int().positive().optional(),
  extraBody: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The `TaskSpec` contract of @yardstick/core as a schema, so the dialect suite can name the field that
 * is missing or out of its enum. Fields added to TaskSpec later pass unchecked.
 */
export const taskSpecSchema = z.object({
  key: z.string().min(1),
  name: z.string().min(1),
  language: z.string(),
  competency: z.string(),
  aggregationGroup: z.string().optional(),
  source: z.object({ file: z.string().min(1), dialect: z.string().min(1) }).optional(),
  data: pluginRefSchema,
  examples: pluginRefSchema.optional(),
  fewshot: z.number().int().nonnegative(),
  prompt: pluginRefSchema,
  mode: z.enum(["generate", "loglikelihood"]),
  endpoint: z.enum(["chat", "completion"]),
  generation: generationSchema,
  turns: z.number().int().positive().optional(),
  postprocessors: z.array(pluginRefSchema),
  metrics: z.array(pluginRefSchema),
  judge: pluginRefSchema.extend({ generation: generationSchema.optional(), model: z.string().min(1).optional() }).optional(),
  mainScore: z.string().min(1),
  errorResponses: z.enum(["replace", "drop"]),
  labels: z.array(z.string()).optional(),
  dataDigest: z.string().optional(),
  unsupported: z.array(z.object({ code: z.string().min(1), message: z.string().min(1) })).optional(),
  plugins: z.array(z.string().min(1)).optional(),
  diagnostics: z
    .array(
      z.object({
        level: z.enum(["info", "warning"]),
        message: z.string().min(1),
        keyPath: z.array(z.union([z.string(), z.number()])).optional(),
      }),
    )
    .optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** Zod issues as "key.path: message" lines. */
export function describeIssues(error: z.ZodError, prefix: string): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
    return `${prefix}${path}: ${issue.message}`;
  });
}
