/**
 * The price file of `yardstick run --prices FILE` (YAML or JSON): USD per 1M tokens per model, which
 * extends and overrides the built-in price table of @yardstick/engine.
 *
 * ```yaml
 * models:
 *   Qwen/Qwen3-8B: { input: 0.05, output: 0.25 }
 *   "anthropic:claude-sonnet-4-5": { input: 3, output: 15, batchDiscount: 0.5 }
 * ```
 */
import { readFile } from "node:fs/promises";
import { ConfigError } from "@yardstick/core";
import { z } from "zod";
import { nodeAtPath, nodePosition, parseYamlSource } from "./yaml-source.js";
import { issueToConfigError } from "./zod-issues.js";

const usdPerMillion = z.number({ message: "expected a price in USD per 1M tokens" }).nonnegative();

export const modelPriceSchema = z.strictObject({
  input: usdPerMillion,
  output: usdPerMillion,
  /** The fraction taken off with the provider's batch API (0.5 = half price); default none. */
  batchDiscount: z.number().min(0).max(1).optional(),
});

export const priceFileSchema = z.strictObject({
  models: z.record(z.string().min(1), modelPriceSchema),
});

export type PriceFile = z.output<typeof priceFileSchema>;

/** Parses price-file text; errors name the file, line and key path. */
export function parsePriceFile(file: string, text: string): PriceFile {
  const source = parseYamlSource(file, text);
  const parsed = priceFileSchema.safeParse(source.doc.toJS() ?? {});
  if (!parsed.success) throw issueToConfigError(parsed.error.issues[0]!, [], (p) => nodePosition(source, nodeAtPath(source, p).node));
  return parsed.data;
}

export async function loadPriceFile(file: string): Promise<PriceFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new ConfigError(`cannot read the price file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file });
  }
  return parsePriceFile(file, text);
}
