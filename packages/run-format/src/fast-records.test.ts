import { describe, expect, it } from "vitest";
import { fastResponseRecord, fastSampleRecord, fastScoreRecord } from "./fast-records.js";
import { parseResponseLine, parseSampleLine, parseScoreLine } from "./read.js";
import { responseRecordSchema, sampleRecordSchema, scoreRecordSchema } from "./schemas.js";

const base = {
  task: "sentiment/id",
  sample: "s1",
  turn: 1,
  stage: "generate",
  status: "ok",
  key: "k",
  promptHash: "p",
  cached: false,
  choices: [{ text: "Jawaban: Positif", finishReason: "stop" }],
  usage: { promptTokens: 10, completionTokens: 3, totalTokens: 13 },
  latencyMs: 12.5,
  model: "m",
  time: "2026-11-24T00:00:00.000Z",
  request: { kind: "chat", messages: [{ role: "user", content: "Kalimat: bagus" }], params: { temperature: 0, seed: 1234 } },
};

// Records the fast path takes: zod must accept each and give the same value.
const taken: Record<string, unknown>[] = [
  base,
  { ...base, request: undefined },
  { ...base, call: "first-pass", choices: [{ text: "", finishReason: "length", reasoningContent: "hmm" }] },
  { ...base, usage: { ...base.usage, reasoningTokens: 0 } },
  { ...base, request: { kind: "completion", prompt: "Q: x\nA:", params: { max_tokens: 8 } } },
  { ...base, choices: [] },
];

// Records it leaves to zod: valid ones zod parses, and invalid ones zod words.
const left: Record<string, unknown>[] = [
  { ...base, status: "error", choices: undefined, error: { kind: "network", attempts: 3, message: "reset" } },
  { ...base, stage: "judge", judgement: { score: 1 } },
  { ...base, extra: 1 },
  { ...base, task: "" },
  { ...base, turn: 0 },
  { ...base, turn: 1.5 },
  { ...base, turn: 2 ** 60 },
  { ...base, cached: "no" },
  { ...base, choices: [{ text: "x", finishReason: "done" }] },
  { ...base, choices: [{ text: "x" }] },
  { ...base, usage: { promptTokens: -1, completionTokens: 0, totalTokens: 0 } },
  { ...base, usage: { promptTokens: 1, completionTokens: 0 } },
  { ...base, request: { kind: "chat", messages: [{ role: "user", content: [{ type: "text", text: "x" }] }], params: {} } },
  { ...base, request: { kind: "chat", messages: [{ role: "tool", content: "x" }], params: {} } },
  { ...base, request: { kind: "completion", prompt: "x", params: {}, echo: true, logprobs: 1 } },
  { ...base, choiceLogprobs: [-1.5] },
  { ...base, time: undefined },
  JSON.parse('{"__proto__": {"x": 1}, "task": "t", "sample": "s", "turn": 1, "stage": "generate", "status": "ok", "key": "k", "promptHash": "p", "cached": false, "choices": [], "time": "t"}'),
];

const withoutUndefined = (r: Record<string, unknown>) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>;

describe("fastResponseRecord", () => {
  it.each(taken.map((r, i) => [i, withoutUndefined(r)] as const))("takes common record %i exactly as zod parses it", (_i, record) => {
    const fast = fastResponseRecord(record);
    expect(fast).toBeDefined();
    const zod = responseRecordSchema.safeParse(record);
    expect(zod.success).toBe(true);
    expect(fast).toEqual(zod.data);
  });

  it.each(left.map((r, i) => [i, withoutUndefined(r)] as const))("leaves record %i to zod", (_i, record) => {
    expect(fastResponseRecord(record)).toBeUndefined();
  });

  it("gives parseResponseLine the same outcome as zod on every record above", () => {
    for (const record of [...taken, ...left].map(withoutUndefined)) {
      const zod = responseRecordSchema.safeParse(record);
      const read = parseResponseLine(JSON.stringify(record));
      expect(read.ok).toBe(zod.success);
      if (read.ok && zod.success) expect(read.record).toEqual(zod.data);
    }
  });
});

const sample = { task: "sentiment/id", sample: "s1", index: 0, raw: { id: "s1", text: "bagus", label: "Positif" }, labelInRaw: true };
const samplesTaken: Record<string, unknown>[] = [
  sample,
  { ...sample, labelInRaw: undefined, label: ["a", "b"] },
  { ...sample, label: null },
  { ...sample, metadata: { lang: "id" }, metadataInRaw: true },
  { ...sample, raw: {} },
];
const samplesLeft: Record<string, unknown>[] = [
  { ...sample, task: "" },
  { ...sample, index: -1 },
  { ...sample, index: 0.5 },
  { ...sample, index: 2 ** 60 },
  { ...sample, sample: 1 },
  { ...sample, raw: [] },
  { ...sample, raw: undefined },
  { ...sample, labelInRaw: false },
  { ...sample, metadata: "x" },
  { ...sample, extra: 1 },
];

const score = { sample: "s1", index: 3, prediction: "Positif", scores: { accuracy: 1, f1: null } };
const scoresTaken: Record<string, unknown>[] = [score, { ...score, prediction: [-1.5, -0.2] }, { ...score, prediction: null }, { ...score, scores: {} }];
const scoresLeft: Record<string, unknown>[] = [
  { ...score, prediction: undefined },
  { ...score, index: -1 },
  { ...score, index: 1.5 },
  { ...score, sample: 1 },
  { ...score, scores: { accuracy: "1" } },
  { ...score, scores: [] },
  { ...score, extra: true },
];

/** Each fast path against its schema and its line parser: what it takes equals zod's value, the rest goes to zod. */
const fastPaths = [
  { name: "fastSampleRecord", fast: fastSampleRecord, schema: sampleRecordSchema, parseLine: parseSampleLine, taken: samplesTaken, left: samplesLeft },
  { name: "fastScoreRecord", fast: fastScoreRecord, schema: scoreRecordSchema, parseLine: parseScoreLine, taken: scoresTaken, left: scoresLeft },
] as const;

describe.each(fastPaths)("$name", ({ fast, schema, parseLine, taken, left }) => {
  it("takes common records exactly as zod parses them, leaves the rest to zod, and the line parser agrees with zod on all", () => {
    for (const record of taken.map(withoutUndefined)) {
      const zod = schema.safeParse(record);
      expect(zod.success).toBe(true);
      expect(fast(record)).toEqual(zod.data);
    }
    for (const record of left.map(withoutUndefined)) expect(fast(record), JSON.stringify(record)).toBeUndefined();
    for (const record of [...taken, ...left].map(withoutUndefined)) {
      const zod = schema.safeParse(record);
      const read = parseLine(JSON.stringify(record));
      expect(read.ok).toBe(zod.success);
      if (read.ok && zod.success) expect(read.record).toEqual(zod.data);
    }
    expect(parseLine("{not json").ok).toBe(false);
  });
});
