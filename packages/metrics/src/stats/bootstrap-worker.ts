import { seedState } from "@yardstick/core";
import { bootstrapMeansFromState } from "./bootstrap.js";

/** Below this many draws (sample count × resamples) a worker thread's start costs more than it saves. */
export const WORKER_MIN_DRAWS = 20_000_000;
/**
 * Above this many scores the worker is not used: a worker thread costs ~30 MB of resident memory,
 * and a task this large has its memory peak in scoring (a 1,000,000-sample run's must stay under
 * 300 MB), while the second or two saved is little against such a run.
 */
export const WORKER_MAX_SCORES = 250_000;

// The worker's whole script: the self-contained hot loop and a few lines around it. Evaluated from
// source rather than loaded from a file, so it works the same from dist/ and from the bundled CLI.
const WORKER_SOURCE = `"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const bootstrapMeansFromState = ${bootstrapMeansFromState.toString()};
const { values, resamples, state } = workerData;
const means = bootstrapMeansFromState(values, resamples, state[0], state[1], state[2], state[3]);
parentPort.postMessage(means, [means.buffer]);
`;

/**
 * `bootstrapMeans` on a worker thread, so that the caller can do other work (another bootstrap) on
 * the main thread meanwhile: the same means, bit for bit. Small inputs (under `WORKER_MIN_DRAWS`
 * draws), very large ones (over `WORKER_MAX_SCORES` scores) and a worker that fails are computed on
 * the calling thread instead.
 */
export async function bootstrapMeansInBackground(values: Float64Array, resamples: number, seed: number): Promise<Float64Array> {
  const state = seedState(seed);
  if (values.length * resamples >= WORKER_MIN_DRAWS && values.length <= WORKER_MAX_SCORES) {
    try {
      return await bootstrapMeansOnWorker(values, resamples, state);
    } catch {
      // computed here instead
    }
  }
  return bootstrapMeansFromState(values, resamples, state[0], state[1], state[2], state[3]);
}

/** The worker thread itself (no fallback). `values` is copied to the worker: the caller keeps it. */
export async function bootstrapMeansOnWorker(values: Float64Array, resamples: number, state: readonly number[]): Promise<Float64Array> {
  const { Worker } = await import("node:worker_threads");
  return new Promise<Float64Array>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { values, resamples, state } });
    worker.once("message", (means: Float64Array) => resolve(means));
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`bootstrap worker exited with code ${code}`)));
  });
}
