import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { afterProcessing, type BatchEndpointParts, type LineOutcome, parseMultipart, runBatchLines, sendJson, sendText, unixNow } from "./dev-server-batch-shared.js";

/** OpenAI's limits on one batch input file (the public Batch API reference). */
export const OPENAI_BATCH_MAX_REQUESTS = 50_000;
export const OPENAI_BATCH_MAX_BYTES = 200 * 1024 * 1024;
const BATCH_ENDPOINTS = new Set(["/v1/chat/completions", "/v1/completions"]);
const TERMINAL = new Set(["failed", "completed", "expired", "cancelled"]);

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: Buffer;
  createdAt: number;
}

type BatchStatus = "validating" | "failed" | "in_progress" | "finalizing" | "completed" | "expired" | "cancelling" | "cancelled";

interface BatchError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

interface Batch {
  id: string;
  endpoint: string;
  inputFileId: string;
  completionWindow: string;
  status: BatchStatus;
  errors: BatchError[];
  outputFileId: string | null;
  errorFileId: string | null;
  times: Partial<Record<"in_progress_at" | "finalizing_at" | "completed_at" | "failed_at" | "expired_at" | "cancelling_at" | "cancelled_at", number>>;
  createdAt: number;
  counts: { total: number; completed: number; failed: number };
  metadata: Record<string, string> | null;
  cancelRequested: boolean;
}

interface InputLine {
  custom_id: string;
  body: Record<string, unknown>;
}

/**
 * OpenAI's Files and Batch APIs: `POST /v1/files` (multipart, purpose=batch), `GET /v1/files/:id`,
 * `GET /v1/files/:id/content`, `POST /v1/batches`, `GET /v1/batches/:id`, `POST /v1/batches/:id/cancel`.
 * A batch goes validating → in_progress → finalizing → completed (or failed / expired / cancelled);
 * its lines are answered by the online endpoints' own code.
 */
