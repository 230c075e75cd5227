import type { CallContext } from "@yardstick/core";
import { backoffDelay, createTransport, sleep, TransportError } from "@yardstick/http";
import { abortedCallError, type CallFailure, createScrubber, failedCallError, retryDelay, shortErrorText, statusFailure } from "./model-call-error.js";

/** What the batch clients need of the provider settings to make their calls. */
export interface BatchHttpSettings {
  baseURL: string;
  headers: Record<string, string>;
  secrets: (string | undefined)[];
  timeoutMs: number;
  maxAttempts: number;
  backoff: { baseMs: number; maxMs: number };
  maxRetryAfterMs: number;
  who: string;
}

export interface BatchHttp {
  /** A request retried as the providers retry theirs; returns the 2xx body text, or throws a ModelCallError. */
  call(method: "GET" | "POST", path: string, ctx?: CallContext, body?: string, headers?: Record<string, string>): Promise<string>;
  /** The base URL's path, e.g. "/v1". */
  readonly basePath: string;
  close(): Promise<void>;
}

/**
 * The batch APIs' calls (upload, create, poll, download) over the shared transport of
 * @yardstick/http, with the providers' retry policy: 408/409/429/5xx and network errors are retried
 * with backoff honouring Retry-After; the final error names the call, with secrets scrubbed.
 */
export function createBatchHttp(s: BatchHttpSettings): BatchHttp {
  const transport = createTransport([s.baseURL], 4);
  const endpoint = transport.endpoints[0]!;
  const scrub = createScrubber([...s.secrets, ...Object.values(s.headers)]);

  function errorText(text: string): string {
    let message = text;
    try {
      const json = JSON.parse(text) as { error?: { message?: unknown; type?: unknown } | string; message?: unknown };
      const e = json.error;
      const candidate = typeof e === "object" && e !== null ? e.message : (e ?? json.message);
      if (typeof candidate === "string") message = candidate;
    } catch {
      // not JSON: keep the raw text
    }
    return shortErrorText(message, scrub);
  }

  return {
    basePath: endpoint.basePath,
    async call(method, path, ctx, body, headers) {
      const url = endpoint.url + path;
      const sent = { ...s.headers, ...headers };
      const signal = ctx?.signal;
      for (let attempt = 1; ; attempt++) {
        let failure: CallFailure;
        try {
          const reply =
            method === "GET" ? await transport.get(endpoint, path, sent, s.timeoutMs, signal) : await transport.post(endpoint, path, body ?? "", sent, s.timeoutMs, signal);
          if (reply.status >= 200 && reply.status < 300) return reply.text;
          failure = statusFailure(reply.status, reply.headers, errorText(reply.text));
        } catch (cause) {
          if (!(cause instanceof TransportError)) throw cause;
          if (cause.kind === "aborted") throw abortedCallError(s.who, method, url, attempt, cause);
          failure = { kind: cause.kind, retryable: true, message: cause.message, cause: cause.cause };
        }
        if (!failure.retryable || attempt >= s.maxAttempts) throw failedCallError(s.who, method, url, failure, attempt, scrub);
        const delay = retryDelay(failure, attempt, s, backoffDelay);
        ctx?.log?.(`${s.who}: ${method} ${path} attempt ${attempt}/${s.maxAttempts} failed (${scrub(failure.message)}); retrying in ${Math.round(delay)} ms`);
        try {
          await sleep(delay, signal);
        } catch (cause) {
          throw abortedCallError(s.who, method, url, attempt, cause);
        }
      }
    },
    close: () => transport.close(),
  };
}
