/**
 * An AIMD in-flight limiter. Requests take a slot with `acquire()` and give it back with `release()`,
 * saying how they ended:
 * - "rate-limited" (a 429) halves the limit, at most once per rate-limit window: a 429 only counts
 *   when its request was admitted after the last decrease and the window of that decrease (the
 *   server's Retry-After, else `windowMs`) has passed. A burst of 429s from one window, or random
 *   429s spread over it, therefore halves the limit once, not down to the minimum;
 * - "success" counts towards growth in proportion to the size: after `increaseEvery` successes the
 *   limit grows by half of itself (at least 1), so a halved limit is back within two steps whatever
 *   its size;
 * - "other" (any other failure: 5xx, resets, timeouts) changes nothing: they are not a reason to send less.
 * The limit stays within [min, max]. Waiters are served first in, first out.
 */
export interface AdaptiveLimiterSettings {
  min?: number;
  max: number;
  /** Starting limit (default `max`). */
  initial?: number;
  /** Successes per step up of the limit (default 10); a step is half the current limit, at least 1. */
  increaseEvery?: number;
  /** The rate-limit window of a 429 without Retry-After (default 1000 ms). */
  windowMs?: number;
  /** Milliseconds of a monotonic clock (default `performance.now`); tests pass their own. */
  now?: () => number;
}

/** What a rate-limited answer said about its window. */
export interface RateLimitInfo {
  /** The server's Retry-After, when it sent one. */
  retryAfterMs?: number | undefined;
}

export interface LimiterTicket {
  /** The decrease epoch at admission time. */
  readonly epoch: number;
}

export type LimiterOutcome = "success" | "rate-limited" | "other";

export interface AdaptiveLimiter {
  /** Current limit on requests in flight. */
  readonly limit: number;
  readonly inFlight: number;
  readonly waiting: number;
  /** Times the limit was halved. */
  readonly decreases: number;
  acquire(signal?: AbortSignal): Promise<LimiterTicket>;
  /** A ticket at once when a slot is free and nobody is waiting (what `acquire` would resolve with), else undefined. */
  tryAcquire(): LimiterTicket | undefined;
  release(ticket: LimiterTicket, outcome: LimiterOutcome, info?: RateLimitInfo): void;
}

interface Waiter {
  resolve: (ticket: LimiterTicket) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export function createAdaptiveLimiter(settings: AdaptiveLimiterSettings): AdaptiveLimiter {
  const min = Math.max(1, Math.floor(settings.min ?? 1));
  const max = Math.max(min, Math.floor(settings.max));
  const increaseEvery = Math.max(1, Math.floor(settings.increaseEvery ?? 10));
  const defaultWindowMs = Math.max(0, settings.windowMs ?? 1000);
  const now = settings.now ?? (() => performance.now());
  /** Until when 429s belong to the window of the last decrease. */
  let windowEnd = Number.NEGATIVE_INFINITY;
  let limit = Math.min(max, Math.max(min, Math.floor(settings.initial ?? max)));
  let inFlight = 0;
  let epoch = 0;
  let successes = 0;
  let decreases = 0;
  // A FIFO with a moving head: O(1) enqueue and dequeue without Array#shift.
  let queue: (Waiter | undefined)[] = [];
  let head = 0;

  const admit = (): LimiterTicket => {
    inFlight++;
    return { epoch };
  };

  const tryAcquire = (): LimiterTicket | undefined => {
    while (head < queue.length && queue[head] === undefined) head++;
    return inFlight < limit && head === queue.length ? admit() : undefined;
  };

  const drain = () => {
    while (inFlight < limit && head < queue.length) {
      const w = queue[head];
      queue[head++] = undefined;
      if (!w) continue;
      if (w.onAbort) w.signal?.removeEventListener("abort", w.onAbort);
      w.resolve(admit());
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };

  return {
    get limit() {
      return limit;
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      let n = 0;
      for (let i = head; i < queue.length; i++) if (queue[i]) n++;
      return n;
    },
    get decreases() {
      return decreases;
    },
    tryAcquire,
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const ticket = tryAcquire();
      if (ticket) return Promise.resolve(ticket);
      return new Promise<LimiterTicket>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
        const index = queue.length;
        queue.push(waiter);
        if (signal) {
          waiter.onAbort = () => {
            if (queue[index] === waiter) queue[index] = undefined;
            reject(signal.reason);
          };
          signal.addEventListener("abort", waiter.onAbort, { once: true });
        }
        drain();
      });
    },
    release(ticket, outcome, info) {
      inFlight = Math.max(0, inFlight - 1);
      if (outcome === "rate-limited") {
        const t = now();
        if (ticket.epoch === epoch && t >= windowEnd) {
          limit = Math.max(min, Math.floor(limit / 2));
          epoch++;
          decreases++;
          successes = 0;
          windowEnd = t + (info?.retryAfterMs ?? defaultWindowMs);
        }
      } else if (outcome === "success" && limit < max) {
        if (++successes >= increaseEvery) {
          limit = Math.min(max, limit + Math.max(1, Math.floor(limit / 2)));
          successes = 0;
        }
      }
      drain();
    },
  };
}
