/**
 * An AIMD in-flight limiter. Requests take a slot with `acquire()` and give it back with `release()`,
 * saying how they ended:
 * - "rate-limited" (a 429) halves the limit when rate limits dominate the recent answers (at least
 *   `rateLimitedShare` of the last max(32, 2 × limit)), at most once per rate-limit window: a 429
 *   only counts when its request was admitted after the last decrease and the window of that
 *   decrease (the server's Retry-After, else `windowMs`) has passed. A burst of 429s from one window
 *   halves the limit once, not down to the minimum; a sporadic 429 (say 1 answer in 10) is paced
 *   by its Retry-After alone — shrinking the limit would not make it rarer, only slow the run;
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
  /** Share of 429s among the recent answers that makes a 429 shrink the limit (default 0.25). */
  rateLimitedShare?: number;
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
}

export function createAdaptiveLimiter(settings: AdaptiveLimiterSettings): AdaptiveLimiter {
  const min = Math.max(1, Math.floor(settings.min ?? 1));
  const max = Math.max(min, Math.floor(settings.max));
  const increaseEvery = Math.max(1, Math.floor(settings.increaseEvery ?? 10));
  const defaultWindowMs = Math.max(0, settings.windowMs ?? 1000);
  const now = settings.now ?? (() => performance.now());
  /** Until when 429s belong to the window of the last decrease. */
  let windowEnd = Number.NEGATIVE_INFINITY;
  const threshold = settings.rateLimitedShare ?? 0.25;
  // The last answers, 1 for a 429: a ring as large as the largest window, max(32, 2 × max).
  const recent = new Uint8Array(Math.max(32, 2 * max));
  let recentCount = 0;
  let recentNext = 0;
  const noteAnswer = (limited: boolean): void => {
    recent[recentNext] = limited ? 1 : 0;
    recentNext = (recentNext + 1) % recent.length;
    if (recentCount < recent.length) recentCount++;
  };
  /** Share of 429s among the last max(32, 2 × limit) answers (scanned only when a 429 comes). */
  const limitedShare = (): number => {
    const size = Math.min(recentCount, Math.max(32, 2 * limit));
    let n = 0;
    for (let i = 1; i <= size; i++) n += recent[(recentNext - i + recent.length) % recent.length]!;
    return size === 0 ? 0 : n / size;
  };
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
      w.resolve(admit());
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  };

  // One abort listener per caller signal, not an add/remove pair per waiter (EventTarget listeners
  // are costly in Node, and every sample's request may wait here): on abort, the signal's waiters leave.
  const watched = new WeakSet<AbortSignal>();
  const watch = (signal: AbortSignal): void => {
    if (watched.has(signal)) return;
    watched.add(signal);
    signal.addEventListener(
      "abort",
      () => {
        for (let i = head; i < queue.length; i++) {
          const w = queue[i];
          if (w?.signal === signal) {
            queue[i] = undefined;
            w.reject(signal.reason);
          }
        }
      },
      { once: true },
    );
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
        queue.push({ resolve, reject, signal });
        if (signal) watch(signal);
        drain();
      });
    },
    release(ticket, outcome, info) {
      inFlight = Math.max(0, inFlight - 1);
      noteAnswer(outcome === "rate-limited");
      if (outcome === "rate-limited") {
        const t = now();
        if (ticket.epoch === epoch && t >= windowEnd && limitedShare() >= threshold) {
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
