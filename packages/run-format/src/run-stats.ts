import { z } from "zod";
import { stageSchema } from "./schemas.js";

const count = z.number().int().min(0);

/** Token counts the server reported for the requests it answered (cache hits and failures add none). */
export const tokenTotalsSchema = z.object({ input: count, output: count });

/** What the requests of a session (or of one stage of it) cost: every number counts this session only. */
export const requestTotalsSchema = z.object({
  /** Requests sent to the model (or into a batch): the request cache and the run store did not answer them. */
  requests: count,
  /** Requests answered from the request cache. */
  cacheHits: count,
  /** Extra attempts the provider made after a failed one (so HTTP calls = requests + retries). */
  retries: count,
  /** Requests that failed for good (after their retries). */
  errors: count,
  /** Requests in flight when the run was stopped (not errors: a rerun sends them again); absent before it was counted. */
  interrupted: count.optional(),
  tokens: tokenTotalsSchema,
});
export type RequestTotals = z.infer<typeof requestTotalsSchema>;

/** What went to one base URL of a model served by several (the provider's balancer counts them). */
export const endpointTotalsSchema = z.object({
  url: z.string(),
  /** Attempts sent to it, retries included. */
  requests: count,
  /** Attempts that got no usable answer from it. */
  errors: count,
  /** Mean latency of its answered attempts, in ms. */
  meanLatencyMs: z.number().min(0),
  /** Times it was set aside (failing) until a probe found it answering again. */
  setAside: count,
});
export type EndpointTotals = z.infer<typeof endpointTotalsSchema>;

/** One invocation of `yardstick run` on the store: a resumed run adds a session. */
export const runSessionSchema = requestTotalsSchema.extend({
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime(),
  wallSeconds: z.number().min(0),
  /** The session was stopped (Ctrl-C, fail-fast, budget) before every stage finished. */
  aborted: z.boolean(),
  tasks: z.object({ planned: count, done: count }),
  /** Samples finished this session: `fromStore` of them were already answered (resume) and sent nothing. */
  samples: z.object({ done: count, fromStore: count }),
  /** Retries by why the attempt failed: an HTTP status ("429", "500") or a kind ("network", "timeout", "invalid-response"). */
  retriesBy: z.record(z.string(), count),
  /** The same totals per answering stage (generate, judge). */
  stages: z.partialRecord(stageSchema, requestTotalsSchema),
  /** The same totals per task key (both stages of a judged task together). */
  byTask: z.record(z.string(), requestTotalsSchema),
  /** Per base URL of the answering model, when it has several. */
  endpoints: z.array(endpointTotalsSchema).optional(),
  /**
   * Wall seconds of each part of the session: `setup` (loading tasks and data, checks before the
   * first request, the model probe), `answer`, `judge`, `score`. Where a run's time went.
   */
  phases: z.partialRecord(z.enum(["setup", "answer", "judge", "score"]), z.number().min(0)).optional(),
  /** In a merged store: the shard (`--shard index/count`) whose run this session was. */
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }).optional(),
});
export type RunSession = z.infer<typeof runSessionSchema>;

/**
 * run-stats.json: how the answers came — times, requests, retries, cache hits, tokens — one entry
 * per session, appended. Kept out of results.json, which must give the same bytes for the same
 * answers whatever the timing, cache state or number of resumes.
 */
export const runStatsSchema = z.object({
  formatVersion: z.number().int().min(1),
  sessions: z.array(runSessionSchema),
});
export type RunStats = z.infer<typeof runStatsSchema>;
