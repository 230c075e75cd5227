import type { Endpoint } from "./http-transport.js";

/**
 * How an attempt on an endpoint ended, for the balancer:
 * - "ok": a usable answer;
 * - "failed": the server answered, but not usably (4xx, 429, a garbled body): it is up;
 * - "down": no answer (a reset, a timeout) or a 5xx: `failuresToSetAside` in a row set it aside;
 * - "unreachable": no connection could be made (refused, no route, no such host): sets it aside at once;
 * - "cancelled": the caller stopped the attempt; says nothing about the server.
 */
export type AttemptOutcome = "ok" | "failed" | "down" | "unreachable" | "cancelled";

/** One endpoint as the balancer sees it. Get one from `pick`, hand it back to `end`. */
export interface Lane {
  readonly endpoint: Endpoint;
  /** Attempts in flight on it. */
  readonly inFlight: number;
  /** Set aside after consecutive "down" attempts, until a probe finds it answering again. */
  readonly setAside: boolean;
}

/** What went to one endpoint so far. */
export interface EndpointStats {
  url: string;
  /** Attempts sent to it (retries included). */
  requests: number;
  /** Attempts that did not end "ok" (a stopped one does not count). */
  errors: number;
  /** Mean latency of its "ok" attempts, in ms (0 before the first). */
  meanLatencyMs: number;
  /** Times it was set aside. */
  setAside: number;
}

export interface BalancerSettings {
  /** Consecutive "down" attempts that set an endpoint aside (default 5). */
  failuresToSetAside?: number;
  /** Wait before the first probe of an endpoint set aside (default 250 ms); × 1.5 after each failed probe. */
  probeDelayMs?: number;
  /** Longest wait between probes (default 2 s: a probe is one small GET, and a server back is found soon). */
  maxProbeDelayMs?: number;
  /**
   * How long every endpoint may be set aside before the requests waiting for one fail (default 180 s);
   * until one answers again, later requests then fail at once instead of waiting.
   */
  maxOutageMs?: number;
  /** Asks a set-aside endpoint whether it answers again (e.g. GET /models); true when it does. */
  probe: (endpoint: Endpoint) => Promise<boolean>;
  /** Milliseconds of a monotonic clock (default `performance.now`). */
  now?: () => number;
}

export interface Balancer {
  readonly lanes: readonly Lane[];
  /**
   * The endpoint for the next attempt, counted in flight until `end`: among those not set aside, the
   * one with the least expected wait (latency EWMA × (in flight + 1)), other than `avoid` (the
   * endpoint a retried attempt just failed on) when there is another. Undefined when every endpoint
   * is set aside: wait with `whenAvailable`.
   */
  pick(avoid?: Lane): Lane | undefined;
  /** Counts how the attempt picked on `lane` ended; `why` (a "down" attempt's message) goes into the outage error. */
  end(lane: Lane, outcome: AttemptOutcome, latencyMs: number, why?: string): void;
  /**
   * Sets an endpoint aside that the caller found down outside an attempt (a start-up check), to be
   * probed and brought back like one that failed its attempts.
   */
  setAside(lane: Lane, why: string): void;
  /**
   * Resolves once an endpoint is usable again; rejects with an `OutageError` when every endpoint has
   * been set aside for `maxOutageMs` (at once when that already happened), or with the signal's reason.
   */
  whenAvailable(signal?: AbortSignal): Promise<void>;
  stats(): EndpointStats[];
  /** Stops probing; waiting callers fail with an OutageError. */
  close(): void;
}

/** Every endpoint was unreachable for longer than the balancer's `maxOutageMs`. */
export class OutageError extends Error {
  override readonly name = "OutageError";
}

