import { z } from "zod";

/** Shared bootstrap options. The default seed is fixed (0) so results are reproducible unless varied on purpose. */
export const bootstrapOptionsSchema = z
  .object({
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    resamples: z.number().int().min(1).max(10_000_000).default(1000),
    confidence: z.number().gt(0).lt(1).default(0.95),
  })
  .strict();

export type BootstrapOptions = z.input<typeof bootstrapOptionsSchema>;
