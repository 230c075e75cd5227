import { ApiCallError, type ModelErrorRecord, type ModelResponse, type Sample, YardstickError } from "@yardstick/core";
import type { ResponseRecord, SampleRecord } from "@yardstick/run-format";

/** What the engine keeps of a stored or fresh turn. */
export interface TurnState {
  text?: string;
  error?: ModelErrorRecord;
  choiceLogprobs?: number[];
  /** Loglikelihood turns: the token count of each continuation (absent in older stores). */
  choiceTokenCounts?: number[];
  /** Cache key of the request the stored record answered (the request is stored once per key). */
  key?: string;
}

/** The turn state of a stored record; `withKey` keeps the request key (resume needs it, scoring does not). */
export function compactTurn(rec: ResponseRecord, withKey = true): TurnState {
  const state: TurnState = rec.error
    ? { error: rec.error }
    : rec.choiceLogprobs
      ? { choiceLogprobs: rec.choiceLogprobs, ...(rec.choiceTokenCounts ? { choiceTokenCounts: rec.choiceTokenCounts } : {}) }
      : { text: rec.choices?.[0]?.text ?? "" };
  if (withKey) state.key = rec.key;
  return state;
}

/** Where a response record belongs: task, sample, turn and stage (and, for judge calls, which call). */
export interface RecordPlace {
  task: string;
  sample: string;
  turn: number;
  stage: ResponseRecord["stage"];
  /** The judge request id of a judge record; absent for generate records. */
  call?: string;
}

/**
 * The run-store line of an answered request: exactly `JSON.stringify` of the response record
 * `{task, sample, turn, stage, call, status, key, promptHash, cached, choices, usage, latencyMs, model,
 * judgement, time, request}` (undefined members left out; `request` last), written member by member because this runs per
 * request and the generic stringify of the record cost about twice as much. `requestJson` is the
 * canonical request already serialised for hashing, or undefined when an earlier record of this
 * turn stored the same request. `judgement`: a judge record's parsed judgement.
 */
export function answerLine(
  at: RecordPlace,
  key: string,
  promptHash: string,
  requestJson: string | undefined,
  cached: boolean,
  r: ModelResponse,
  judgement?: Record<string, unknown>,
): string {
  const u = r.usage;
  const usage = u ? JSON.stringify({ promptTokens: u.promptTokens, completionTokens: u.completionTokens, totalTokens: u.totalTokens, reasoningTokens: u.reasoningTokens }) : undefined;
  const members =
    placeMembers(at) +
    `,"status":"ok"` +
    member("key", key) +
    member("promptHash", promptHash) +
    member("cached", cached) +
    `,"choices":${choicesJson(r)}` +
    (usage === undefined ? "" : `,"usage":${usage}`) +
    member("latencyMs", r.latencyMs === undefined || cached ? undefined : Math.round(r.latencyMs)) +
    member("model", r.model) +
    member("judgement", judgement) +
    member("time", isoNow()) +
    // Last, so readers that skip it can cut the line before it (see parseResponseLine).
    (requestJson === undefined ? "" : `,"request":${requestJson}`);
  return `{${members.slice(1)}}`;
}

/** Every choice; the common single plain choice is written without the generic stringify. */
function choicesJson(r: ModelResponse): string {
  const choices =
    r.choices.length > 0 ? r.choices : [{ text: r.text, finishReason: r.finishReason, reasoningContent: r.reasoningContent, logprobs: r.logprobs, toolCalls: r.toolCalls }];
  if (choices.length === 1) {
    const c = choices[0]!;
    if (c.logprobs === undefined && c.toolCalls === undefined) {
      return `[{${(member("text", c.text) + member("finishReason", c.finishReason) + member("reasoningContent", c.reasoningContent)).slice(1)}}]`;
    }
  }
  return JSON.stringify(
    choices.map((c) => ({ text: c.text, finishReason: c.finishReason, reasoningContent: c.reasoningContent, logprobs: c.logprobs, toolCalls: c.toolCalls })),
  );
}

function placeMembers(at: RecordPlace): string {
  return member("task", at.task) + member("sample", at.sample) + member("turn", at.turn) + member("stage", at.stage) + member("call", at.call);
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

/**
 * The error record of a failed call, from the error's own fields. A `YardstickError` that is not a
 * failed call (a bad config, say) is not a failed request: it is thrown on.
 */
export function toErrorRecord(err: unknown): ModelErrorRecord {
  if (ApiCallError.isInstance(err)) {
    const kind = err.kind ?? (err.status !== undefined ? "api" : "network");
    return { message: err.message, ...(err.status !== undefined ? { status: err.status } : {}), kind, attempts: err.attempts ?? 1 };
  }
  if (YardstickError.isInstance(err)) throw err;
  const message = err instanceof Error ? err.message : String(err);
  return { message, kind: "other", attempts: 1 };
}

/**
 * The sample record of a sample: what scoring needs (gold, metadata, the row without its prompt
 * variables) and its dataset position. A label or metadata that is the row's own member is not
 * written twice (`labelInRaw`, `metadataInRaw`). With `keepPrompts` (a metric of the task reads
 * them), the prompt variables are kept as `raw.prompts`.
 */
export function sampleRecord(task: string, index: number, sample: Sample, keepPrompts = false): SampleRecord {
  const { prompts: _prompts, ...rest } = sample.raw;
  const raw = keepPrompts ? { ...rest, prompts: sample.prompts } : rest;
  const record: SampleRecord = { task, sample: sample.id, index, raw };
  if (sample.label !== undefined) {
    if ("label" in raw && raw.label === sample.label) record.labelInRaw = true;
    else record.label = sample.label;
  }
  if (sample.metadata !== undefined) {
    if ("metadata" in raw && raw.metadata === sample.metadata) record.metadataInRaw = true;
    else record.metadata = sample.metadata;
  }
  return record;
}

/** The sample scoring sees, rebuilt from its record (no prompt variables: metrics do not read them). */
export function sampleFromRecord(record: SampleRecord): Sample {
  const raw = record.raw;
  const label = record.labelInRaw ? raw.label : record.label;
  const metadata = record.metadataInRaw ? (raw.metadata as Record<string, unknown> | undefined) : record.metadata;
  return { id: record.sample, prompts: NO_PROMPTS, raw, ...(label !== undefined ? { label } : {}), ...(metadata !== undefined ? { metadata } : {}) };
}

const NO_PROMPTS: Record<string, unknown>[] = [];
