import type { DataloaderContext, DataloaderV1 } from "./contracts.js";
import type { Sample } from "./sample.js";

/**
 * The samples of a dataloader in batches: its own `loadBatches` when it has one, otherwise each
 * sample of `load` as a batch of one (the same samples in the same order either way).
 */
export function loadSampleBatches(loader: DataloaderV1, options: Record<string, unknown>, ctx?: DataloaderContext): AsyncIterable<readonly Sample[]> {
  return loader.loadBatches ? loader.loadBatches(options, ctx) : oneByOne(loader.load(options, ctx));
}

async function* oneByOne(samples: AsyncIterable<Sample>): AsyncGenerator<readonly Sample[]> {
  for await (const sample of samples) yield [sample];
}
