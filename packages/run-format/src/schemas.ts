import { z } from "zod";

/**
 * The run-store format, version 2. A run store is a folder:
 *
 *   run.json              the manifest (`runManifestSchema`)
 *   responses.jsonl       append-only response records, one per model call or label (`responseRecordSchema`)
 *   samples/<task>.jsonl  what scoring needs of each sample, with its dataset position (`sampleRecordSchema`)
 *   scores/<task>.jsonl   per-sample scores in dataset order, derived (`scoreRecordSchema`)
 *   results.json          task, competency and language scores, derived (`resultsSchema`)
 *
 * Version 1 is the format of stores written before the format had a number: no `formatVersion` in
 * run.json, response records without `stage`/`status`/`choices`, no samples folder. Readers upgrade
 * version-1 records as they read them and refuse versions newer than `RUN_FORMAT_VERSION`.
 */
export const RUN_FORMAT_VERSION = 2;

// ---------------------------------------------------------------- shared pieces

const finishReason = z.enum(["stop", "length", "content_filter", "tool_calls", "error", "unknown"]);

export const tokenUsageSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative().optional(),
});

export const tokenLogprobsSchema = z.object({
  tokens: z.array(z.string()),
  tokenLogprobs: z.array(z.number().nullable()),
  textOffset: z.array(z.number().int()),
  topLogprobs: z.array(z.record(z.string(), z.number()).nullable()).optional(),
});

export const choiceSchema = z.object({
  text: z.string(),
  finishReason,
  reasoningContent: z.string().optional(),
  logprobs: tokenLogprobsSchema.optional(),
  /** Tool calls of this choice, when the request offered tools (a judge's forced choice). */
  toolCalls: z.array(z.object({ id: z.string().optional(), name: z.string(), arguments: z.record(z.string(), z.unknown()) })).optional(),
});

/** A failed call, as fields (never parsed back out of a message). */
export const errorRecordSchema = z.object({
  /** `interrupted`: the run was stopped while the call was in flight (no failure; a rerun sends it again). */
  kind: z.enum(["api", "timeout", "network", "invalid-response", "interrupted", "other"]),
  /** HTTP status of the last attempt, when there was a response. */
  status: z.number().int().optional(),
  /** Attempts sent (a stopped call counts the one it cut); 0 only in stores of earlier versions, which also recorded calls still waiting for a slot. */
  attempts: z.number().int().min(0),
  message: z.string(),
});

const contentPart = z.union([
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("image_url"), image_url: z.object({ url: z.string(), detail: z.enum(["auto", "low", "high"]).optional() }) }),
]);

export const chatMessageSchema = z.object({
  role: z.enum(["system", "user", "assistant"]),
  content: z.union([z.string(), z.array(contentPart)]),
});

const paramsSchema = z.record(z.string(), z.unknown());

/** The request as sent: stored with the first record of each (task, sample, turn, stage, call). */
export const sentRequestSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("chat"), messages: z.array(chatMessageSchema), params: paramsSchema }),
  z.object({
    kind: z.literal("completion"),
    prompt: z.string(),
    params: paramsSchema,
    echo: z.boolean().optional(),
    logprobs: z.number().int().optional(),
  }),
  z.object({ kind: z.literal("loglikelihood"), context: z.string(), continuations: z.array(z.string()) }),
]);

// ---------------------------------------------------------------- responses.jsonl

export const stageSchema = z.enum(["generate", "judge", "label"]);

