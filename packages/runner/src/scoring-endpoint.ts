import { createTransport, isRetryableStatus, sleep, TransportError } from "@yardstick/http";

/**
 * A client of a scoring endpoint: a server the user runs that scores with a neural model yardstick
 * cannot ship (MetricX-24 for translation). The protocol, one JSON POST per batch:
 *
 *   POST <url>   Content-Type: application/json   [Authorization: Bearer <key>]
 *   { "metric": "metricx-24", "model": "<model name or null>", "items": [ { ...item }, ... ] }
 *
 *   200  { "scores": [ <number>, ... ] }   one finite number per item, in the order sent
 *        or, for a metric with several values per item (RefCLIPScore), one object of finite numbers
 *        per item: { "scores": [ { "clipscore": 0.8, "ref_similarity": 0.7 }, ... ] }
 *
 * Items are sent in batches of `batchSize`, one batch at a time. A batch that gets no answer or a
 * retryable status (408, 409, 429, 5xx: the transport's `isRetryableStatus`) is retried
 * (`maxAttempts` in all, waiting longer each time); any other status, a body that is not that JSON,
 * or a count of scores other than the items' is an error naming the endpoint.
 */
export interface ScoringEndpointOptions {
  url: string;
  /** The `metric` field of each request, e.g. "metricx-24". */
  metric: string;
  /** The `model` field: which checkpoint the server should score with (null when not given). */
  model?: string;
  /** Items per request (default 32, SEA-HELM's MetricX batch size). */
  batchSize?: number;
  /** Time limit of one request (default 300000 ms: a large model on a busy GPU is slow). */
  timeoutMs?: number;
  /** Attempts per batch before it fails for good (default 3). */
  maxAttempts?: number;
  /** Sent as a bearer token; never in messages. */
  apiKey?: string;
  /** First wait between attempts (default 500 ms, doubled each time). */
  retryDelayMs?: number;
}

export interface ScoringEndpoint {
  /** The endpoint URL, for messages. */
  readonly name: string;
  /** One number per item. */
  score(items: readonly object[], signal?: AbortSignal): Promise<number[]>;
  /** One object per item holding each of `fields` as a finite number. */
  scoreFields(items: readonly object[], fields: readonly string[], signal?: AbortSignal): Promise<Record<string, number>[]>;
}

/** Checks one score of an answer; returns undefined when it is not of the expected shape. */
type ScoreReader<T> = (value: unknown) => T | undefined;

const finiteNumber: ScoreReader<number> = (v) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Why a scoring endpoint gave no usable scores; the message names the endpoint and what went wrong. */
export class ScoringEndpointError extends Error {
  override readonly name = "ScoringEndpointError";
}

export function createScoringEndpoint(options: ScoringEndpointOptions): ScoringEndpoint {
  const batchSize = options.batchSize ?? 32;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const maxAttempts = options.maxAttempts ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const headers: Record<string, string> = { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) };
  const target = new URL(options.url);
  const transport = createTransport([target.origin], 1);

  async function scoreBatch<T>(items: readonly object[], read: ScoreReader<T>, expected: string, signal: AbortSignal | undefined): Promise<T[]> {
    const body = JSON.stringify({ metric: options.metric, model: options.model ?? null, items });
    let lastProblem = "";
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) await sleep(retryDelayMs * 2 ** (attempt - 2), signal);
      let status: number;
      let text: string;
      // The time limit bounds the whole attempt (the transport's own bounds each wait for bytes).
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const reply = await transport.post(
          transport.endpoints[0]!,
          target.pathname + target.search,
          body,
          headers,
          timeoutMs,
          signal ? AbortSignal.any([signal, timeout]) : timeout,
        );
        status = reply.status;
        text = reply.text;
      } catch (err) {
        if (signal?.aborted) throw err;
        lastProblem = timeout.aborted ? `no answer within ${timeoutMs} ms` : describeFailure(err, timeoutMs);
        continue;
      }
      if (isRetryableStatus(status)) {
        lastProblem = `answered ${status}${excerpt(text)}`;
        continue;
      }
      if (status < 200 || status >= 300) throw new ScoringEndpointError(`POST ${options.url} answered ${status}${excerpt(text)}`);
      return readScores(text, items.length, read, expected);
    }
    throw new ScoringEndpointError(`POST ${options.url} failed ${maxAttempts} time(s); last: ${lastProblem}`);
  }

  function readScores<T>(text: string, count: number, read: ScoreReader<T>, expected: string): T[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ScoringEndpointError(`POST ${options.url} answered with something that is not JSON${excerpt(text)}; expected {"scores": [${expected}, ...]}`);
    }
    const scores = (parsed as { scores?: unknown } | null)?.scores;
    if (!Array.isArray(scores)) throw new ScoringEndpointError(`POST ${options.url} answered without a "scores" array${excerpt(text)}; expected {"scores": [${expected}, ...]}`);
    if (scores.length !== count) throw new ScoringEndpointError(`POST ${options.url} answered ${scores.length} score(s) for ${count} item(s)`);
    const out: T[] = [];
    for (let i = 0; i < scores.length; i++) {
      const value = read(scores[i]);
      if (value === undefined) throw new ScoringEndpointError(`POST ${options.url} answered scores[${i}] = ${JSON.stringify(scores[i])}; expected ${expected}`);
      out.push(value);
    }
    return out;
  }

  async function inBatches<T>(items: readonly object[], read: ScoreReader<T>, expected: string, signal: AbortSignal | undefined): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < items.length; i += batchSize) out.push(...(await scoreBatch(items.slice(i, i + batchSize), read, expected, signal)));
    return out;
  }

  return {
    name: options.url,
    score: (items, signal) => inBatches(items, finiteNumber, "a finite number", signal),
    scoreFields(items, fields, signal) {
      const read: ScoreReader<Record<string, number>> = (v) => {
        if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
        const out: Record<string, number> = {};
        for (const f of fields) {
          const x = finiteNumber((v as Record<string, unknown>)[f]);
          if (x === undefined) return undefined;
          out[f] = x;
        }
        return out;
      };
      return inBatches(items, read, `{${fields.map((f) => `"${f}": number`).join(", ")}}`, signal);
    },
  };
}

function describeFailure(err: unknown, timeoutMs: number): string {
  if (err instanceof TransportError && err.kind === "timeout") return `no answer within ${timeoutMs} ms`;
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  return code ? `no answer (${code})` : `no answer (${e.message ?? String(err)})`;
}

function excerpt(text: string): string {
  const t = text.trim();
  return t === "" ? "" : `: ${t.length > 200 ? `${t.slice(0, 200)}…` : t}`;
}

