import { ConfigError } from "@yardstick/core";
import { z } from "zod";

/** Options of `keyword-coverage`; `.strict()` turns a misspelt key into an error instead of a no-op. */
export const keywordCoverageOptionsSchema = z
  .object({
    /** Match keywords with their exact case. */
    caseSensitive: z.boolean().default(false),
    /** Only count a keyword when it stands as a whole word ("cat" is not found in "category"). */
    wholeWord: z.boolean().default(true),
  })
  .strict();

export type KeywordCoverageOptions = z.infer<typeof keywordCoverageOptionsSchema>;

/** Validates options from a config file or a factory call; failures become a ConfigError with the key path. */
export function parseKeywordCoverageOptions(raw: unknown, where = "keyword-coverage options"): KeywordCoverageOptions {
  const parsed = keywordCoverageOptionsSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ConfigError(`${where}: ${issue?.message ?? "invalid options"}`, {
    keyPath: (issue?.path ?? []).filter((key): key is string | number => typeof key !== "symbol"),
    expected: "{ caseSensitive?: boolean, wholeWord?: boolean }",
    cause: parsed.error,
  });
}
