import { z } from "zod";
import { resultsSchema, responseRecordSchema, runManifestSchema, sampleRecordSchema, scoreRecordSchema } from "./schemas.js";
import { runStatsSchema } from "./run-stats.js";

/** The JSON Schema of every run-store file, generated from the zod schemas (file name → schema). */
export function runFormatJsonSchemas(): Record<string, unknown> {
  const make = (schema: z.ZodType, title: string, description: string) => ({
    ...(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>),
    title,
    description,
  });
  return {
    "run.schema.json": make(runManifestSchema, "yardstick run.json", "The manifest of a yardstick run store (format version 2)."),
    "response-record.schema.json": make(responseRecordSchema, "yardstick response record", "One line of responses.jsonl."),
    "sample-record.schema.json": make(sampleRecordSchema, "yardstick sample record", "One line of samples/<task>.jsonl."),
    "score-record.schema.json": make(scoreRecordSchema, "yardstick score record", "One line of scores/<task>.jsonl."),
    "results.schema.json": make(resultsSchema, "yardstick results.json", "Task, competency and language scores of a run."),
    "run-stats.schema.json": make(runStatsSchema, "yardstick run-stats.json", "Wall time, requests, retries, errors, cache hits and tokens of each session of a run."),
  };
}
