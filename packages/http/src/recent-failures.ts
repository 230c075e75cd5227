import { backoffDelay } from "./retry-policy.js";

/**
 * The share of recent attempts that failed, and a backoff scaled by it. Exponential backoff exists
 * so that a failing server is not hammered; when most attempts succeed the server is up and a
 * failed attempt (a reset, a 500, a garbled body) is a one-off, so waiting seconds before retrying
 * it only stretches the run. The wait is therefore the usual jittered backoff times the failure
 * share: a server failing everything gets the full backoff, one failing 1 in 10 a tenth of it.
 */
export interface RecentFailures {
  note(failed: boolean): void;
  /** Failed share of the last `window` attempts; 1 before any attempt (nothing is known yet). */
  readonly share: number;
  /** `backoffDelay(attempt, baseMs, maxMs)` × `share`. */
  backoff(attempt: number, baseMs: number, maxMs: number, random?: () => number): number;
}

export function createRecentFailures(window = 64): RecentFailures {
  const size = Math.max(1, Math.floor(window));
  const ring = new Uint8Array(size);
  let count = 0;
  let next = 0;
  let failed = 0;
  const share = (): number => (count === 0 ? 1 : failed / count);
  return {
    note(isFailure) {
      if (count === size) failed -= ring[next]!;
      else count++;
      ring[next] = isFailure ? 1 : 0;
      failed += ring[next]!;
      next = (next + 1) % size;
    },
    get share() {
      return share();
    },
    backoff(attempt, baseMs, maxMs, random) {
      return backoffDelay(attempt, baseMs, maxMs, random) * share();
    },
  };
}
