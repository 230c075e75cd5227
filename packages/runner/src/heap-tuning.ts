import type { ProgressReporter, RunPhase } from "@yardstick/engine";
import { setFlagsFromString } from "node:v8";

/** Set once the process has opted in (`tuneHeapForBatchRuns`): only then do commands tune the heap per stage. */
let tunedForBatchRuns = false;

/**
 * A run is a long batch job whose live heap is small and steady while it churns through millions of
 * short-lived objects. V8's default heap growth (up to 4× the live set after each full GC) then lets
 * resident memory drift far above what is needed; a factor of 2 keeps it close to the live set at a
 * negligible GC cost (measured in bench/throughput). Only the CLI calls this (and the benchmarks, as
 * the bin does): a library must not change its host's V8 flags, so without it the commands leave the
 * heap alone too.
 */
export function tuneHeapForBatchRuns(): void {
  setFlagsFromString("--heap-growing-percent=100");
  tunedForBatchRuns = true;
}

/**
 * Scoring reads the whole run back and holds its per-sample columns, which makes it the peak of a
 * large run. Growing the heap by half the live set instead of all of it keeps that peak nearer what
 * is live (bench/BENCHMARKS.md, memory: 275 → 244 MB at 1,000,000 samples) at no measurable cost to
 * scoring; answering and judging keep the factor of 2, where a tighter heap slowed a cached re-run by
 * ~10%. Does nothing unless the process opted in.
 */
export function tuneHeapForStage(stage: RunPhase): void {
  if (tunedForBatchRuns) setFlagsFromString(`--heap-growing-percent=${stage === "score" ? 50 : 100}`);
}

/** `progress`, with the heap tuned for each phase as the run enters it (and `onPhase` told). */
export function tuningHeapByPhase(progress: ProgressReporter, onPhase?: (name: RunPhase) => void): ProgressReporter {
  const phase = (name: RunPhase): void => {
    tuneHeapForStage(name);
    onPhase?.(name);
    progress.phase?.(name);
  };
  return Object.create(progress, { phase: { value: phase } }) as ProgressReporter;
}
