/**
 * GET requests to the Hugging Face dataset viewer API over undici, with bounded retries: 429, 5xx
 * and connection errors are retried with exponential backoff and jitter (a `Retry-After` header
 * is honoured, capped); other statuses are returned to the caller. The token is sent as
 * `Authorization: Bearer` and never appears in a message.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type Dispatcher, Pool } from "undici";

export interface HubClientSettings {
  /** Attempts after the first one (default 5). */
  retries?: number;
  /** First backoff delay in ms (default 500); doubles each attempt, with jitter. */
  backoffBaseMs?: number;
  /** Longest backoff delay in ms, also the cap on `Retry-After` (default 20 000). */
  backoffMaxMs?: number;
  /** Headers and body timeout per request in ms (default 60 000). */
  timeoutMs?: number;
}

export interface HubResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Attempts made (1 when the first one answered). */
  attempts: number;
}

/** The last failure after every retry was used, or a connection error that was not retried. */
export class HubRequestFailed extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const RETRYABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

function isRetryableError(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e !== null && typeof e === "object"; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && RETRYABLE_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function describeError(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === "string" ? `${e.code}: ` : "";
  return `${code}${typeof e?.message === "string" ? e.message : String(error)}`;
}

function retryAfterMs(value: string | string[] | undefined): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const seconds = Number(v);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export interface HubClient {
  /** GETs `path` (with its query string) from the endpoint. */
  get(pathAndQuery: string, signal?: AbortSignal): Promise<HubResponse>;
  close(): Promise<void>;
}

export function createHubClient(endpoint: string, token: string | undefined, settings: HubClientSettings = {}): HubClient {
  const retries = settings.retries ?? 5;
  const baseMs = settings.backoffBaseMs ?? 500;
  const maxMs = settings.backoffMaxMs ?? 20_000;
  const timeoutMs = settings.timeoutMs ?? 60_000;
  const origin = new URL(endpoint);
  // Paths are appended to the endpoint's own path (a mirror may live under a prefix).
  const prefix = origin.pathname.replace(/\/+$/, "");
  const pool: Dispatcher = new Pool(origin.origin, { connections: 4, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const headers: Record<string, string> = { accept: "application/json", "user-agent": "yardstick-dataloaders" };
  if (token !== undefined && token !== "") headers.authorization = `Bearer ${token}`;

  const delay = (attempt: number, serverMs: number | undefined): number => {
    if (serverMs !== undefined) return Math.min(serverMs, maxMs);
    const exp = Math.min(maxMs, baseMs * 2 ** attempt);
    return exp / 2 + Math.random() * (exp / 2);
  };

  return {
    async get(pathAndQuery, signal) {
      let lastError: unknown;
      let lastStatus: number | undefined;
      for (let attempt = 0; attempt <= retries; attempt++) {
        signal?.throwIfAborted();
        let serverDelay: number | undefined;
        try {
          const res = await pool.request({ method: "GET", path: prefix + pathAndQuery, headers, signal });
          const text = await res.body.text();
          if (res.statusCode === 429 || res.statusCode >= 500) {
            lastStatus = res.statusCode;
            lastError = new Error(`HTTP ${res.statusCode}${summariseBody(text)}`);
            serverDelay = retryAfterMs(res.headers["retry-after"]);
          } else {
            return { status: res.statusCode, headers: res.headers, text, attempts: attempt + 1 };
          }
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          if (!isRetryableError(error)) throw new HubRequestFailed(describeError(error), undefined, attempt + 1, { cause: error });
          lastStatus = undefined;
          lastError = error;
        }
        if (attempt < retries) await sleep(delay(attempt, serverDelay), undefined, signal ? { signal } : undefined);
      }
      throw new HubRequestFailed(describeError(lastError), lastStatus, retries + 1, { cause: lastError });
    },
    close: () => pool.close(),
  };
}

/** `: <the server's error message>` from an upstream error body, or "" when there is none. */
export function summariseBody(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed?.error === "string") return `: ${parsed.error}`;
  } catch {
    // not JSON
  }
  const t = text.trim();
  return t === "" ? "" : `: ${t.length > 200 ? `${t.slice(0, 200)}...` : t}`;
}
