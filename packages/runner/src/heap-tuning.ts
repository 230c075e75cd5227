import { setFlagsFromString } from "node:v8";

/**
 * A run is a long batch job whose live heap is small and steady while it churns through millions of
 * short-lived objects. V8's default heap growth (up to 4× the live set after each full GC) then lets
 * resident memory drift far above what is needed; a factor of 2 keeps it close to the live set at a
 * negligible GC cost (measured in bench/throughput). Only the CLI calls this: a library must not
 * change its host's V8 flags.
 */
export function tuneHeapForBatchRuns(): void {
  setFlagsFromString("--heap-growing-percent=100");
}
