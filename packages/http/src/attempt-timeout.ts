/**
 * The time limit of one attempt, adapted to the latencies the server has shown: a hung request is
 * cut after `factor` × the p99 of recent successful latencies (at least `floorMs`), not after the
 * configured timeout, so it holds its slot briefly and its retry goes out soon. The configured
 * timeout stays the cap. Until `minSamples` successes are known the cap is used as is, and each
 * earlier attempt of the same request that timed out doubles the limit (up to the cap): a request
 * that is genuinely slow still gets the whole configured time on a later attempt.
 */
export interface AttemptTimeoutSettings {
  /** The configured timeout: never exceeded. */
  capMs: number;
  /** Shortest adaptive limit (default 1000 ms). */
  floorMs?: number;
  /** Multiple of the p99 (default 4). */
  factor?: number;
  /** Successful latencies kept (default 256). */
  window?: number;
  /** Successes needed before the limit adapts (default 20). */
  minSamples?: number;
  /** Latencies older than this are forgotten (default 300,000 ms): the server may have changed. */
  maxAgeMs?: number;
  /** Milliseconds of a monotonic clock (default `performance.now`); tests pass their own. */
  now?: () => number;
}

export interface AttemptTimeout {
  /** Notes the latency of a successful attempt. */
  record(latencyMs: number): void;
  /** The limit of the next attempt, given how many earlier attempts of the same request timed out. */
  timeoutMs(earlierTimeouts?: number): number;
  /** The p99 of the latencies kept, or undefined below `minSamples`. */
  readonly p99: number | undefined;
}

export function createAttemptTimeout(settings: AttemptTimeoutSettings): AttemptTimeout {
  const cap = Math.max(1, settings.capMs);
  const floor = Math.min(cap, Math.max(1, settings.floorMs ?? 1000));
  const factor = settings.factor ?? 4;
  const size = Math.max(1, Math.floor(settings.window ?? 256));
  const minSamples = Math.min(size, Math.max(1, Math.floor(settings.minSamples ?? 20)));
  const maxAge = settings.maxAgeMs ?? 300_000;
  const now = settings.now ?? (() => performance.now());
  // A ring of the last `size` latencies and when each was noted.
  const latencies = new Float64Array(size);
  const times = new Float64Array(size);
  let count = 0;
  let next = 0;
  /** The p99 is recomputed lazily: sorting on every success would cost more than the request. */
  let cached: number | undefined;
  let stale = true;
  let computedAt = Number.NEGATIVE_INFINITY;

  const p99 = (): number | undefined => {
    const t = now();
    if (!stale && t - computedAt < 1000) return cached;
    const kept: number[] = [];
    for (let i = 0; i < count; i++) if (t - times[i]! <= maxAge) kept.push(latencies[i]!);
    stale = false;
    computedAt = t;
    if (kept.length < minSamples) return (cached = undefined);
    kept.sort((a, b) => a - b);
    return (cached = kept[Math.min(kept.length - 1, Math.ceil(kept.length * 0.99) - 1)]);
  };

  return {
    record(latencyMs) {
      latencies[next] = latencyMs;
      times[next] = now();
      next = (next + 1) % size;
      if (count < size) count++;
      // Below the threshold every success matters; above it, a refresh per second is enough.
      if (cached === undefined || count <= minSamples) stale = true;
    },
    timeoutMs(earlierTimeouts = 0) {
      const observed = p99();
      if (observed === undefined) return cap;
      const adaptive = Math.max(floor, factor * observed) * 2 ** Math.max(0, earlierTimeouts);
      return Math.min(cap, Math.ceil(adaptive));
    },
    get p99() {
      return p99();
    },
  };
}
