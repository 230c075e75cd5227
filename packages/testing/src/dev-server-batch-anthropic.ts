import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { MESSAGES_PATH, sendAnthropicError } from "./dev-server-anthropic.js";
import { afterProcessing, type BatchEndpointParts, type LineOutcome, runBatchLines, sendJson, sendText } from "./dev-server-batch-shared.js";

/** Anthropic's limits on one Message Batch (the public Message Batches reference). */
export const ANTHROPIC_BATCH_MAX_REQUESTS = 100_000;
export const ANTHROPIC_BATCH_MAX_BYTES = 256 * 1024 * 1024;
export const MESSAGE_BATCHES_PATH = "/v1/messages/batches";
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

interface Request {
  custom_id: string;
  params: Record<string, unknown>;
}

interface MessageBatch {
  id: string;
  status: "in_progress" | "canceling" | "ended";
  requests: Request[];
  counts: { processing: number; succeeded: number; errored: number; canceled: number; expired: number };
  createdAt: string;
  endedAt: string | null;
  cancelInitiatedAt: string | null;
  results: string | null;
  /** The caller's headers (anthropic-version, x-api-key), handed to each request. */
  headers: IncomingHttpHeaders;
}

/**
 * Anthropic's Message Batches API: `POST /v1/messages/batches` {requests: [{custom_id, params}]},
 * `GET /v1/messages/batches/:id`, `GET /v1/messages/batches/:id/results` (JSONL of `{custom_id,
 * result}`), `POST /v1/messages/batches/:id/cancel`. processing_status goes in_progress → ended
 * (canceling in between on a cancel); each request is answered by `POST /v1/messages`'s own code.
 */
