import { ConfigError } from "@yardstick/core";
import type { z } from "zod";
import {
  RUN_FORMAT_VERSION,
  type ResponseRecord,
  type RunManifest,
  responseRecordSchema,
  responseRecordV1Schema,
  runManifestSchema,
  runManifestV1Schema,
  type SampleRecord,
  sampleRecordSchema,
  type ScoreRecord,
  scoreRecordSchema,
} from "./schemas.js";
import { fastResponseRecord, fastSampleRecord, fastScoreRecord } from "./fast-records.js";

/** A manifest as read, with the format version of the store it came from. */
export interface ReadManifest {
  manifest: RunManifest;
  /** The store's own format version (1 for stores written before versions were numbered). */
  formatVersion: number;
}

/**
 * Reads run.json: checks its format version (refusing a newer one), validates it and upgrades a
 * version-1 manifest to the current shape. `file` is named in every error.
 */
export function parseManifest(text: string, file: string): ReadManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`not valid JSON (${(err as Error).message}); this is not a run store's manifest, or it was damaged`, { file, cause: err });
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new ConfigError("expected a JSON object (a run store's manifest)", { file });
  }
  const version = (json as Record<string, unknown>).formatVersion;
  if (version === undefined) {
    const v1 = check(runManifestV1Schema, json, file, "a version-1 run manifest");
    return { formatVersion: 1, manifest: upgradeManifestV1(v1) };
  }
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw new ConfigError(`formatVersion must be a positive integer, got ${JSON.stringify(version)}`, { file, keyPath: ["formatVersion"] });
  }
  refuseNewer(version, file);
  return { formatVersion: version, manifest: check(runManifestSchema, json, file, "a run manifest") };
}

export function refuseNewer(version: number, file: string): void {
  if (version > RUN_FORMAT_VERSION) {
    throw new ConfigError(
      `this run store was written by a newer yardstick (run-store format ${version}; this yardstick reads formats 1 to ${RUN_FORMAT_VERSION}); upgrade yardstick to read it, nothing was changed`,
      { file, keyPath: ["formatVersion"] },
    );
  }
}

function upgradeManifestV1(v1: z.infer<typeof runManifestV1Schema>): RunManifest {
  return {
    formatVersion: RUN_FORMAT_VERSION,
    yardstickVersion: v1.yardstick.versions["@yardstick/engine"] ?? "unknown",
    versions: v1.yardstick.versions,
    fingerprint: v1.fingerprint,
    fingerprintParts: { tasks: "", data: v1.dataHashes, model: v1.model.identity, options: v1.options },
    createdAt: v1.createdAt,
    ...(v1.updatedAt ? { updatedAt: v1.updatedAt } : {}),
    models: { generate: v1.model },
    options: v1.options,
    tasks: v1.tasks,
  };
}

/** The outcome of reading one line of responses.jsonl. */
export type ParsedLine<T> = { ok: true; record: T } | { ok: false; problem: string };

/** A line's JSON object, or why it is not one. */
function parseObjectLine(line: string): ParsedLine<Record<string, unknown>> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    return { ok: false, problem: `not JSON (${(err as Error).message})` };
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return { ok: false, problem: "not a JSON object" };
  return { ok: true, record: json as Record<string, unknown> };
}

export interface ResponseLineOptions {
  /**
   * false: leave the stored request out (scoring and resume do not need it, and it is most of a
   * line). Writers put `request` last, so the line is cut before it; a line where that does not give
   * a valid record is parsed whole.
   */
  request?: boolean;
}

const REQUEST_MEMBER = ',"request":';

/** Parses one line of responses.jsonl (either format version), upgrading version-1 records. */
export function parseResponseLine(line: string, options: ResponseLineOptions = {}): ParsedLine<ResponseRecord> {
  if (options.request === false) {
    // A quote inside a JSON string is escaped, so this text can only be the member itself.
    const at = line.indexOf(REQUEST_MEMBER);
    if (at > 0) {
      const cut = parseResponseLine(`${line.slice(0, at)}}`);
      if (cut.ok) return cut;
    }
  }
  const parsed = parseObjectLine(line);
  if (!parsed.ok) return parsed;
  const json = parsed.record;
  if ("stage" in json) {
    const fast = fastResponseRecord(json);
    if (fast) return { ok: true, record: fast };
    const r = responseRecordSchema.safeParse(json);
    return r.success ? { ok: true, record: r.data } : { ok: false, problem: describeIssues(r.error) };
  }
  const r = responseRecordV1Schema.safeParse(json);
  return r.success ? { ok: true, record: upgradeResponseRecordV1(r.data) } : { ok: false, problem: describeIssues(r.error) };
}

export function upgradeResponseRecordV1(v1: z.infer<typeof responseRecordV1Schema>): ResponseRecord {
  const { text, finishReason, reasoningContent, ...rest } = v1;
  const base = { ...rest, stage: "generate" as const };
  if (v1.error) return { ...base, status: "error" };
  if (v1.choiceLogprobs) return { ...base, status: "ok" };
  return {
    ...base,
    status: "ok",
    choices: [{ text: text ?? "", finishReason: finishReason ?? "unknown", ...(reasoningContent !== undefined ? { reasoningContent } : {}) }],
  };
}

/** Parses one line of samples/<task>.jsonl. */
export function parseSampleLine(line: string): ParsedLine<SampleRecord> {
  return parseRecordLine(line, fastSampleRecord, sampleRecordSchema);
}

/** Parses one line of scores/<task>.jsonl. */
export function parseScoreLine(line: string): ParsedLine<ScoreRecord> {
  return parseRecordLine(line, fastScoreRecord, scoreRecordSchema);
}

/** A JSON object line: the common record by hand (`fast`), anything else through the schema, which words the problems. */
function parseRecordLine<S extends z.ZodType>(
  line: string,
  fast: (json: Record<string, unknown>) => z.infer<S> | undefined,
  schema: S,
): ParsedLine<z.infer<S>> {
  const parsed = parseObjectLine(line);
  if (!parsed.ok) return parsed;
  const record = fast(parsed.record);
  if (record) return { ok: true, record };
  const r = schema.safeParse(parsed.record);
  return r.success ? { ok: true, record: r.data as z.infer<S> } : { ok: false, problem: describeIssues(r.error) };
}

function check<S extends z.ZodType>(schema: S, json: unknown, file: string, what: string): z.infer<S> {
  const r = schema.safeParse(json);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new ConfigError(`not ${what}: ${issue.message}`, { file, keyPath: issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)) });
}

/** "key.path: message" of the first few issues, for one-line problem reports. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`)
    .join("; ");
}