interface LaneState extends Lane {
  inFlight: number;
  setAside: boolean;
  /** Latency EWMA in ms; NaN before anything is known. */
  ewmaMs: number;
  consecutiveDown: number;
  requests: number;
  errors: number;
  latencySumMs: number;
  answered: number;
  timesSetAside: number;
  probeDelayMs: number;
  probeTimer: ReturnType<typeof setTimeout> | undefined;
  lastWhy: string | undefined;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/** Weight of a new latency sample in the EWMA. */
const EWMA_WEIGHT = 0.1;
/** A "down" attempt counts as this many typical latencies, so an endpoint that fails often gets less load. */
const DOWN_PENALTY = 4;
/** Growth of the wait between probes of an endpoint that stays down. */
const PROBE_BACKOFF = 1.5;
/** One pick in this many goes round robin, so an endpoint the EWMA ruled out is measured again. */
const EXPLORE_EVERY = 64;

/**
 * Shares attempts among several endpoints (base URLs) by their measured latency and load, with a
 * circuit breaker per endpoint: one that fails `failuresToSetAside` times in a row (no answer, or a
 * 5xx) is set aside and probed in the background after a backoff; a probe that answers brings it
 * back. When every endpoint is set aside, attempts wait for a probe (`whenAvailable`) instead of
 * spending their retries on a server that is down, for at most `maxOutageMs`. Before any endpoint
 * has answered, none is set aside: a wrong URL fails through the caller's retries as before.
 * `pick` and `end` allocate nothing and start no timer: they run once per attempt.
 */
export function createBalancer(endpoints: readonly Endpoint[], settings: BalancerSettings): Balancer {
  if (endpoints.length === 0) throw new TypeError("createBalancer needs at least one endpoint");
  const failuresToSetAside = Math.max(1, Math.floor(settings.failuresToSetAside ?? 5));
  const firstProbeDelayMs = Math.max(1, settings.probeDelayMs ?? 250);
  const maxProbeDelayMs = Math.max(firstProbeDelayMs, settings.maxProbeDelayMs ?? 2000);
  const maxOutageMs = Math.max(0, settings.maxOutageMs ?? 180_000);
  const now = settings.now ?? (() => performance.now());
  const lanes: LaneState[] = endpoints.map((endpoint) => ({
    endpoint,
    inFlight: 0,
    setAside: false,
    ewmaMs: Number.NaN,
    consecutiveDown: 0,
    requests: 0,
    errors: 0,
    latencySumMs: 0,
    answered: 0,
    timesSetAside: 0,
    probeDelayMs: firstProbeDelayMs,
    probeTimer: undefined,
    lastWhy: undefined,
  }));
  const single = lanes.length === 1 ? lanes[0]! : undefined;
  let setAsideCount = 0;
  let picks = 0;
  /** When the last usable endpoint was set aside (NaN while one is usable). */
  let allDownSince = Number.NaN;
  let gaveUp = false;
  /** Whether any endpoint has answered yet: only then is a failing one set aside. */
  let answeredOnce = false;
  let outageTimer: ReturnType<typeof setTimeout> | undefined;
  let waiters: Waiter[] = [];
  let closed = false;

  const cost = (lane: LaneState): number => (lane.inFlight + 1) * (lane.ewmaMs > 0 ? lane.ewmaMs : 1);

  function pickAmong(avoid: Lane | undefined): LaneState | undefined {
    const n = lanes.length;
    const start = picks++ % n;
    // Now and then the next endpoint in turn, whatever its EWMA says, to measure it again.
    if (picks % EXPLORE_EVERY === 0) {
      const lane = lanes[start]!;
      if (!lane.setAside && lane !== avoid) return lane;
    }
    let best: LaneState | undefined;
    let bestCost = Number.POSITIVE_INFINITY;
    let avoided: LaneState | undefined;
    // Scanning from a rotating start spreads ties (equal costs) round robin.
    for (let k = 0; k < n; k++) {
      const lane = lanes[(start + k) % n]!;
      if (lane.setAside) continue;
      if (lane === avoid) {
        avoided = lane;
        continue;
      }
      const c = cost(lane);
      if (c < bestCost) {
        best = lane;
        bestCost = c;
      }
    }
    return best ?? avoided;
  }

  function record(lane: LaneState, latencyMs: number): void {
    if (Number.isNaN(lane.ewmaMs)) {
      // The first answer anywhere also stands for the endpoints not measured yet, so they get a fair share.
      for (const other of lanes) if (Number.isNaN(other.ewmaMs)) other.ewmaMs = latencyMs;
    } else {
      lane.ewmaMs += EWMA_WEIGHT * (latencyMs - lane.ewmaMs);
    }
  }

  function setLaneAside(lane: LaneState): void {
    lane.setAside = true;
    lane.timesSetAside++;
    setAsideCount++;
    if (setAsideCount === lanes.length) {
      allDownSince = now();
      outageTimer = setTimeout(giveUp, maxOutageMs);
      if (waiters.length === 0) outageTimer.unref();
    }
    scheduleProbe(lane);
  }

  function scheduleProbe(lane: LaneState): void {
    if (closed) return;
    const delay = lane.probeDelayMs;
    lane.probeDelayMs = Math.min(maxProbeDelayMs, lane.probeDelayMs * PROBE_BACKOFF);
    lane.probeTimer = setTimeout(() => probe(lane), delay);
    // Probing alone keeps no process alive; a caller waiting for an endpoint does (see whenAvailable).
    if (waiters.length === 0) lane.probeTimer.unref();
  }

  function probe(lane: LaneState): void {
    lane.probeTimer = undefined;
    if (closed || !lane.setAside) return;
    settings.probe(lane.endpoint).then(
      (up) => (up ? bringBack(lane) : scheduleProbe(lane)),
      () => scheduleProbe(lane),
    );
  }

  function bringBack(lane: LaneState): void {
    if (!lane.setAside) return;
    lane.setAside = false;
    lane.consecutiveDown = 0;
    lane.probeDelayMs = firstProbeDelayMs;
    // Its failures made it look slow: back, it starts level with the fastest endpoint up, so it is
    // measured again at once rather than after many exploring picks.
    for (const other of lanes) if (other !== lane && !other.setAside && other.ewmaMs < lane.ewmaMs) lane.ewmaMs = other.ewmaMs;
    if (lane.probeTimer) clearTimeout(lane.probeTimer);
    lane.probeTimer = undefined;
    setAsideCount--;
    allDownSince = Number.NaN;
    gaveUp = false;
    if (outageTimer) clearTimeout(outageTimer);
    outageTimer = undefined;
    const woken = waiters;
    waiters = [];
    for (const w of woken) settle(w).resolve();
  }

  function outageError(): OutageError {
    const seconds = Math.round((now() - allDownSince) / 100) / 10;
    const why = lanes
      .map((l) => `${l.endpoint.url}${l.lastWhy ? `: ${l.lastWhy}` : ""}`)
      .join("; ");
    const which = lanes.length === 1 ? "the server" : `all ${lanes.length} base URLs`;
    return new OutageError(`${which} did not answer for ${Number.isNaN(seconds) ? 0 : seconds} s, giving up (${why})`);
  }

  function giveUp(): void {
    outageTimer = undefined;
    gaveUp = true;
    const failed = waiters;
    waiters = [];
    const error = outageError();
    for (const w of failed) settle(w).reject(error);
  }

  /** Takes the waiter's abort listener off before it is resolved or rejected. */
  function settle(w: Waiter): Waiter {
    if (w.onAbort) w.signal?.removeEventListener("abort", w.onAbort);
    return w;
  }

  /** Timers keep the process alive only while someone waits for them. */
  function holdTimers(hold: boolean): void {
    for (const lane of lanes) if (lane.probeTimer) hold ? lane.probeTimer.ref() : lane.probeTimer.unref();
    if (outageTimer) hold ? outageTimer.ref() : outageTimer.unref();
  }

  return {
    lanes,
    pick(avoid) {
      if (single !== undefined) {
        if (single.setAside) return undefined;
        single.inFlight++;
        single.requests++;
        return single;
      }
      if (setAsideCount === lanes.length) return undefined;
      const lane = pickAmong(avoid)!;
      lane.inFlight++;
      lane.requests++;
      return lane;
    },
    end(picked, outcome, latencyMs, why) {
      const lane = picked as LaneState;
      lane.inFlight--;
      if (outcome === "ok") {
        answeredOnce = true;
        lane.consecutiveDown = 0;
        lane.latencySumMs += latencyMs;
        lane.answered++;
        record(lane, latencyMs);
        // An answer from an attempt sent before it was set aside: it is up after all.
        if (lane.setAside) bringBack(lane);
        return;
      }
      if (outcome === "cancelled") return;
      lane.errors++;
      answeredOnce ||= outcome === "failed";
      if (outcome === "failed") {
        lane.consecutiveDown = 0;
        return;
      }
      lane.lastWhy = why;
      // Nothing has answered yet (a wrong URL, a server still starting): no outage to wait out; the
      // caller's retries and their backoff decide, as without a balancer.
      if (!answeredOnce) return;
      if (!Number.isNaN(lane.ewmaMs)) lane.ewmaMs += EWMA_WEIGHT * (DOWN_PENALTY * Math.max(latencyMs, lane.ewmaMs) - lane.ewmaMs);
      lane.consecutiveDown++;
      if (!lane.setAside && (outcome === "unreachable" || lane.consecutiveDown >= failuresToSetAside)) setLaneAside(lane);
    },
    setAside(picked, why) {
      const lane = picked as LaneState;
      if (closed || lane.setAside) return;
      lane.lastWhy = why;
      setLaneAside(lane);
    },
    whenAvailable(signal) {
      if (setAsideCount < lanes.length) return Promise.resolve();
      if (closed || gaveUp) return Promise.reject(outageError());
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
        if (signal) {
          waiter.onAbort = () => {
            waiters = waiters.filter((w) => w !== waiter);
            if (waiters.length === 0) holdTimers(false);
            reject(signal.reason);
          };
          signal.addEventListener("abort", waiter.onAbort, { once: true });
        }
        if (waiters.length === 0) holdTimers(true);
        waiters.push(waiter);
      });
    },
    stats() {
      return lanes.map((l) => ({
        url: l.endpoint.url,
        requests: l.requests,
        errors: l.errors,
        meanLatencyMs: l.answered === 0 ? 0 : Math.round((l.latencySumMs / l.answered) * 10) / 10,
        setAside: l.timesSetAside,
      }));
    },
    close() {
      if (closed) return;
      closed = true;
      for (const lane of lanes) if (lane.probeTimer) clearTimeout(lane.probeTimer);
      if (outageTimer) clearTimeout(outageTimer);
      outageTimer = undefined;
      if (setAsideCount === lanes.length) {
        giveUp();
      } else {
        const woken = waiters;
        waiters = [];
        for (const w of woken) settle(w).resolve();
      }
    },
  };
}
