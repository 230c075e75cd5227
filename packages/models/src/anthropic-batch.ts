import { ConfigError, type ModelResponse } from "@yardstick/core";
import { anthropicRequestBody } from "./anthropic-request-body.js";
import { type AnthropicSettings, anthropicHeaders, anthropicSettingsSchema } from "./anthropic-settings.js";
import { messageResponseSchema, toChoice, toUsage } from "./anthropic-wire.js";
import { type BatchClient, type BatchLimitOptions, type BatchResult, type BatchStatus, checkCustomIds, createPerGroup, splitByLimits } from "./batch-client.js";
import { createBatchHttp } from "./batch-http.js";
import { parseSettings } from "./config-error.js";
import { ModelCallError } from "./model-call-error.js";

/** Anthropic's limits on one Message Batch (the public Message Batches reference). */
export const ANTHROPIC_BATCH_LIMITS = { maxRequests: 100_000, maxBytes: 256 * 1024 * 1024 };

/** Status codes of the API's error types, for error records of errored batch requests. */
const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

interface MessageBatchObject {
  id: string;
  processing_status: string;
  request_counts?: { processing: number; succeeded: number; errored: number; canceled: number; expired: number };
}

/**
 * Anthropic's Message Batches API: `POST /v1/messages/batches` with `{requests: [{custom_id,
 * params}]}`, polled until `processing_status` is `ended`, results read from `.../results` (JSONL).
 * Each request's params are exactly what the online provider would POST to `/v1/messages`; its
 * answers are read by the same code.
 */
export function createAnthropicBatchClient(settings: AnthropicSettings, options: BatchLimitOptions = {}): BatchClient {
  const s = parseSettings(anthropicSettingsSchema, settings, "anthropic");
  const who = `anthropic batch for model "${s.modelId}"`;
  const headers = anthropicHeaders(s);
  const http = createBatchHttp({ ...s, headers, secrets: [s.apiKey], who });
  // The SDKs' base URL has no /v1; one that has it is taken as is (as the online provider does).
  const root = /\/v1$/.test(http.basePath) ? "/messages/batches" : "/v1/messages/batches";
  const limits = { maxRequests: options.maxRequests ?? ANTHROPIC_BATCH_LIMITS.maxRequests, maxBytes: options.maxBytes ?? ANTHROPIC_BATCH_LIMITS.maxBytes };
  const overhead = Buffer.byteLength('{"requests":[]}');

  async function getBatch(id: string, ctx: Parameters<BatchClient["status"]>[1]): Promise<MessageBatchObject | undefined> {
    try {
      return JSON.parse(await http.call("GET", `${root}/${encodeURIComponent(id)}`, ctx)) as MessageBatchObject;
    } catch (error) {
      if (error instanceof ModelCallError && error.status === 404) return undefined;
      throw error;
    }
  }

  function resultOf(batchId: string, result: Record<string, any>): BatchResult {
    if (result.type === "succeeded") {
      const parsed = messageResponseSchema.safeParse(result.message);
      if (!parsed.success) {
        return { ok: false, error: { kind: "invalid-response", attempts: 1, message: `${who}: batch ${batchId}: the result is not a Messages API message` }, retryable: false };
      }
      const choice = toChoice(parsed.data);
      const response: ModelResponse = { text: choice.text, finishReason: choice.finishReason, choices: [choice] };
      if (choice.reasoningContent !== undefined) response.reasoningContent = choice.reasoningContent;
      if (choice.toolCalls !== undefined) response.toolCalls = choice.toolCalls;
      const usage = toUsage(parsed.data);
      if (usage) response.usage = usage;
      if (parsed.data.model !== undefined) response.model = parsed.data.model;
      return { ok: true, response };
    }
    if (result.type === "errored") {
      const e = (result.error?.error ?? {}) as { type?: string; message?: string };
      const status = ERROR_STATUS[e.type ?? ""] ?? 500;
      return {
        ok: false,
        error: { kind: "api", status, attempts: 1, message: `${who}: batch ${batchId}: ${e.type ?? "error"}: ${e.message ?? "no message"}` },
        retryable: status === 429 || status >= 500,
      };
    }
    const why = result.type === "expired" ? "expired: the batch ended (24 hours) before this request was answered" : `${result.type}: the batch was cancelled before this request was answered`;
    return { ok: false, error: { kind: "other", attempts: 1, message: `${who}: batch ${batchId}: ${why}` }, retryable: true };
  }

  return {
    api: "anthropic",
    limits,
    async submit(items, ctx) {
      checkCustomIds(items);
      const lines = items.map((item) => {
        if ((item.request.params.n ?? 1) > 1) throw new ConfigError(`${who}: n > 1 is not supported in a Message Batch (send n requests)`);
        return { customId: item.customId, text: JSON.stringify({ custom_id: item.customId, params: anthropicRequestBody(item.request, s.modelId, s.defaultMaxTokens, who) }) };
      });
      const groups = splitByLimits(lines, (l) => Buffer.byteLength(l.text) + 1, limits, overhead, (l) => `request ${l.customId}`);
      const create = async (group: readonly { text: string }[]) =>
        (JSON.parse(await http.call("POST", root, ctx, `{"requests":[${group.map((l) => l.text).join(",")}]}`)) as MessageBatchObject).id;
      return createPerGroup(groups, create, ctx);
    },
    async status(batchId, ctx) {
      const b = await getBatch(batchId, ctx);
      if (!b) return undefined;
      if (b.processing_status !== "ended") return { id: b.id, state: "running", providerStatus: b.processing_status };
      const c = b.request_counts;
      const status: BatchStatus = { id: b.id, state: "ended", outcome: "completed", providerStatus: b.processing_status };
      if (c && c.canceled > 0) {
        status.outcome = "cancelled";
        status.reason = `the batch was cancelled with ${c.canceled} request(s) unanswered`;
      } else if (c && c.expired > 0) {
        status.outcome = "expired";
        status.reason = `the batch expired (24 hours) with ${c.expired} request(s) unanswered`;
      }
      return status;
    },
    async results(batchId, ctx) {
      const out = new Map<string, BatchResult>();
      let text: string;
      try {
        text = await http.call("GET", `${root}/${encodeURIComponent(batchId)}/results`, ctx);
      } catch (error) {
        if (error instanceof ModelCallError && error.status === 404) return out;
        throw error;
      }
      for (const raw of text.split("\n")) {
        if (raw.trim() === "") continue;
        const json = JSON.parse(raw) as { custom_id?: unknown; result?: Record<string, any> };
        if (typeof json.custom_id === "string" && json.result) out.set(json.custom_id, resultOf(batchId, json.result));
      }
      return out;
    },
    async cancel(batchId, ctx) {
      await http.call("POST", `${root}/${encodeURIComponent(batchId)}/cancel`, ctx, "");
    },
    close: () => http.close(),
  };
}
