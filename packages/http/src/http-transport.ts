import type { IncomingHttpHeaders } from "node:http";
import { Pool, util as undiciUtil } from "undici";
import type { AttemptTimeout } from "./attempt-timeout.js";

/** One base URL: a shared keep-alive pool for its origin and the path prefix (e.g. "/v1"). */
export interface Endpoint {
  /** The base URL as configured, without a trailing slash (never holds credentials: the settings reject them). */
  readonly url: string;
  readonly basePath: string;
  readonly pool: Pool;
}

export interface HttpReply {
  status: number;
  /**
   * For `post`: parsed for error statuses only (for Retry-After), empty on a 2xx, where nobody reads
   * them. For `get`: always parsed.
   */
  headers: IncomingHttpHeaders;
  text: string;
  latencyMs: number;
}

/** Why an attempt got no HTTP answer. */
export class TransportError extends Error {
  /** No connection could be made at all (refused, no route, unknown host): nothing answers there now. */
  readonly unreachable: boolean;

  constructor(
    readonly kind: "timeout" | "network" | "aborted",
    message: string,
    options: { cause?: unknown; unreachable?: boolean } = {},
  ) {
    super(message, options);
    this.unreachable = options.unreachable ?? false;
  }
}

/** Error codes of a connection that could not be made (as opposed to one that broke). */
const CONNECT_FAILURES = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

export interface Transport {
  readonly endpoints: readonly Endpoint[];
  /** The next endpoint, round robin. */
  next(): Endpoint;
  /**
   * `timeoutMs` bounds the attempt from the start; with an `attemptTimeout` (see createTransport) the
   * attempt is also cut once it runs longer than `attemptTimeout.timeoutMs(earlierTimeouts)`, as
   * that limit is now, even when it was unknown when the attempt started.
   */
  post(
    endpoint: Endpoint,
    path: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
    signal?: AbortSignal,
    earlierTimeouts?: number,
  ): Promise<HttpReply>;
  /** GETs `path` (with its query string) below the endpoint's path. */
  get(endpoint: Endpoint, path: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal, earlierTimeouts?: number): Promise<HttpReply>;
  close(): Promise<void>;
}

/**
 * Collects one response for `Pool.dispatch`. This replaces `pool.request()`, which wraps every
 * response in an AsyncResource and a Readable stream and parses all headers: per request that was
 * a large share of the harness's own CPU time, and we only ever want the whole body as text.
 */
class ReplyCollector {
  status = 0;
  /** Where `track` keeps this request while it is in flight. */
  group: InFlight | undefined = undefined;
  slot = -1;
  /** Where the transport's sweeper keeps it (see createTransport's `attemptTimeout`). */
  sweepGroup: InFlight | undefined = undefined;
  sweepSlot = -1;
  /**
   * When undici wrote the request on a connection: latency counts from here, so time spent waiting
   * for a free connection or connecting (after a reset) does not inflate the adaptive timeout.
   */
  sentAt = 0;
  private rawHeaders: Buffer[] | null = null;
  private chunks: Buffer[] = [];
  private abortRequest: ((err?: Error) => void) | null = null;
  private reason: unknown = undefined;
  private settled = false;

  constructor(
    readonly started: number,
    /** Earlier attempts of the same request that timed out (their count doubles the limit). */
    readonly earlierTimeouts: number,
    /** Parse the headers of 2xx answers too (else only of errors). */
    private readonly allHeaders: boolean,
    private readonly resolve: (reply: HttpReply) => void,
    private readonly reject: (err: unknown) => void,
  ) {}

  /** The caller's signal fired: abort now if connected, else as soon as undici connects. */
  abort(reason: unknown): void {
    this.reason = reason;
    if (this.abortRequest) this.abortRequest(reason as Error);
  }

  onConnect(abort: (err?: Error) => void): void {
    this.sentAt = performance.now();
    if (this.reason !== undefined) abort(this.reason as Error);
    else this.abortRequest = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true; // 1xx: informational, the real answer follows
    this.status = statusCode;
    this.rawHeaders = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.settled = true;
    untrack(this);
    untrackSweep(this);
    const text = decodeBody(this.chunks);
    const status = this.status;
    const ok = status >= 200 && status < 300;
    this.resolve({
      status,
      headers: (ok && !this.allHeaders) || !this.rawHeaders ? {} : (undiciUtil.parseHeaders(this.rawHeaders) as IncomingHttpHeaders),
      text,
      latencyMs: performance.now() - (this.sentAt || this.started),
    });
  }

  onError(err: unknown): void {
    if (this.settled) return;
    this.settled = true;
    untrack(this);
    untrackSweep(this);
    this.reject(err);
  }
}

/** The body as UTF-8 text, a leading BOM skipped: what undici's `body.text()` returned before. */
function decodeBody(chunks: Buffer[]): string {
  if (chunks.length === 0) return "";
  const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString("utf8", start);
}

/**
 * One abort listener per caller signal, shared by every request in flight under it, instead of
 * an add/removeEventListener pair per request (EventTarget listeners are costly in Node). The
 * requests sit in an array of reusable slots: a Set here (and the per-request listeners before)
 * made V8 keep each finished request's objects alive through young-generation GCs, promoting
 * several KB per request to the old generation.
 */
interface InFlight {
  slots: (ReplyCollector | undefined)[];
  free: number[];
}

const inFlight = new WeakMap<AbortSignal, InFlight>();