export function createAnthropicBatchEndpoints(parts: BatchEndpointParts & { apiKey: string | undefined }) {
  const batches = new Map<string, MessageBatch>();
  let next = 1;
  const maxRequests = parts.options.maxRequests ?? ANTHROPIC_BATCH_MAX_REQUESTS;

  function batchObject(b: MessageBatch, baseUrl: string) {
    return {
      id: b.id,
      type: "message_batch",
      processing_status: b.status,
      request_counts: b.counts,
      ended_at: b.endedAt,
      created_at: b.createdAt,
      expires_at: new Date(Date.parse(b.createdAt) + 24 * 3600 * 1000).toISOString(),
      archived_at: null,
      cancel_initiated_at: b.cancelInitiatedAt,
      results_url: b.status === "ended" ? `${baseUrl}${MESSAGE_BATCHES_PATH}/${b.id}/results` : null,
    };
  }

  function create(raw: Buffer, headers: IncomingHttpHeaders, res: ServerResponse, baseUrl: string) {
    const fail = (status: number, type: string, message: string) => sendAnthropicError(res, status, type, message, `req_dev_batch${next++}`);
    if (raw.length > ANTHROPIC_BATCH_MAX_BYTES) return fail(413, "request_too_large", `a batch may be at most ${ANTHROPIC_BATCH_MAX_BYTES} bytes`);
    let json: { requests?: unknown };
    try {
      json = JSON.parse(raw.toString("utf8")) as { requests?: unknown };
    } catch (e) {
      return fail(400, "invalid_request_error", `request body is not valid JSON: ${(e as Error).message}`);
    }
    if (!Array.isArray(json.requests) || json.requests.length === 0) return fail(400, "invalid_request_error", "requests: expected a non-empty array");
    if (json.requests.length > maxRequests) return fail(400, "invalid_request_error", `requests: a batch may hold at most ${maxRequests} requests`);
    const seen = new Set<string>();
    const requests: Request[] = [];
    for (const [i, r] of (json.requests as Record<string, unknown>[]).entries()) {
      if (typeof r?.custom_id !== "string" || !CUSTOM_ID.test(r.custom_id)) {
        return fail(400, "invalid_request_error", `requests.${i}.custom_id: expected 1 to 64 letters, digits, "_" or "-"`);
      }
      if (seen.has(r.custom_id)) return fail(400, "invalid_request_error", `requests.${i}.custom_id: ${r.custom_id} is used more than once`);
      seen.add(r.custom_id);
      if (typeof r.params !== "object" || r.params === null) return fail(400, "invalid_request_error", `requests.${i}.params: Field required`);
      if ((r.params as { stream?: unknown }).stream === true) return fail(400, "invalid_request_error", `requests.${i}.params.stream: streaming is not supported in a batch`);
      requests.push({ custom_id: r.custom_id, params: r.params as Record<string, unknown> });
    }
    const b: MessageBatch = {
      id: `msgbatch_dev${next++}`,
      status: "in_progress",
      requests,
      counts: { processing: requests.length, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
      createdAt: new Date().toISOString(),
      endedAt: null,
      cancelInitiatedAt: null,
      results: null,
      headers: { "anthropic-version": headers["anthropic-version"] ?? "2023-06-01", ...(headers["x-api-key"] ? { "x-api-key": headers["x-api-key"] } : {}) },
    };
    batches.set(b.id, b);
    parts.stats.batch(requests.length);
    sendJson(res, 200, batchObject(b, baseUrl));
    afterProcessing(parts, () => {
      void runBatchLines(
        requests.length,
        (i) => parts.answerOffline(MESSAGES_PATH, Buffer.from(JSON.stringify(requests[i]!.params)), b.headers),
        parts,
        () => b.cancelInitiatedAt !== null,
      ).then((outcomes) => finish(b, outcomes));
    });
  }

  function finish(b: MessageBatch, outcomes: LineOutcome[]): void {
    const lines = outcomes.map((o, i) => {
      const custom_id = b.requests[i]!.custom_id;
      if (o.kind === "answered") {
        const body = JSON.parse(o.reply.text) as Record<string, unknown>;
        if (o.reply.status >= 200 && o.reply.status < 300) {
          b.counts.succeeded++;
          return { custom_id, result: { type: "succeeded", message: body } };
        }
        b.counts.errored++;
        return { custom_id, result: { type: "errored", error: { type: "error", error: body.error } } };
      }
      if (o.kind === "failed") {
        b.counts.errored++;
        return { custom_id, result: { type: "errored", error: { type: "error", error: { type: "api_error", message: "injected batch failure: internal server error" } } } };
      }
      if (o.kind === "expired") {
        b.counts.expired++;
        return { custom_id, result: { type: "expired" } };
      }
      b.counts.canceled++;
      return { custom_id, result: { type: "canceled" } };
    });
    b.counts.processing = 0;
    b.results = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
    b.status = "ended";
    b.endedAt = new Date().toISOString();
  }

  return async function handle(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer, res: ServerResponse, baseUrl: string): Promise<void> {
    const fail = (status: number, type: string, message: string) => sendAnthropicError(res, status, type, message, `req_dev_batch${next++}`);
    const key = headers["x-api-key"];
    if (parts.apiKey !== undefined && key !== parts.apiKey) return fail(401, "authentication_error", key ? "invalid x-api-key" : "x-api-key header is required");
    if (!headers["anthropic-version"]) return fail(400, "invalid_request_error", "anthropic-version: header is required");
    const seg = path.slice(MESSAGE_BATCHES_PATH.length).split("/").filter((s) => s !== "");
    if (method === "POST" && seg.length === 0) return create(body, headers, res, baseUrl);
    const b = seg[0] === undefined ? undefined : batches.get(seg[0]);
    if (seg.length >= 1 && !b) return fail(404, "not_found_error", `message batch ${seg[0]} not found`);
    if (method === "GET" && seg.length === 1) return sendJson(res, 200, batchObject(b!, baseUrl));
    if (method === "GET" && seg.length === 2 && seg[1] === "results") {
      if (b!.results === null) return fail(400, "invalid_request_error", `message batch ${b!.id} has not ended yet; its results are not available`);
      return sendText(res, 200, b!.results, "application/binary");
    }
    if (method === "POST" && seg.length === 2 && seg[1] === "cancel") {
      if (b!.status === "in_progress") {
        b!.status = "canceling";
        b!.cancelInitiatedAt = new Date().toISOString();
      }
      return sendJson(res, 200, batchObject(b!, baseUrl));
    }
    fail(404, "not_found_error", `unknown endpoint ${method} ${path}`);
  };
}
