import type { CallContext, ModelErrorRecord, ModelResponse } from "@yardstick/core";
import { isRetryableStatus } from "@yardstick/http";
import {
  type BatchClient,
  type BatchHandle,
  type BatchItem,
  type BatchLimitOptions,
  type BatchResult,
  type BatchStatus,
  checkCustomIds,
  createPerGroup,
  splitByLimits,
} from "./batch-client.js";
import { createBatchHttp } from "./batch-http.js";
import { parseSettings } from "./config-error.js";
import { ModelCallError } from "./model-call-error.js";
import { openAIRequestBody } from "./openai-request-body.js";
import { type OpenAICompatibleSettings, openAICompatibleSettingsSchema } from "./openai-settings.js";
import { chatResponseSchema, completionResponseSchema, fastChatResponse, noContentProblem, toChatResponse, toCompletionResponse } from "./wire-format.js";

/** OpenAI's limits on one batch input file (the public Batch API reference). */
export const OPENAI_BATCH_LIMITS = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

export interface OpenAIBatchOptions extends BatchLimitOptions {
  /**
   * How `max_tokens` is spelled in the batch lines: as the online provider sends it (default), or
   * `max_completion_tokens`, which OpenAI's own models want (SEA-HELM's batch judge sends that).
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

const RUNNING = new Set(["validating", "in_progress", "finalizing", "cancelling"]);
const ENDED: Record<string, BatchStatus["outcome"]> = { completed: "completed", failed: "failed", expired: "expired", cancelled: "cancelled" };

interface BatchObject {
  id: string;
  status: string;
  endpoint?: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  errors?: { data?: { code?: string; message?: string; line?: number | null }[] } | null;
  request_counts?: { total: number; completed: number; failed: number };
}

/**
 * The OpenAI Batch API for an OpenAI-compatible model: uploads a JSONL file (`POST /files`,
 * purpose=batch), creates a batch over it (`POST /batches`, completion window 24h), polls it and
 * reads the output and error files back. Each line's body is exactly what the online provider would
 * POST; its answers are decoded by the same code.
 */
export function createOpenAIBatchClient(settings: OpenAICompatibleSettings, options: OpenAIBatchOptions = {}): BatchClient {
  const s = parseSettings(openAICompatibleSettingsSchema, settings, "openai-compatible");
  const baseURL = s.baseURLs?.[0] ?? s.baseURL!;
  const who = `openai batch for model "${s.modelId}"`;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json", ...s.headers };
  if (s.apiKey !== undefined && s.apiKey !== "") headers.authorization = `Bearer ${s.apiKey}`;
  const http = createBatchHttp({ ...s, baseURL, headers, secrets: [s.apiKey], who });
  const limits = { maxRequests: options.maxRequests ?? OPENAI_BATCH_LIMITS.maxRequests, maxBytes: options.maxBytes ?? OPENAI_BATCH_LIMITS.maxBytes };
  // The batch line names the endpoint by its full path ("/v1/chat/completions"), whatever the base URL.
  const urlPrefix = "/v1";

  function line(item: BatchItem): { customId: string; url: string; text: string } {
    const { path, body } = openAIRequestBody(s.modelId, item.request, who);
    if (options.maxTokensField === "max_completion_tokens" && "max_tokens" in body) {
      body.max_completion_tokens = body.max_tokens;
      delete body.max_tokens;
    }
    const url = urlPrefix + path;
    return { customId: item.customId, url, text: JSON.stringify({ custom_id: item.customId, method: "POST", url, body }) };
  }

  async function upload(text: string, ctx: CallContext | undefined): Promise<string> {
    const boundary = `yardstick-batch-${Math.random().toString(16).slice(2)}`;
    const form =
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="batch.jsonl"\r\nContent-Type: application/jsonl\r\n\r\n` +
      `${text}\r\n--${boundary}--\r\n`;
    const reply = JSON.parse(await http.call("POST", "/files", ctx, form, { "content-type": `multipart/form-data; boundary=${boundary}` })) as { id: string };
    return reply.id;
  }

  async function getBatch(id: string, ctx: CallContext | undefined): Promise<BatchObject | undefined> {
    try {
      return JSON.parse(await http.call("GET", `/batches/${encodeURIComponent(id)}`, ctx)) as BatchObject;
    } catch (error) {
      if (error instanceof ModelCallError && error.status === 404) return undefined;
      throw error;
    }
  }

  function decode(endpoint: string | undefined, body: unknown): ModelResponse {
    if (endpoint?.endsWith("/completions") && !endpoint.endsWith("/chat/completions")) return toCompletionResponse(completionResponseSchema.parse(body));
    const response = fastChatResponse(body) ?? toChatResponse(chatResponseSchema.parse(body));
    const problem = noContentProblem(body, response);
    if (problem !== undefined) throw new Error(problem);
    return response;
  }

  function resultOf(batch: BatchObject, json: Record<string, any>): BatchResult {
    const response = json.response as { status_code: number; body: any } | null | undefined;
    if (response && response.status_code >= 200 && response.status_code < 300) {
      try {
        return { ok: true, response: decode(batch.endpoint, response.body) };
      } catch (cause) {
        const error: ModelErrorRecord = { kind: "invalid-response", attempts: 1, message: `${who}: batch ${batch.id}: the answer does not have the expected shape (${(cause as Error).message.slice(0, 200)})` };
        return { ok: false, error, retryable: false };
      }
    }
    if (response) {
      const message = typeof response.body?.error?.message === "string" ? response.body.error.message : JSON.stringify(response.body).slice(0, 300);
      return {
        ok: false,
        error: { kind: "api", status: response.status_code, attempts: 1, message: `${who}: batch ${batch.id}: HTTP ${response.status_code}: ${message}` },
        retryable: isRetryableStatus(response.status_code),
      };
    }
    const e = (json.error ?? {}) as { code?: string; message?: string };
    return { ok: false, error: { kind: "other", attempts: 1, message: `${who}: batch ${batch.id}: ${e.code ?? "error"}: ${e.message ?? "no result"}` }, retryable: true };
  }

  return {
    api: "openai",
    limits,
    async submit(items, ctx) {
      checkCustomIds(items);
      const lines = items.map(line);
      const handles: BatchHandle[] = [];
      // One batch serves one endpoint: chat and completion requests go in separate batches.
      for (const url of new Set(lines.map((l) => l.url))) {
        const groups = splitByLimits(
          lines.filter((l) => l.url === url),
          (l) => Buffer.byteLength(l.text) + 1,
          limits,
          0,
          (l) => `request ${l.customId}`,
        );
        const create = async (group: readonly { text: string }[]) => {
          const fileId = await upload(group.map((l) => l.text).join("\n"), ctx);
          const body = JSON.stringify({ input_file_id: fileId, endpoint: url, completion_window: "24h" });
          return (JSON.parse(await http.call("POST", "/batches", ctx, body)) as BatchObject).id;
        };
        handles.push(...(await createPerGroup(groups, create, ctx)));
      }
      return handles;
    },
    async status(batchId, ctx) {
      const b = await getBatch(batchId, ctx);
      if (!b) return undefined;
      if (RUNNING.has(b.status)) return { id: b.id, state: "running", providerStatus: b.status };
      const outcome = ENDED[b.status] ?? "failed";
      const status: BatchStatus = { id: b.id, state: "ended", outcome, providerStatus: b.status };
      const errors = b.errors?.data ?? [];
      if (errors.length > 0) {
        status.reason = errors
          .slice(0, 3)
          .map((e) => `${e.line != null ? `line ${e.line}: ` : ""}${e.code ?? "error"}: ${e.message ?? ""}`)
          .join("; ");
      } else if (outcome !== "completed") status.reason = `the batch ${outcome === "expired" ? "expired (its 24h completion window ended)" : `ended as ${b.status}`}`;
      return status;
    },
    async results(batchId, ctx) {
      const b = await getBatch(batchId, ctx);
      const out = new Map<string, BatchResult>();
      if (!b) return out;
      for (const fileId of [b.output_file_id, b.error_file_id]) {
        if (!fileId) continue;
        const text = await http.call("GET", `/files/${encodeURIComponent(fileId)}/content`, ctx);
        for (const raw of text.split("\n")) {
          if (raw.trim() === "") continue;
          const json = JSON.parse(raw) as Record<string, any>;
          if (typeof json.custom_id === "string") out.set(json.custom_id, resultOf(b, json));
        }
      }
      return out;
    },
    async cancel(batchId, ctx) {
      await http.call("POST", `/batches/${encodeURIComponent(batchId)}/cancel`, ctx, "");
    },
    close: () => http.close(),
  };
}
