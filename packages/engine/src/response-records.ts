import { ApiCallError, type ModelErrorRecord, type ModelResponse, YardstickError } from "@yardstick/core";
import type { ResponseRecord } from "./run-store.js";

/** What the engine keeps of a stored or fresh turn. */
export interface TurnState {
  text?: string;
  error?: ModelErrorRecord;
  choiceLogprobs?: number[];
}

export function compactTurn(rec: ResponseRecord): TurnState {
  if (rec.error) return { error: rec.error };
  if (rec.choiceLogprobs) return { choiceLogprobs: rec.choiceLogprobs };
  return { text: rec.text ?? "" };
}

/**
 * The run-store line of an answered turn: exactly `JSON.stringify` of the record
 * `{task, sample, turn, key, promptHash, cached, text, finishReason, reasoningContent, usage,
 * latencyMs, time}` (undefined members left out), written out member by member because this runs
 * per request and the generic stringify of the record object cost about twice as much.
 */
export function answerLine(
  task: string,
  sample: string,
  turn: number,
  key: string,
  promptHash: string,
  cached: boolean,
  r: ModelResponse,
): string {
  const u = r.usage;
  const usage = u
    ? `{${(member("promptTokens", u.promptTokens) + member("completionTokens", u.completionTokens) + member("totalTokens", u.totalTokens)).slice(1)}}`
    : undefined;
  const members =
    member("task", task) +
    member("sample", sample) +
    member("turn", turn) +
    member("key", key) +
    member("promptHash", promptHash) +
    member("cached", cached) +
    member("text", r.text) +
    member("finishReason", r.finishReason) +
    member("reasoningContent", r.reasoningContent) +
    (usage === undefined ? "" : `,"usage":${usage}`) +
    member("latencyMs", r.latencyMs === undefined || cached ? undefined : Math.round(r.latencyMs)) +
    member("time", isoNow());
  return `{${members.slice(1)}}`;
}

/** `,"name":<JSON of value>` as JSON.stringify writes an object member; "" when it would leave it out. */
function member(name: string, value: unknown): string {
  let json: string | undefined;
  switch (typeof value) {
    case "string":
      json = JSON.stringify(value);
      break;
    case "number":
      json = Number.isFinite(value) ? String(value) : "null";
      break;
    case "boolean":
      json = value ? "true" : "false";
      break;
    case "undefined":
      return "";
    default:
      json = JSON.stringify(value);
      if (json === undefined) return "";
  }
  return `,"${name}":${json}`;
}

/** `new Date().toISOString()`, reused within the same millisecond (many records share one). */
let isoMs = -1;
let isoText = "";
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/** What the cache keeps: everything but the latency of the attempt that produced it. */
export function slimResponse(r: ModelResponse): ModelResponse {
  const { latencyMs: _ignored, ...rest } = r;
  return rest;
}

export function toErrorRecord(err: unknown): ModelErrorRecord {
  if (ApiCallError.isInstance(err)) {
    const attempts = /after (\d+) attempts?/.exec(err.message)?.[1];
    return {
      message: err.message,
      ...(err.status !== undefined ? { status: err.status } : {}),
      kind: err.status !== undefined ? "api" : /timed? ?out/i.test(err.message) ? "timeout" : "network",
      attempts: attempts ? Number(attempts) : 1,
    };
  }
  if (YardstickError.isInstance(err)) throw err;
  const message = err instanceof Error ? err.message : String(err);
  return { message, kind: "other", attempts: 1 };
}
