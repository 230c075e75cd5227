import type { Judgement, JudgementRecord } from "@yardstick/core";
import type { ResponseRecord } from "@yardstick/run-format";

/** Judge records belong to the sample, not to a turn: they are all stored as turn 1. */
export const JUDGE_TURN = 1;
/**
 * The call id of a judge record about the sample itself rather than one request: the judge could
 * not build its requests (an error), or it built none (an empty judgement). Metrics see only the error.
 */
export const SAMPLE_CALL = "";
/** The call id suffix of a judge's one retry of a reply that did not parse. */
export const RETRY_SUFFIX = "#retry";
/**
 * The member of `Judgement.data` where the engine stores the position of the call among the judge's
 * requests for the sample, so scoring hands metrics the judgements in request order whatever order
 * they were written in (resume, concurrency).
 */
export const REQUEST_INDEX = "requestIndex";

/** The latest judge or label record of one call of a sample, as scoring keeps it. */
export interface KeptJudgement {
  stage: string;
  call: string;
  judgement: Judgement;
  /** Position of the record in responses.jsonl, to tell which of two records came later. */
  seq: number;
}

/** The judgement a stored judge or label record stands for; a failed call is a judgement with `error`. */
export function judgementOfRecord(rec: ResponseRecord, seq: number): KeptJudgement {
  const stored = rec.judgement as Judgement | undefined;
  const judgement: Judgement =
    rec.status === "error" ? { ...stored, error: stored?.error ?? `the judge call failed: ${rec.error?.message ?? "unknown error"}` } : (stored ?? { error: "the record holds no judgement" });
  return { stage: rec.stage, call: rec.call ?? "", judgement, seq };
}

/**
 * A sample's judgements as metrics see them (`MetricInput.judgements`): the latest record of each
 * call; a `<id>#retry` record stands in for call `<id>` (keeping id `<id>`) when it came after a
 * reply of `<id>` that did not parse, and is dropped otherwise. Judge records come in the judge's
 * request order (`data.requestIndex`), then label records in the order they were written.
 */
export function resolveJudgements(kept: Iterable<KeptJudgement>): JudgementRecord[] {
  const byCall = new Map<string, KeptJudgement>();
  for (const k of kept) byCall.set(`${k.stage}\u0000${k.call}`, k);
  const out: KeptJudgement[] = [];
  for (const k of byCall.values()) {
    if (k.stage === "judge" && k.call === SAMPLE_CALL && k.judgement.error === undefined) continue;
    if (k.stage === "judge" && k.call.endsWith(RETRY_SUFFIX)) {
      const first = byCall.get(`judge\u0000${k.call.slice(0, -RETRY_SUFFIX.length)}`);
      if (first) continue; // handled with its first call below
      out.push(k);
      continue;
    }
    if (k.stage === "judge" && k.judgement.error) {
      const retry = byCall.get(`judge\u0000${k.call}${RETRY_SUFFIX}`);
      if (retry && retry.seq > k.seq) {
        out.push({ ...retry, call: k.call });
        continue;
      }
    }
    out.push(k);
  }
  const order = (k: KeptJudgement): number => {
    const i = k.stage === "judge" ? k.judgement.data?.[REQUEST_INDEX] : undefined;
    return typeof i === "number" ? i : Number.MAX_SAFE_INTEGER;
  };
  out.sort((a, b) => order(a) - order(b) || a.seq - b.seq);
  return out.map((k) => ({ stage: k.stage, call: k.call, judgement: k.judgement }));
}
