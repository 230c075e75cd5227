import type { IncomingHttpHeaders } from "node:http";
import { Pool } from "undici";

/** One base URL: a shared keep-alive pool for its origin and the path prefix (e.g. "/v1"). */
export interface Endpoint {
  /** The base URL as configured, without a trailing slash (never holds credentials: the settings reject them). */
  readonly url: string;
  readonly basePath: string;
  readonly pool: Pool;
}

export interface HttpReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  latencyMs: number;
}

/** Why an attempt got no HTTP answer. */
export class TransportError extends Error {
  constructor(
    readonly kind: "timeout" | "network" | "aborted",
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

export interface Transport {
  readonly endpoints: readonly Endpoint[];
  /** The next endpoint, round robin. */
  next(): Endpoint;
  post(endpoint: Endpoint, path: string, body: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<HttpReply>;
  close(): Promise<void>;
}

/**
 * Pooled undici clients, one Pool per origin (keep-alive, pipelining 1), shared by every base URL on
 * that origin. Global fetch is avoided: it is several times slower at high concurrency.
 */
export function createTransport(baseURLs: readonly string[], connections: number): Transport {
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
  return {
    endpoints,
    next() {
      const e = endpoints[cursor]!;
      cursor = (cursor + 1) % endpoints.length;
      return e;
    },
    async post(endpoint, path, body, headers, timeoutMs, signal) {
      const started = performance.now();
      try {
        // undici's own timers bound the wait for the headers and for each body chunk: cheaper than an
        // AbortController and a timer per attempt, and a hung server still fails after timeoutMs.
        const res = await endpoint.pool.request({
          path: endpoint.basePath + path,
          method: "POST",
          headers,
          body,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const text = await res.body.text();
        return { status: res.statusCode, headers: res.headers, text, latencyMs: performance.now() - started };
      } catch (cause) {
        const code = (cause as { code?: unknown }).code;
        if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
          throw new TransportError("timeout", `timed out after ${timeoutMs} ms`, { cause });
        }
        if (signal?.aborted) throw new TransportError("aborted", "aborted by the caller", { cause });
        throw new TransportError("network", `connection failed: ${describeNetworkError(cause)}`, { cause });
      }
    },
    async close() {
      await Promise.all([...pools.values()].map((p) => p.close()));
    },
  };
}

function describeNetworkError(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : "";
    return `${typeof code === "string" ? `${code}: ` : ""}${cause.message}${inner}`;
  }
  return String(cause);
}
