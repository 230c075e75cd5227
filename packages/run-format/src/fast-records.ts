import type { ResponseRecord, SampleRecord, ScoreRecord } from "./schemas.js";

/**
 * The common response record — an ok generate answer with plain choices, usage and (optionally) a
 * chat or completion request of plain strings — recognised by hand. Reading a store back (scoring,
 * resume, the report) parses every line, and zod's object parsing cost about a third of the report's
 * time at 5,000 samples. A record this accepts is one `responseRecordSchema` accepts unchanged (it
 * has only the schema's keys, with values of the schema's types); anything else returns undefined
 * and goes through zod, which also words the problems.
 */
export function fastResponseRecord(json: Record<string, unknown>): ResponseRecord | undefined {
  for (const key in json) {
    const check = Object.hasOwn(RECORD_KEYS, key) ? RECORD_KEYS[key] : undefined;
    if (check === undefined || !check(json[key])) return undefined;
  }
  if (json.stage !== "generate" || json.status !== "ok" || json.choices === undefined) return undefined;
  if (json.task === undefined || json.sample === undefined || json.turn === undefined) return undefined;
  if (json.key === undefined || json.promptHash === undefined || json.cached === undefined || json.time === undefined) return undefined;
  return json as unknown as ResponseRecord;
}

const isString = (v: unknown): boolean => typeof v === "string";
// zod's int() takes safe integers only.
const isCount = (v: unknown): boolean => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const FINISH_REASONS = new Set(["stop", "length", "content_filter", "tool_calls", "error", "unknown"]);
const ROLES = new Set(["system", "user", "assistant"]);

function isChoice(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  for (const key in v) {
    if (key === "text" || key === "reasoningContent") {
      if (typeof v[key] !== "string") return false;
    } else if (key === "finishReason") {
      if (!FINISH_REASONS.has(v[key] as string)) return false;
    } else return false;
  }
  return typeof v.text === "string" && v.finishReason !== undefined;
}

function isUsage(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  for (const key in v) {
    if (key !== "promptTokens" && key !== "completionTokens" && key !== "totalTokens" && key !== "reasoningTokens") return false;
    if (!isCount(v[key])) return false;
  }
  return v.promptTokens !== undefined && v.completionTokens !== undefined && v.totalTokens !== undefined;
}

/** A chat request of string messages or a completion request without echo options; params are any object. */
function isPlainRequest(v: unknown): boolean {
  if (!isPlainObject(v) || !isPlainObject(v.params)) return false;
  if (v.kind === "chat") {
    if (Object.keys(v).length !== 3 || !Array.isArray(v.messages)) return false;
    for (const m of v.messages) {
      if (!isPlainObject(m) || Object.keys(m).length !== 2 || !ROLES.has(m.role as string) || typeof m.content !== "string") return false;
    }
    return true;
  }
  return v.kind === "completion" && Object.keys(v).length === 3 && typeof v.prompt === "string";
}

const RECORD_KEYS: Record<string, (v: unknown) => boolean> = {
  task: (v) => typeof v === "string" && v.length > 0,
  sample: isString,
  turn: (v) => isCount(v) && (v as number) >= 1,
  stage: isString,
  call: isString,
  status: isString,
  key: isString,
  promptHash: isString,
  cached: (v) => typeof v === "boolean",
  choices: (v) => Array.isArray(v) && v.every(isChoice),
  usage: isUsage,
  latencyMs: (v) => typeof v === "number" && v >= 0,
  model: isString,
  time: isString,
  request: isPlainRequest,
};

/**
 * A sample record (samples/<task>.jsonl) recognised by hand, for the same reason and on the same
 * terms as `fastResponseRecord`: one `sampleRecordSchema` accepts unchanged, or undefined (zod then).
 */
export function fastSampleRecord(json: Record<string, unknown>): SampleRecord | undefined {
  for (const key in json) {
    const v = json[key];
    switch (key) {
      case "task":
        if (typeof v !== "string" || v === "") return undefined;
        break;
      case "sample":
        if (typeof v !== "string") return undefined;
        break;
      case "index":
        if (!isCount(v)) return undefined;
        break;
      case "label":
        break;
      case "labelInRaw":
      case "metadataInRaw":
        if (v !== true) return undefined;
        break;
      case "raw":
      case "metadata":
        if (!isPlainObject(v)) return undefined;
        break;
      default:
        return undefined;
    }
  }
  if (json.task === undefined || json.sample === undefined || json.index === undefined || json.raw === undefined) return undefined;
  return json as unknown as SampleRecord;
}

/** A per-sample score record (scores/<task>.jsonl), on the same terms as `fastResponseRecord`. */
export function fastScoreRecord(json: Record<string, unknown>): ScoreRecord | undefined {
  for (const key in json) {
    const v = json[key];
    if (key === "sample") {
      if (typeof v !== "string") return undefined;
    } else if (key === "index") {
      if (!isCount(v)) return undefined;
    } else if (key === "scores") {
      if (!isPlainObject(v)) return undefined;
      for (const k in v) if (v[k] !== null && typeof v[k] !== "number") return undefined;
    } else if (key !== "prediction") return undefined;
  }
  if (json.sample === undefined || json.index === undefined || json.scores === undefined || !("prediction" in json)) return undefined;
  return json as unknown as ScoreRecord;
}