export const responseRecordSchema = z
  .object({
    task: z.string().min(1),
    sample: z.string(),
    /** 1-based turn of a multi-turn sample. */
    turn: z.number().int().min(1),
    stage: stageSchema,
    /** Within a stage, which call this is when a sample has several (a judge's criteria, a labeler): "" for the only one. */
    call: z.string().optional(),
    status: z.enum(["ok", "error", "pending"]),
    /** Cache key: hash of the canonical request and the model identity. */
    key: z.string(),
    /** Hash of what was sent alone (what the dev server's /stats counts). */
    promptHash: z.string(),
    /** Whether the answer came from the request cache rather than the model. */
    cached: z.boolean(),
    /** Every returned choice (n > 1 keeps them all). */
    choices: z.array(choiceSchema).optional(),
    /** Loglikelihood calls: the log-probability of each candidate continuation, in order. */
    choiceLogprobs: z.array(z.number()).optional(),
    /** Loglikelihood calls: the token count of each continuation, beside `choiceLogprobs` (when the provider reported it). */
    choiceTokenCounts: z.array(z.number().int().nonnegative()).optional(),
    usage: tokenUsageSchema.optional(),
    /** Wall time of the successful attempt (absent for cached answers). */
    latencyMs: z.number().nonnegative().optional(),
    /** The model name the server reported. */
    model: z.string().optional(),
    error: errorRecordSchema.optional(),
    /** Pending calls of a batch API: the batch and the id of this request inside it. */
    batch: z.object({ id: z.string(), customId: z.string() }).optional(),
    /** Judge and label stages: the parsed judgement (shape owned by the judge or labeling task). */
    judgement: z.record(z.string(), z.unknown()).optional(),
    /** ISO time the record was written. */
    time: z.string(),
    /**
     * The request as sent, on the first record of this turn (later retries with the same key leave
     * it out). Always the last member, so readers that do not need it (scoring, resume) can cut it
     * off before parsing.
     */
    request: sentRequestSchema.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.status === "error" && !r.error) ctx.addIssue({ code: "custom", message: "a record with status error needs `error`", path: ["error"] });
    if (r.status === "ok" && r.error) ctx.addIssue({ code: "custom", message: "a record with status ok cannot carry `error`", path: ["error"] });
    if (r.status === "ok" && r.stage === "generate" && !r.choices && !r.choiceLogprobs) {
      ctx.addIssue({ code: "custom", message: "an ok generate record needs `choices` or `choiceLogprobs`", path: ["choices"] });
    }
    if (r.choiceTokenCounts && r.choiceTokenCounts.length !== r.choiceLogprobs?.length) {
      ctx.addIssue({ code: "custom", message: "`choiceTokenCounts` needs one count per entry of `choiceLogprobs`", path: ["choiceTokenCounts"] });
    }
  });

export type ResponseRecord = z.infer<typeof responseRecordSchema>;
export type SentRequest = z.infer<typeof sentRequestSchema>;
export type ErrorRecord = z.infer<typeof errorRecordSchema>;

/** Version 1 response records (before stages): upgraded by `upgradeResponseRecordV1`. */
export const responseRecordV1Schema = z.object({
  task: z.string().min(1),
  sample: z.string(),
  turn: z.number().int().min(1),
  key: z.string(),
  promptHash: z.string(),
  cached: z.boolean(),
  text: z.string().optional(),
  finishReason: finishReason.optional(),
  reasoningContent: z.string().optional(),
  usage: tokenUsageSchema.optional(),
  latencyMs: z.number().nonnegative().optional(),
  choiceLogprobs: z.array(z.number()).optional(),
  error: errorRecordSchema.optional(),
  time: z.string(),
});

// ---------------------------------------------------------------- samples/<task>.jsonl

/**
 * What scoring needs of a sample: its gold answer, metadata and row (without the prompt variables),
 * and its position in the dataset, so scoring runs in dataset order whatever order answers came in.
 * `label` and `metadata` are left out when they are the row's own `label`/`metadata` members
 * (`labelInRaw`, `metadataInRaw`), so they are not stored twice.
 */
export const sampleRecordSchema = z.object({
  task: z.string().min(1),
  sample: z.string(),
  /** 0-based position in the task's data stream (before sharding and --limit). */
  index: z.number().int().nonnegative(),
  label: z.unknown().optional(),
  labelInRaw: z.literal(true).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  metadataInRaw: z.literal(true).optional(),
  raw: z.record(z.string(), z.unknown()),
});
export type SampleRecord = z.infer<typeof sampleRecordSchema>;

// ---------------------------------------------------------------- scores/<task>.jsonl

export const scoreRecordSchema = z.object({
  sample: z.string(),
  index: z.number().int().nonnegative(),
  /** The postprocessed prediction (or the option log-probabilities of a loglikelihood task). */
  prediction: z.unknown(),
  scores: z.record(z.string(), z.number().nullable()),
});
export type ScoreRecord = z.infer<typeof scoreRecordSchema>;

