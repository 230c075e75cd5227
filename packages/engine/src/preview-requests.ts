/**
 * The requests a run would send, without a model and without sending anything (`yardstick prompts`).
 * Samples are chosen as the generate stage chooses them (`--limit`, `--shard`), and each request is
 * built by the same `buildTurnRequest`. A later turn of a multi-turn task needs the model's earlier
 * answers: they come from a run store (`from`), else only the turns that need none are given.
 */
import type { ModelRequest, PromptBuildInput, Registry, TaskSpec } from "@yardstick/core";
import type { Shard } from "@yardstick/run-format";
import { examplesFor, loadExamplePool } from "./fewshot-examples.js";
import { compactTurn } from "./response-records.js";
import type { RunStore } from "./run-store.js";
import { inShard } from "./shard.js";
import {
  FIRST_PASS_CALL,
  afterFirstPass,
  buildLoglikelihoodRequest,
  buildTurnRequest,
  firstPassRequest,
  type LoglikelihoodTurnRequest,
} from "./turn-request.js";

export interface PreviewSettings {
  tasks: readonly TaskSpec[];
  registry: Registry;
  /** Only the first N samples of each task (by dataset position, before sharding), as `answerTasks`. */
  limit?: number;
  shard?: Shard;
  baseDir?: string;
  /** A run store whose stored answers feed the later turns of multi-turn tasks. */
  from?: RunStore;
}

export interface PreviewedRequest {
  task: string;
  sample: string;
  turn: number;
  /** "first-pass": a loglikelihood row's first request, which generates up to the answer tag. */
  call?: string;
  request: ModelRequest | LoglikelihoodTurnRequest;
}

/** A turn that was not built, and why (the model's earlier answer is not known). */
export interface PreviewGap {
  task: string;
  sample: string;
  turn: number;
  /** Set when only the row's echo request after its first pass is missing (not the turn). */
  call?: string;
  reason: string;
}

export type PreviewItem = { kind: "request"; value: PreviewedRequest } | { kind: "gap"; value: PreviewGap };

export async function* previewRequests(settings: PreviewSettings): AsyncGenerator<PreviewItem> {
  const { registry, limit, shard } = settings;
  const answers = settings.from ? await storedAnswers(settings.from) : undefined;
  const firstPasses = settings.from ? await storedFirstPasses(settings.from) : undefined;
  for (const task of settings.tasks) {
    const loader = registry.get("dataloaders", task.data.id);
    const builder = registry.get("promptBuilders", task.prompt.id);
    const pool = await loadExamplePool(registry, task, settings.baseDir);
    const turns = Math.max(1, task.turns ?? 1);
    const byTask = answers?.get(task.key);
    let index = 0;
    for await (const sample of loader.load(task.data.options ?? {}, { baseDir: settings.baseDir, task })) {
      if (limit !== undefined && index >= limit) break;
      index++;
      if (shard && !inShard(task.key, sample.id, shard)) continue;
      const examples = examplesFor(sample, pool, task);
      const previousResponses: string[] = [];
      for (let turn = 1; turn <= turns; turn++) {
        const input: PromptBuildInput = { sample, task, examples, turn, previousResponses: [...previousResponses] };
        if (task.mode === "loglikelihood") yield* loglikelihoodRequests(task, buildLoglikelihoodRequest(task, builder, input), sample.id, turn, settings.from, firstPasses);
        else yield { kind: "request", value: { task: task.key, sample: sample.id, turn, request: buildTurnRequest(task, builder, input) } };
        if (turn === turns) break;
        const answer = byTask?.get(sample.id)?.[turn - 1];
        if (answer === undefined) {
          const reason = settings.from
            ? `the run store has no answer to turn ${turn} of this sample`
            : `turn ${turn + 1} is built from the model's answer to turn ${turn}: give a run store with --from to see it`;
          yield { kind: "gap", value: { task: task.key, sample: sample.id, turn: turn + 1, reason } };
          break;
        }
        previousResponses.push(answer);
      }
    }
  }
}

/**
 * A loglikelihood row's requests: the echo request, or with a first pass (SEA-HELM's logprob tasks)
 * the first-pass request and, when a run store has its answer, the echo request after it.
 */
function* loglikelihoodRequests(
  task: TaskSpec,
  request: LoglikelihoodTurnRequest,
  sample: string,
  turn: number,
  from: RunStore | undefined,
  firstPasses: Map<string, StoredFirstPass> | undefined,
): Generator<PreviewItem> {
  const first = firstPassRequest(task, request);
  if (!first) {
    yield { kind: "request", value: { task: task.key, sample, turn, request } };
    return;
  }
  yield { kind: "request", value: { task: task.key, sample, turn, call: FIRST_PASS_CALL, request: first } };
  const answer = firstPasses?.get(`${task.key}\u0000${sample}\u0000${turn}`);
  const gap = (reason: string): PreviewItem => ({ kind: "gap", value: { task: task.key, sample, turn, call: FIRST_PASS_CALL, reason } });
  if (answer === undefined) {
    yield gap(
      from
        ? "the run store has no first pass of this row"
        : "the echo request follows the model's first pass up to the answer tag: give a run store with --from to see it",
    );
  } else if (answer.finishReason !== "stop") {
    yield gap("the first pass never reached the answer tag, so no echo request is sent (the row scores null)");
  } else {
    yield { kind: "request", value: { task: task.key, sample, turn, request: afterFirstPass(task, request, answer.text) } };
  }
}

interface StoredFirstPass {
  text: string;
  finishReason: string | undefined;
}

/** The latest successful first pass of each loglikelihood row in a run store, by task, sample and turn. */
async function storedFirstPasses(store: RunStore): Promise<Map<string, StoredFirstPass>> {
  await store.readManifest();
  const out = new Map<string, StoredFirstPass>();
  for await (const rec of store.readResponses({ request: false })) {
    if (rec.stage !== "generate" || rec.status !== "ok" || rec.call !== FIRST_PASS_CALL) continue;
    const choice = rec.choices?.[0];
    out.set(`${rec.task}\u0000${rec.sample}\u0000${rec.turn}`, { text: choice?.text ?? "", finishReason: choice?.finishReason });
  }
  return out;
}

/** The latest successful generate answer of each (task, sample, turn) in a run store. */
async function storedAnswers(store: RunStore): Promise<Map<string, Map<string, string[]>>> {
  await store.readManifest();
  const out = new Map<string, Map<string, string[]>>();
  for await (const rec of store.readResponses({ request: false })) {
    if (rec.stage !== "generate" || rec.status !== "ok" || rec.call === FIRST_PASS_CALL) continue;
    const state = compactTurn(rec, false);
    if (state.text === undefined) continue;
    let byTask = out.get(rec.task);
    if (!byTask) out.set(rec.task, (byTask = new Map()));
    let turns = byTask.get(rec.sample);
    if (!turns) byTask.set(rec.sample, (turns = []));
    turns[rec.turn - 1] = state.text;
  }
  return out;
}