export function createOpenAIBatchEndpoints(parts: BatchEndpointParts) {
  const files = new Map<string, StoredFile>();
  const batches = new Map<string, Batch>();
  let next = 1;
  const maxRequests = parts.options.maxRequests ?? OPENAI_BATCH_MAX_REQUESTS;

  function error(res: ServerResponse, status: number, message: string, param: string | null = null, code: string | null = null): void {
    sendJson(res, status, { error: { message, type: "invalid_request_error", param, code } });
  }

  function fileObject(f: StoredFile) {
    return { id: f.id, object: "file", bytes: f.bytes.length, created_at: f.createdAt, filename: f.filename, purpose: f.purpose, status: "processed" };
  }

  function batchObject(b: Batch) {
    return {
      id: b.id,
      object: "batch",
      endpoint: b.endpoint,
      errors: b.errors.length > 0 ? { object: "list", data: b.errors } : null,
      input_file_id: b.inputFileId,
      completion_window: b.completionWindow,
      status: b.status,
      output_file_id: b.outputFileId,
      error_file_id: b.errorFileId,
      created_at: b.createdAt,
      in_progress_at: b.times.in_progress_at ?? null,
      expires_at: b.createdAt + 24 * 3600,
      finalizing_at: b.times.finalizing_at ?? null,
      completed_at: b.times.completed_at ?? null,
      failed_at: b.times.failed_at ?? null,
      expired_at: b.times.expired_at ?? null,
      cancelling_at: b.times.cancelling_at ?? null,
      cancelled_at: b.times.cancelled_at ?? null,
      request_counts: b.counts,
      metadata: b.metadata,
    };
  }

  function storeFile(filename: string, purpose: string, bytes: Buffer): StoredFile {
    const f = { id: `file-dev${next++}`, filename, purpose, bytes, createdAt: unixNow() };
    files.set(f.id, f);
    return f;
  }

  /** The input file's lines, or the validation errors that fail the batch. */
  function validate(b: Batch, file: StoredFile): { lines: InputLine[] } | { errors: BatchError[] } {
    if (file.bytes.length > OPENAI_BATCH_MAX_BYTES) {
      return { errors: [{ code: "file_too_large", message: `the input file is larger than ${OPENAI_BATCH_MAX_BYTES} bytes`, param: null, line: null }] };
    }
    const lines: InputLine[] = [];
    const errors: BatchError[] = [];
    const seen = new Set<string>();
    let model: unknown;
    const text = file.bytes.toString("utf8").split("\n");
    for (const [i, raw] of text.entries()) {
      if (raw.trim() === "") continue;
      const line = i + 1;
      const fail = (code: string, message: string, param: string | null = null) => {
        errors.push({ code, message, param, line });
      };
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        fail("invalid_json_line", "this line is not valid JSON");
        continue;
      }
      if (typeof json !== "object" || json === null) {
        fail("invalid_request", "a line must be a JSON object");
        continue;
      }
      if (typeof json.custom_id !== "string" || json.custom_id === "") {
        fail("missing_required_parameter", "custom_id is required", "custom_id");
        continue;
      }
      if (seen.has(json.custom_id)) {
        fail("duplicate_custom_id", `custom_id ${JSON.stringify(json.custom_id)} is used more than once`, "custom_id");
        continue;
      }
      seen.add(json.custom_id);
      if (json.method !== "POST") {
        fail("invalid_method", 'method must be "POST"', "method");
        continue;
      }
      if (json.url !== b.endpoint) {
        fail("mismatched_endpoint", `url ${JSON.stringify(json.url)} does not match the batch's endpoint ${b.endpoint}`, "url");
        continue;
      }
      if (typeof json.body !== "object" || json.body === null) {
        fail("missing_required_parameter", "body is required", "body");
        continue;
      }
      const body = json.body as Record<string, unknown>;
      if (model !== undefined && body.model !== model) {
        fail("mismatched_model", "every request of a batch must name the same model", "body.model");
        continue;
      }
      model = body.model;
      lines.push({ custom_id: json.custom_id, body });
    }
    if (lines.length + errors.length > maxRequests) {
      errors.push({ code: "too_many_requests", message: `a batch may hold at most ${maxRequests} requests`, param: null, line: null });
    }
    if (lines.length === 0 && errors.length === 0) errors.push({ code: "empty_file", message: "the input file has no requests", param: null, line: null });
    return errors.length > 0 ? { errors } : { lines };
  }

  function start(b: Batch): void {
    const file = files.get(b.inputFileId)!;
    const checked = validate(b, file);
    if ("errors" in checked) {
      b.status = "failed";
      b.errors = checked.errors;
      b.times.failed_at = unixNow();
      return;
    }
    const lines = checked.lines;
    b.counts = { total: lines.length, completed: 0, failed: 0 };
    if (b.status === "validating") {
      b.status = "in_progress";
      b.times.in_progress_at = unixNow();
    }
    afterProcessing(parts, () => {
      void runBatchLines(
        lines.length,
        (i) => parts.answerOffline(b.endpoint, Buffer.from(JSON.stringify(lines[i]!.body)), {}),
        parts,
        () => b.cancelRequested,
      ).then((outcomes) => finish(b, lines, outcomes));
    });
  }

  function finish(b: Batch, lines: InputLine[], outcomes: LineOutcome[]): void {
    b.status = b.cancelRequested ? "cancelling" : "finalizing";
    b.times.finalizing_at = unixNow();
    const out: string[] = [];
    const err: string[] = [];
    outcomes.forEach((o, i) => {
      const custom_id = lines[i]!.custom_id;
      const id = `batch_req_dev${next++}`;
      const requestId = `req_dev${next++}`;
      if (o.kind === "answered") {
        const line = { id, custom_id, response: { status_code: o.reply.status, request_id: requestId, body: JSON.parse(o.reply.text) }, error: null };
        if (o.reply.status >= 200 && o.reply.status < 300) {
          b.counts.completed++;
          out.push(JSON.stringify(line));
        } else {
          b.counts.failed++;
          err.push(JSON.stringify(line));
        }
        return;
      }
      b.counts.failed++;
      if (o.kind === "failed") {
        const body = { error: { message: "injected batch failure: the server had an error processing this request", type: "server_error", param: null, code: null } };
        err.push(JSON.stringify({ id, custom_id, response: { status_code: 500, request_id: requestId, body }, error: null }));
      } else if (o.kind === "expired") {
        const error = { code: "batch_expired", message: "This request could not be executed before the completion window expired." };
        err.push(JSON.stringify({ id, custom_id, response: null, error }));
      } else {
        const error = { code: "batch_cancelled", message: "This request was not executed because the batch was cancelled." };
        err.push(JSON.stringify({ id, custom_id, response: null, error }));
      }
    });
    if (out.length > 0) b.outputFileId = storeFile(`${b.id}_output.jsonl`, "batch_output", Buffer.from(`${out.join("\n")}\n`)).id;
    if (err.length > 0) b.errorFileId = storeFile(`${b.id}_error.jsonl`, "batch_output", Buffer.from(`${err.join("\n")}\n`)).id;
    const now = unixNow();
    if (b.cancelRequested) {
      b.status = "cancelled";
      b.times.cancelled_at = now;
    } else if (outcomes.some((o) => o.kind === "expired")) {
      b.status = "expired";
      b.times.expired_at = now;
    } else {
      b.status = "completed";
      b.times.completed_at = now;
    }
  }

  function createBatch(raw: Buffer, res: ServerResponse) {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
    } catch (e) {
      return error(res, 400, `request body is not valid JSON: ${(e as Error).message}`);
    }
    if (typeof json.input_file_id !== "string") return error(res, 400, "input_file_id is required", "input_file_id");
    const file = files.get(json.input_file_id);
    if (!file) return error(res, 404, `No such File object: ${json.input_file_id}`, "input_file_id");
    if (file.purpose !== "batch") return error(res, 400, `file ${file.id} was not uploaded with purpose "batch"`, "input_file_id");
    if (typeof json.endpoint !== "string" || !BATCH_ENDPOINTS.has(json.endpoint)) {
      return error(res, 400, `endpoint must be one of ${[...BATCH_ENDPOINTS].join(", ")}`, "endpoint");
    }
    if (json.completion_window !== "24h") return error(res, 400, 'completion_window must be "24h"', "completion_window");
    const b: Batch = {
      id: `batch_dev${next++}`,
      endpoint: json.endpoint,
      inputFileId: file.id,
      completionWindow: "24h",
      status: "validating",
      errors: [],
      outputFileId: null,
      errorFileId: null,
      times: {},
      createdAt: unixNow(),
      counts: { total: 0, completed: 0, failed: 0 },
      metadata: (json.metadata as Record<string, string> | undefined) ?? null,
      cancelRequested: false,
    };
    batches.set(b.id, b);
    // Counted when created (a batch that then fails validation too), by its non-empty lines.
    parts.stats.batch(file.bytes.toString("utf8").split("\n").filter((l) => l.trim() !== "").length);
    sendJson(res, 200, batchObject(b));
    // Validation runs after the reply, so a client sees "validating" first.
    setImmediate(() => start(b));
  }

  return async function handle(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer, res: ServerResponse): Promise<void> {
    const seg = path.split("/").filter((s) => s !== "").slice(1); // after "v1"
    if (seg[0] === "files") {
      if (method === "POST" && seg.length === 1) {
        const form = parseMultipart(headers["content-type"], body);
        if (!form) return error(res, 400, "expected a multipart/form-data body with the fields purpose and file");
        const purpose = form.find((p) => p.name === "purpose")?.data.toString("utf8");
        const file = form.find((p) => p.name === "file");
        if (!purpose) return error(res, 400, "purpose is required", "purpose");
        if (!file) return error(res, 400, "file is required", "file");
        return sendJson(res, 200, fileObject(storeFile(file.filename ?? "upload.jsonl", purpose, Buffer.from(file.data))));
      }
      const f = seg[1] === undefined ? undefined : files.get(seg[1]);
      if (method === "GET" && seg.length === 2) return f ? sendJson(res, 200, fileObject(f)) : error(res, 404, `No such File object: ${seg[1]}`);
      if (method === "GET" && seg.length === 3 && seg[2] === "content") {
        return f ? sendText(res, 200, f.bytes.toString("utf8"), "application/octet-stream") : error(res, 404, `No such File object: ${seg[1]}`);
      }
    }
    if (seg[0] === "batches") {
      if (method === "POST" && seg.length === 1) return createBatch(body, res);
      const b = seg[1] === undefined ? undefined : batches.get(seg[1]);
      if (seg.length >= 2 && !b) return error(res, 404, `No such batch: ${seg[1]}`);
      if (method === "GET" && seg.length === 2) return sendJson(res, 200, batchObject(b!));
      if (method === "POST" && seg.length === 3 && seg[2] === "cancel") {
        if (TERMINAL.has(b!.status)) return error(res, 409, `Cannot cancel a batch with status ${b!.status}.`);
        b!.cancelRequested = true;
        b!.status = "cancelling";
        b!.times.cancelling_at = unixNow();
        return sendJson(res, 200, batchObject(b!));
      }
    }
    error(res, 404, `unknown endpoint ${method} ${path}`);
  };
}