function track(signal: AbortSignal, collector: ReplyCollector): void {
  let group = inFlight.get(signal);
  if (!group) {
    const members: InFlight = { slots: [], free: [] };
    group = members;
    inFlight.set(signal, members);
    signal.addEventListener(
      "abort",
      () => {
        for (const c of [...members.slots]) c?.abort(signal.reason);
      },
      { once: true },
    );
  }
  const slot = group.free.length > 0 ? group.free.pop()! : group.slots.length;
  group.slots[slot] = collector;
  collector.slot = slot;
  collector.group = group;
}

function untrack(collector: ReplyCollector): void {
  const group = collector.group;
  if (!group) return;
  group.slots[collector.slot] = undefined;
  group.free.push(collector.slot);
  collector.group = undefined;
}

function untrackSweep(collector: ReplyCollector): void {
  const group = collector.sweepGroup;
  if (!group) return;
  group.slots[collector.sweepSlot] = undefined;
  group.free.push(collector.sweepSlot);
  collector.sweepGroup = undefined;
}

/** Why the sweeper cut an attempt: it ran longer than the adaptive limit. */
class AttemptCut extends Error {
  constructor(readonly limitMs: number) {
    super(`no answer within the adaptive limit of ${limitMs} ms`);
  }
}

function dispatch(
  endpoint: Endpoint,
  method: "GET" | "POST",
  path: string,
  body: string | null,
  headers: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  earlierTimeouts: number,
  swept: InFlight | undefined,
): Promise<HttpReply> {
  return new Promise<HttpReply>((resolve, reject) => {
    const collector = new ReplyCollector(performance.now(), earlierTimeouts, method === "GET", resolve, reject);
    if (signal) {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      track(signal, collector);
    }
    if (swept) {
      const slot = swept.free.length > 0 ? swept.free.pop()! : swept.slots.length;
      swept.slots[slot] = collector;
      collector.sweepSlot = slot;
      collector.sweepGroup = swept;
    }
    // undici's own timers bound the wait for the headers and for each body chunk: cheaper than an
    // AbortController and a timer per attempt, and a hung server still fails after timeoutMs.
    endpoint.pool.dispatch(
      { path: endpoint.basePath + path, method, headers, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
      collector,
    );
  });
}

export interface TransportOptions {
  /**
   * Cuts attempts that run longer than its current limit: a sweep every `sweepEveryMs` (default 250)
   * checks the attempts in flight, so a request that hung before the server's latencies were known
   * is cut as soon as they are, not after the timeout it started with.
   */
  attemptTimeout?: AttemptTimeout;
  sweepEveryMs?: number;
}

/**
 * Pooled undici clients, one Pool per origin (keep-alive, pipelining 1), shared by every base URL on
 * that origin. Global fetch is avoided: it is several times slower at high concurrency.
 */
export function createTransport(baseURLs: readonly string[], connections: number, options: TransportOptions = {}): Transport {
  const pools = new Map<string, Pool>();
  const endpoints: Endpoint[] = baseURLs.map((raw) => {
    const u = new URL(raw);
    let pool = pools.get(u.origin);
    if (!pool) {
      pool = new Pool(u.origin, { connections, pipelining: 1 });
      pools.set(u.origin, pool);
    }
    const basePath = u.pathname.replace(/\/+$/, "");
    return { url: `${u.origin}${basePath}`, basePath, pool };
  });
  let cursor = 0;
  const { attemptTimeout } = options;
  const swept: InFlight | undefined = attemptTimeout ? { slots: [], free: [] } : undefined;
  let sweeper: ReturnType<typeof setInterval> | undefined;
  if (attemptTimeout && swept) {
    sweeper = setInterval(() => {
      const now = performance.now();
      const limits: number[] = [];
      for (const c of swept.slots) {
        if (!c) continue;
        const limit = (limits[c.earlierTimeouts] ??= attemptTimeout.timeoutMs(c.earlierTimeouts));
        if (now - (c.sentAt || c.started) > limit) c.abort(new AttemptCut(limit));
      }
    }, options.sweepEveryMs ?? 250);
    sweeper.unref();
  }
  return {
    endpoints,
    next() {
      const e = endpoints[cursor]!;
      cursor = (cursor + 1) % endpoints.length;
      return e;
    },
    post(endpoint, path, body, headers, timeoutMs, signal, earlierTimeouts = 0) {
      return dispatch(endpoint, "POST", path, body, headers, timeoutMs, signal, earlierTimeouts, swept).catch(asTransportError(timeoutMs, signal));
    },
    get(endpoint, path, headers, timeoutMs, signal, earlierTimeouts = 0) {
      return dispatch(endpoint, "GET", path, null, headers, timeoutMs, signal, earlierTimeouts, swept).catch(asTransportError(timeoutMs, signal));
    },
    async close() {
      if (sweeper) clearInterval(sweeper);
      await Promise.all([...pools.values()].map((p) => p.close()));
    },
  };
}

/** Every failure without an HTTP answer becomes a TransportError saying which kind it was. */
function asTransportError(timeoutMs: number, signal: AbortSignal | undefined): (cause: unknown) => never {
  return (cause) => {
    const code = (cause as { code?: unknown } | null)?.code;
    if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
      throw new TransportError("timeout", `timed out after ${timeoutMs} ms`, { cause });
    }
    if (cause instanceof AttemptCut) throw new TransportError("timeout", `timed out after ${cause.limitMs} ms (${cause.message})`, { cause });
    if (signal?.aborted) throw new TransportError("aborted", "aborted by the caller", { cause });
    throw new TransportError("network", `connection failed: ${describeNetworkError(cause)}`, { cause, unreachable: CONNECT_FAILURES.has(code as string) });
  };
}

/** `CODE: message (inner message)` of a network error, for messages. */
export function describeNetworkError(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : "";
    return `${typeof code === "string" ? `${code}: ` : ""}${cause.message}${inner}`;
  }
  return String(cause);
}
