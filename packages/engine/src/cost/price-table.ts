import { readFileSync } from "node:fs";
import { ConfigError, packageFile } from "@yardstick/core";

/** A model's price: USD per 1M tokens, and the fraction its batch API takes off. */
export interface ModelPrice {
  input: number;
  output: number;
  batchDiscount?: number;
}

/** Model name (`provider:model` or the bare model id) → price. */
export type PriceTable = ReadonlyMap<string, ModelPrice>;

interface PriceFileShape {
  models: Record<string, ModelPrice>;
}

let builtin: PriceTable | undefined;

/** The prices shipped in this package's prices.json (read once). */
export function builtinPrices(): PriceTable {
  if (!builtin) {
    const file = JSON.parse(readFileSync(packageFile(import.meta.url, "@yardstick/engine", "prices.json"), "utf8")) as PriceFileShape;
    builtin = new Map(Object.entries(file.models));
  }
  return builtin;
}

/** The built-in table with a user's prices on top (theirs win). */
export function extendPrices(base: PriceTable, extra: Record<string, ModelPrice>): PriceTable {
  return new Map([...base, ...Object.entries(extra)]);
}

// A dated or "-latest" snapshot of a listed model costs what the model costs.
const SNAPSHOT_SUFFIX = /^-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * The price of `modelId` served by `provider`: an entry for `provider:modelId`, else for `modelId`,
 * else for the model a snapshot name belongs to (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`).
 */
export function findPrice(table: PriceTable, provider: string, modelId: string): ModelPrice | undefined {
  const exact = table.get(`${provider}:${modelId}`) ?? table.get(modelId);
  if (exact) return exact;
  let best: string | undefined;
  for (const name of table.keys()) {
    if (modelId.startsWith(name) && SNAPSHOT_SUFFIX.test(modelId.slice(name.length)) && (!best || name.length > best.length)) best = name;
  }
  return best === undefined ? undefined : table.get(best);
}

/** USD for these tokens at this price (the batch discount applied when `batch`). */
export function costOf(price: ModelPrice, inputTokens: number, outputTokens: number, batch = false): number {
  const usd = (inputTokens * price.input + outputTokens * price.output) / 1e6;
  return batch ? usd * (1 - (price.batchDiscount ?? 0)) : usd;
}

/** A model that has no price where a budget needs one: an error before the first request. */
export function missingPriceError(provider: string, modelId: string): ConfigError {
  return new ConfigError(`no price for model ${provider}:${modelId}, so --max-cost cannot be enforced`, {
    expected: `a price file (--prices FILE) with e.g.  models: { "${modelId}": { input: 0.5, output: 1.5 } }  (USD per 1M tokens)`,
  });
}