// ---------------------------------------------------------------- run.json

export const servedModelSchema = z.object({
  root: z.string().optional(),
  maxModelLen: z.number().int().optional(),
  ownedBy: z.string().optional(),
});

export const modelRoleSchema = z.object({
  /** Provider id, e.g. "openai-compatible". */
  provider: z.string(),
  modelId: z.string(),
  /** The identity that keys the request cache (provider, model, what the server reports, revision). */
  identity: z.string(),
  served: servedModelSchema.optional(),
  revision: z.string().optional(),
  baseURLs: z.array(z.string()).optional(),
});
export type ModelRole = z.infer<typeof modelRoleSchema>;

export const shardSchema = z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).refine((s) => s.index <= s.count, {
  message: "shard index must be between 1 and the shard count",
});
export type Shard = z.infer<typeof shardSchema>;

export const runManifestSchema = z.object({
  formatVersion: z.literal(RUN_FORMAT_VERSION),
  /** Version of @yardstick/engine that wrote the store, and of every yardstick package loaded. */
  yardstickVersion: z.string(),
  versions: z.record(z.string(), z.string()),
  /** sha256 over `fingerprintParts`: what makes two stores the same run (shards of one run share it). */
  fingerprint: z.string(),
  fingerprintParts: z.object({
    tasks: z.string(),
    data: z.record(z.string(), z.string()),
    model: z.string(),
    options: z.record(z.string(), z.unknown()),
  }),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
  /** The part of the run this store holds; absent for a whole run (or a merged one). */
  shard: shardSchema.optional(),
  /** Stores merged into this one, when it is a merge. */
  mergedFrom: z.array(z.object({ dir: z.string(), shard: shardSchema.optional() })).optional(),
  /** Models by role: "generate" is the evaluated model; later stages add "judge", "baseline", ... */
  models: z.record(z.string(), modelRoleSchema),
  options: z.record(z.string(), z.unknown()),
  /** The resolved tasks (TaskSpec, plain data). */
  tasks: z.array(z.looseObject({ key: z.string(), name: z.string(), language: z.string() })),
});
export type RunManifest = z.infer<typeof runManifestSchema>;

/** Version 1 run.json (no formatVersion). */
export const runManifestV1Schema = z.object({
  fingerprint: z.string(),
  createdAt: z.string(),
  updatedAt: z.string().optional(),
  yardstick: z.object({ versions: z.record(z.string(), z.string()) }),
  model: z.object({ provider: z.string(), modelId: z.string(), identity: z.string(), baseURLs: z.array(z.string()).optional() }),
  options: z.record(z.string(), z.unknown()),
  tasks: z.array(z.looseObject({ key: z.string(), name: z.string(), language: z.string() })),
  dataHashes: z.record(z.string(), z.string()),
});

// ---------------------------------------------------------------- results.json

/**
 * results.json: SEA-HELM's shape — language → competency → task (its metrics) with group,
 * competency and language totals and an overall `total` — plus `formatVersion` and `meta`. It is
 * derived from the store alone and holds nothing that depends on when or how the answers came
 * (no times, no cache counts), so the same answers give the same bytes.
 */
export const resultsSchema = z.looseObject({
  formatVersion: z.literal(RUN_FORMAT_VERSION),
  total: z.number().optional(),
  meta: z.object({
    fingerprint: z.string(),
    model: z.string(),
    provider: z.string(),
    shard: shardSchema.optional(),
    tasks: z.record(
      z.string(),
      z.object({
        samples: z.number().int(),
        errors: z.number().int(),
        /** Samples of the store without a final answer (a stopped run). */
        unanswered: z.number().int(),
        /** Extra attempts the task's requests took over every run of the store (absent without run statistics). */
        retries: z.number().int().optional(),
        /** The per-sample score that `compare` pairs across runs (the main score when it is per sample). */
        perSampleKey: z.string().optional(),
        failure: z.string().optional(),
      }),
    ),
  }),
});
export type RunResults = z.infer<typeof resultsSchema>;
