import type { ChatMessage, Judgement, ModelErrorRecord, ModelResponse, StoredAnswer } from "@yardstick/core";
import type { ResponseRecord } from "@yardstick/run-format";
import type { RunStore } from "./run-store.js";
import { FIRST_PASS_CALL } from "./turn-request.js";

/** The latest generate record of one turn, as a judge needs it: every choice's text and the request as sent. */
export interface StoredTurn {
  key: string;
  error?: ModelErrorRecord;
  texts: string[];
  /** The request as sent, from the first record with this key (later records of the key leave it out). */
  request?: StoredAnswer["request"];
}

/** The latest judge record of one call, for resume: its key, judgement, and the reply (for `retryRequest`). */
export interface StoredCall {
  key: string;
  error?: ModelErrorRecord;
  judgement?: Judgement;
  response?: ModelResponse;
}

/** What the judge stage reads of a store, for the judged tasks only: generate turns and judge calls by sample. */
export interface StoredStages {
  turns: Map<string, Map<string, StoredTurn[]>>;
  calls: Map<string, Map<string, Map<string, StoredCall>>>;
}

/**
 * One pass over a store's responses.jsonl, keeping the records of `taskKeys` only: the latest
 * generate record of each (task, sample, turn) with its request as sent, and (when `withCalls`) the
 * latest judge record of each (task, sample, call). Pending records are skipped.
 */
export async function readStoredStages(store: RunStore, taskKeys: ReadonlySet<string>, withCalls: boolean): Promise<StoredStages> {
  const turns = new Map<string, Map<string, StoredTurn[]>>();
  const calls = new Map<string, Map<string, Map<string, StoredCall>>>();
  for await (const rec of store.readResponses()) {
    if (rec.status === "pending" || !taskKeys.has(rec.task)) continue;
    if (rec.stage === "generate" && rec.call !== FIRST_PASS_CALL) {
      const bySample = getOrMake(turns, rec.task, () => new Map<string, StoredTurn[]>());
      const list = getOrMake(bySample, rec.sample, (): StoredTurn[] => []);
      const prior = list[rec.turn - 1];
      const request = sentAsStored(rec) ?? (prior?.key === rec.key ? prior.request : undefined);
      list[rec.turn - 1] = {
        key: rec.key,
        texts: rec.choices?.map((c) => c.text) ?? [],
        ...(rec.error ? { error: rec.error } : {}),
        ...(request ? { request } : {}),
      };
    } else if (rec.stage === "judge" && withCalls) {
      const bySample = getOrMake(calls, rec.task, () => new Map<string, Map<string, StoredCall>>());
      getOrMake(bySample, rec.sample, () => new Map<string, StoredCall>()).set(rec.call ?? "", storedCall(rec));
    }
  }
  return { turns, calls };
}

/**
 * The answers of a sample's turns as a judge sees them, or undefined when a turn is missing or
 * failed (such a sample gets no judge call: its metric input already says error or unanswered).
 */
export function answersOf(turns: StoredTurn[] | undefined, turnCount: number, run?: string): StoredAnswer[] | undefined {
  if (!turns) return undefined;
  const answers: StoredAnswer[] = [];
  for (let turn = 1; turn <= turnCount; turn++) {
    const t = turns[turn - 1];
    if (!t || t.error) return undefined;
    answers.push({
      stage: "generate",
      turn,
      texts: t.texts,
      text: t.texts[0] ?? "",
      ...(t.request ? { request: t.request } : {}),
      ...(run !== undefined ? { run } : {}),
    });
  }
  return answers;
}

function storedCall(rec: ResponseRecord): StoredCall {
  const call: StoredCall = { key: rec.key };
  if (rec.error) call.error = rec.error;
  if (rec.judgement) call.judgement = rec.judgement as Judgement;
  const first = rec.choices?.[0];
  if (first) {
    call.response = {
      text: first.text,
      finishReason: first.finishReason,
      choices: rec.choices!,
      ...(first.reasoningContent !== undefined ? { reasoningContent: first.reasoningContent } : {}),
      ...(first.toolCalls ? { toolCalls: first.toolCalls } : {}),
      ...(rec.usage ? { usage: rec.usage } : {}),
      ...(rec.model ? { model: rec.model } : {}),
    };
  }
  return call;
}

function sentAsStored(rec: ResponseRecord): StoredAnswer["request"] | undefined {
  const r = rec.request;
  if (!r) return undefined;
  if (r.kind === "chat") return { messages: r.messages as ChatMessage[] };
  if (r.kind === "completion") return { prompt: r.prompt };
  return undefined;
}

function getOrMake<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}
