import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ChatMessage,
  createRegistry,
  type DataloaderV1,
  type JudgementRecord,
  type JudgeV2,
  type MetricV1,
  type PromptBuilderV1,
  type Registry,
  type Sample,
  type TaskSpec,
} from "@yardstick/core";
import { createOpenAICompatible } from "@yardstick/models";
import { type DevServer, type DevServerRequest, startDevServer, testJudge } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerTasks } from "./answer.js";
import { runEvaluation } from "./evaluate.js";
import { type KeptJudgement, resolveJudgements } from "./judgement-records.js";
import { judgeTasks } from "./judge-stage.js";
import { createRunManifest } from "./manifest.js";
import { createRunStats } from "./progress-stats.js";
import { openRequestCache } from "./request-cache.js";
import { RunStore } from "./run-store.js";
import { scoreStore } from "./score-store.js";

// The judge stage end to end: a generated run judged by a second model through the dev server, with
// the same run store, cache, resume and fail-fast as generation.

const SAMPLES = 6;
const loader: DataloaderV1 = {
  specVersion: "v1",
  id: "rows",
  async *load() {
    for (let i = 0; i < SAMPLES; i++) yield { id: `s${i}`, prompts: [{ q: `question ${i}` }], label: i % 2 === 0 ? "yes" : "no", raw: { n: i } } satisfies Sample;
  },
};
const builder: PromptBuilderV1 = {
  specVersion: "v1",
  id: "ask",
  build: ({ sample }) => [{ role: "user", content: `Q: ${String(sample.prompts[0]?.q)}` }],
};

const lastUser = (messages: ChatMessage[] | undefined): string => String(messages?.filter((m) => m.role === "user").at(-1)?.content ?? "");

/**
 * A small grading judge: call "correct" asks whether the answer holds the reference; with
 * `pairwise`, call "vs-baseline" shows the baseline run's answer too. The reply must carry
 * `<grade>PASS|FAIL</grade>`; one retry asks to fix a reply without it.
 */
const gradeJudge: JudgeV2 = {
  specVersion: "v2",
  id: "grade",
  buildRequests(sample, answers, options) {
    if (options.none) return [];
    const mine = answers.find((a) => a.run === undefined)!;
    const prompt = lastUser(mine.request?.messages);
    const requests = [
      { id: "correct", request: { kind: "chat" as const, messages: [{ role: "user" as const, content: `GRADE ref=${String(sample.label)} answer=${mine.text} prompt=${prompt}` }], params: {} } },
    ];
    if (options.pairwise) {
      const base = answers.find((a) => a.run === "baseline");
      if (!base) throw new Error(`no baseline answer for ${sample.id}`);
      requests.push({ id: "vs-baseline", request: { kind: "chat", messages: [{ role: "user", content: `GRADE ref=${String(sample.label)} answer=${base.text} prompt=${prompt}` }], params: {} } });
    }
    return requests;
  },
  parse(response) {
    const m = /<grade>(PASS|FAIL)<\/grade>/.exec(response.text);
    return m ? { label: m[1]!, score: m[1] === "PASS" ? 1 : 0 } : { error: `no <grade> tag in "${response.text}"` };
  },
  retryRequest(request, response) {
    if (request.request.kind !== "chat") return undefined;
    const messages: ChatMessage[] = [...request.request.messages, { role: "assistant", content: response.text }, { role: "user", content: "FIX: reply with <grade>PASS</grade> or <grade>FAIL</grade>" }];
    return { id: request.id, request: { ...request.request, messages } };
  },
};

/** Pass rate of call "correct"; remembers the judgements it was given. */
let seen: { sampleId: string; error?: string; judgements?: readonly JudgementRecord[] }[] = [];
const passRate: MetricV1 = {
  specVersion: "v1",
  id: "pass-rate",
  compute(inputs) {
    if (seen.length === 0) for (const x of inputs) seen.push({ sampleId: x.sampleId, ...(x.error ? { error: x.error } : {}), judgements: x.judgements });
    const perSample = inputs.flatMap((x) => {
      const j = x.judgements?.find((r) => r.call === "correct")?.judgement;
      return j?.score === undefined ? [] : [{ sampleId: x.sampleId, scores: { pass: j.score } }];
    });
    return { scores: { pass_rate: perSample.length ? (100 * perSample.reduce((a, s) => a + s.scores.pass!, 0)) / perSample.length : 0 }, perSample };
  },
};

const task = (options: Record<string, unknown> = {}): TaskSpec => ({
  key: "graded/en",
  name: "graded",
  language: "en",
  competency: "qa",
  data: { id: "rows" },
  fewshot: 0,
  prompt: { id: "ask" },
  mode: "generate",
  endpoint: "chat",
  generation: {},
  postprocessors: [],
  metrics: [{ id: "pass-rate" }],
  judge: { id: "grade", options, generation: { temperature: 0 }, model: "judge" },
  mainScore: "pass_rate",
  errorResponses: "replace",
});

const registry: Registry = createRegistry({ dataloaders: { rows: loader }, promptBuilders: { ask: builder }, metrics: { "pass-rate": passRate }, judges: { grade: gradeJudge } });

// What the dev server does with judge prompts, changed by each test.
const behaviour = { garbleFirst: new Set<string>(), fail: new Set<string>(), onJudge: (_text: string) => {} };
let judgePrompts: string[] = [];

function policy(req: DevServerRequest): string {
  const text = req.lastUserText;
  if (req.model === "judge" || text.startsWith("FIX:")) {
    const all = (req.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
    judgePrompts.push(all);
    behaviour.onJudge(all);
    const sample = /question (\d+)/.exec(all)?.[1];
    if (sample !== undefined && behaviour.fail.has(`s${sample}`)) throw new Error("judge unavailable");
    if (sample !== undefined && behaviour.garbleFirst.has(`s${sample}`) && !text.startsWith("FIX:")) return "I think it passes.";
    const ref = /ref=(\w+)/.exec(all)?.[1];
    const answer = /answer=Answer: (\w+)/.exec(all)?.[1];
    return `Reasoning first. <grade>${ref === answer ? "PASS" : "FAIL"}</grade>`;
  }
  return req.model === "baseline" ? "Answer: no" : "Answer: yes";
}

let server: DevServer;
let root: string;
beforeAll(async () => {
  server = await startDevServer({ port: 0, policy });
  root = mkdtempSync(join(tmpdir(), "ys-judge-"));
});
afterAll(async () => {
  await server.close();
});

const chatRequests = (): number => server.stats().requests["/v1/chat/completions"] ?? 0;
const model = (id: string) => createOpenAICompatible({ modelId: id, baseURLs: [`${server.url}/v1`], maxAttempts: 1 });
const manifestOf = (t: TaskSpec) =>
  createRunManifest({ tasks: [t], model: { provider: "p", modelId: "gen", identity: "gen" }, judgeModel: { provider: "p", modelId: "judge", identity: "judge" }, options: {} });

function reset(): void {
  behaviour.garbleFirst = new Set();
  behaviour.fail = new Set();
  behaviour.onJudge = () => {};
  judgePrompts = [];
  seen = [];
}

/** A baseline run: another model's answers to the same task, in a store of its own (returned unopened). */
async function baselineRun(dir: string): Promise<RunStore> {
  const baseModel = model("baseline");
  const baseStore = new RunStore(dir);
  await baseStore.open(createRunManifest({ tasks: [task()], model: { provider: "p", modelId: "baseline", identity: "baseline" }, options: {} }));
  await answerTasks({ tasks: [task()], registry, model: baseModel, store: baseStore });
  await baseStore.close();
  await baseModel.close();
  return new RunStore(dir);
}

function judgeRecords(dir: string): Record<string, unknown>[] {
  return readFileSync(join(dir, "responses.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.stage === "judge");
}

async function run(dir: string, t: TaskSpec, more: { signal?: AbortSignal; cache?: ReturnType<typeof openRequestCache>; baselineStore?: RunStore } = {}) {
  const gen = model("gen");
  const judge = model("judge");
  const store = new RunStore(dir);
  await store.open(manifestOf(t));
  try {
    return await runEvaluation({
      tasks: [t],
      registry,
      model: gen,
      store,
      concurrency: 1,
      ...(more.cache ? { cache: more.cache } : {}),
      ...(more.signal ? { signal: more.signal } : {}),
      judge: { model: judge, modelIdentity: "judge", ...(more.baselineStore ? { baselineStore: more.baselineStore } : {}) },
    });
  } finally {
    await store.close();
    await gen.close();
    await judge.close();
  }
}

describe("judge stage", () => {
  it("writes judge records under their call ids, hands metrics the judgements, and re-scores without a request", async () => {
    reset();
    const dir = join(root, "plain");
    const before = chatRequests();
    const r = await run(dir, task());
    expect(chatRequests() - before).toBe(2 * SAMPLES); // one answer and one judge call per sample
    expect(r.judging[0]).toMatchObject({ key: "graded/en", samples: SAMPLES, errors: 0, sent: SAMPLES });
    // The model always says "yes": right on the even samples.
    expect(r.tasks[0]?.main).toBe(50);
    const records = judgeRecords(dir);
    expect(records).toHaveLength(SAMPLES);
    for (const rec of records) {
      expect(rec).toMatchObject({ stage: "judge", call: "correct", turn: 1, status: "ok", cached: false });
      expect((rec.judgement as { data: Record<string, unknown> }).data.requestIndex).toBe(0);
      // The request as sent is stored, with the config's judge generation parameters.
      expect((rec.request as { params: Record<string, unknown> }).params).toEqual({ temperature: 0 });
    }
    // The judge saw the prompt as sent, from the stored generate request.
    expect(judgePrompts.every((p) => /prompt=Q: question \d/.test(p))).toBe(true);
    const s0 = seen.find((x) => x.sampleId === "s0");
    expect(s0?.judgements).toEqual([{ stage: "judge", call: "correct", judgement: { label: "PASS", score: 1, data: { requestIndex: 0 } } }]);

    const results = readFileSync(join(dir, "results.json"), "utf8");
    const mid = chatRequests();
    seen = [];
    const store = new RunStore(dir);
    const scored = await scoreStore({ store, registry });
    expect(chatRequests()).toBe(mid);
    expect(scored.tasks[0]?.main).toBe(50);
    expect(seen).toHaveLength(SAMPLES);
    expect(readFileSync(join(dir, "results.json"), "utf8")).toBe(results);
  });

  it("resumes a stopped judge stage: only the missing judge calls are sent", async () => {
    reset();
    const dir = join(root, "resume");
    const stop = new AbortController();
    let calls = 0;
    behaviour.onJudge = () => {
      if (++calls === 2) stop.abort(); // Ctrl-C during the second judge call
    };
    const first = await run(dir, task(), { signal: stop.signal });
    expect(first.aborted).toBe(true);
    // The first call was stored; the one in flight was cut and stored as interrupted.
    const stored = judgeRecords(dir);
    expect(stored.map((r) => r.status)).toEqual(["ok", "error"]);
    expect((stored[1]!.error as { message: string }).message).toMatch(/interrupted/);
    behaviour.onJudge = () => {};
    const before = chatRequests();
    const second = await run(dir, task());
    expect(second.aborted).toBe(false);
    expect(chatRequests() - before).toBe(SAMPLES - 1);
    expect(second.judging[0]).toMatchObject({ fromStore: 1, sent: SAMPLES - 1 });
    expect(second.tasks[0]).toMatchObject({ main: 50, samples: SAMPLES, unanswered: 0 });
    // A stored judge record is reused only for the same key: another judge identity asks again.
    const store = new RunStore(dir);
    await store.open(manifestOf(task()));
    const judge = model("judge");
    const other = await judgeTasks({ tasks: [task()], registry, model: judge, modelIdentity: "judge-v2", store });
    await store.close();
    await judge.close();
    expect(other.tasks[0]).toMatchObject({ fromStore: 0, sent: SAMPLES });
  });

  it("stops within a second while judge calls hang, recording them as interrupted", async () => {
    reset();
    const dir = join(root, "hang");
    const hanging = await startDevServer({ port: 0, policy, faults: { rateHang: 1 } });
    const gen = model("gen");
    const judge = createOpenAICompatible({ modelId: "judge", baseURLs: [`${hanging.url}/v1`], maxAttempts: 1 });
    const store = new RunStore(dir);
    await store.open(manifestOf(task()));
    const stop = new AbortController();
    try {
      const stats = createRunStats();
      const running = runEvaluation({ tasks: [task()], registry, model: gen, store, concurrency: 4, signal: stop.signal, progress: stats, judge: { model: judge, modelIdentity: "judge" } });
      const deadline = Date.now() + 10_000;
      while ((hanging.stats().faults.hang ?? 0) < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(hanging.stats().faults.hang ?? 0).toBe(4); // four judge calls hang at the server
      const abortedAt = performance.now();
      stop.abort();
      const r = await running;
      expect(performance.now() - abortedAt).toBeLessThan(1000);
      expect(r.aborted).toBe(true);
      const stored = judgeRecords(dir);
      expect(stored).toHaveLength(4);
      for (const rec of stored) expect((rec.error as { message: string }).message).toMatch(/interrupted/);
      // The samples whose judge calls were cut are not judged, and the judge task did not finish:
      // only the generate stage's samples and task are done.
      expect(r.judging[0]).toMatchObject({ samples: 0, errors: 0, sent: 4 });
      const session = stats.session(true);
      expect(session.samples.done).toBe(SAMPLES);
      expect(session.tasks).toEqual({ planned: 2, done: 1 });
    } finally {
      await store.close();
      await gen.close();
      await judge.close();
      await hanging.close();
    }
  });

  it("sends a reply that does not parse back once as <id>#retry and keeps the retry's judgement", async () => {
    reset();
    behaviour.garbleFirst = new Set(["s2"]);
    const dir = join(root, "retry");
    const before = chatRequests();
    const r = await run(dir, task());
    expect(chatRequests() - before).toBe(2 * SAMPLES + 1);
    expect(r.tasks[0]).toMatchObject({ main: 50, errors: 0 });
    const calls = judgeRecords(dir).filter((rec) => rec.sample === "s2");
    expect(calls.map((c) => c.call)).toEqual(["correct", "correct#retry"]);
    expect((calls[0]!.judgement as { error?: string }).error).toContain("no <grade> tag");
    expect(seen.find((x) => x.sampleId === "s2")?.judgements).toEqual([{ stage: "judge", call: "correct", judgement: { label: "PASS", score: 1, data: { requestIndex: 0 } } }]);
    // Resumed: both records are kept (same keys), nothing is sent.
    const again = chatRequests();
    const r2 = await run(dir, task());
    expect(chatRequests()).toBe(again);
    expect(r2.judging[0]).toMatchObject({ fromStore: SAMPLES + 1, sent: 0 });
  });

  it("counts a failed judge call as an error of its sample, and a rerun asks only that call again", async () => {
    reset();
    behaviour.fail = new Set(["s1"]);
    const dir = join(root, "failed");
    const r = await run(dir, task());
    expect(r.judging[0]).toMatchObject({ errors: 1 });
    expect(r.tasks[0]).toMatchObject({ samples: SAMPLES, errors: 1 });
    const s1 = seen.find((x) => x.sampleId === "s1")?.judgements?.[0]?.judgement;
    expect(s1?.error).toMatch(/^the judge call failed: .*judge unavailable/);
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
    expect(results.meta.tasks["graded/en"].errors).toBe(1);

    behaviour.fail = new Set();
    const before = chatRequests();
    const r2 = await run(dir, task());
    expect(chatRequests() - before).toBe(1);
    expect(r2.tasks[0]).toMatchObject({ errors: 0, main: 50 });
  });

  it("gives a generate answer that failed no judge call; its metric input says error", async () => {
    reset();
    const dir = join(root, "gen-failed");
    const t = task();
    const manifest = manifestOf(t);
    // Generate against a server that is gone: every answer fails (fail-fast off).
    const gone = createOpenAICompatible({ modelId: "gen", baseURLs: ["http://127.0.0.1:9/v1"], maxAttempts: 1 });
    const store = new RunStore(dir);
    await store.open(manifest);
    await answerTasks({ tasks: [t], registry, model: gone, store, failFastAfter: 0 });
    const judge = model("judge");
    const before = chatRequests();
    const judged = await judgeTasks({ tasks: [t], registry, model: judge, store });
    await store.close();
    await judge.close();
    await gone.close();
    expect(chatRequests()).toBe(before);
    expect(judged.tasks[0]).toMatchObject({ samples: 0, sent: 0 });
    const scored = await scoreStore({ store: new RunStore(dir), registry });
    expect(scored.tasks[0]).toMatchObject({ samples: SAMPLES, errors: SAMPLES, unanswered: 0 });
    expect(seen.every((x) => x.error !== undefined && x.judgements?.length === 0)).toBe(true);
  });

  it("passes a baseline run's answers to the judge (run: baseline), through the cache on a rerun", async () => {
    reset();
    const baselineDir = join(root, "baseline");
    await baselineRun(baselineDir);

    const cache = openRequestCache({ path: join(root, "cache.sqlite") });
    try {
      const t = task({ pairwise: true });
      const r = await run(join(root, "pairwise"), t, { cache, baselineStore: new RunStore(baselineDir) });
      expect(r.judging[0]).toMatchObject({ samples: SAMPLES, errors: 0, sent: 2 * SAMPLES });
      const vs = judgeRecords(join(root, "pairwise")).filter((rec) => rec.call === "vs-baseline");
      expect(vs).toHaveLength(SAMPLES);
      expect(judgePrompts.filter((p) => p.includes("answer=Answer: no"))).toHaveLength(SAMPLES);
      // The metric sees both calls in the judge's request order; the baseline ("no") is right on odd samples.
      const s1 = seen.find((x) => x.sampleId === "s1")?.judgements;
      expect(s1?.map((j) => [j.call, j.judgement.label])).toEqual([
        ["correct", "FAIL"],
        ["vs-baseline", "PASS"],
      ]);
      // Another store, same requests: every judge answer comes from the cache.
      const before = chatRequests();
      const again = await run(join(root, "pairwise-2"), t, { cache, baselineStore: new RunStore(baselineDir) });
      expect(chatRequests()).toBe(before);
      expect(again.judging[0]).toMatchObject({ fromCache: 2 * SAMPLES, sent: 0 });
      expect(judgeRecords(join(root, "pairwise-2")).every((rec) => rec.cached === true)).toBe(true);
    } finally {
      cache.close();
    }
  });
});

describe("judge stage failures", () => {
  it("records a judge that cannot build its requests as an error of the sample (call \"\"), and goes on", async () => {
    reset();
    const dir = join(root, "no-baseline");
    // Pairwise without a baseline run: the judge throws for every sample.
    const r = await run(dir, task({ pairwise: true }));
    expect(r.judging[0]).toMatchObject({ samples: SAMPLES, errors: SAMPLES, sent: 0 });
    expect(r.tasks[0]).toMatchObject({ samples: SAMPLES, errors: SAMPLES });
    expect(judgeRecords(dir).every((rec) => rec.call === "" && rec.status === "error")).toBe(true);
    expect(seen[0]?.judgements?.[0]?.judgement.error).toBe("the judge could not build its requests: no baseline answer for s0");

    // With the baseline run given, the same store is judged in full: the failures are superseded.
    seen = [];
    const again = await run(dir, task({ pairwise: true }), { baselineStore: await baselineRun(join(root, "late-baseline")) });
    expect(again.judging[0]).toMatchObject({ samples: SAMPLES, errors: 0, sent: 2 * SAMPLES });
    expect(again.tasks[0]).toMatchObject({ samples: SAMPLES, errors: 0 });
    expect(seen[0]?.judgements?.map((j) => j.call)).toEqual(["correct", "vs-baseline"]);
  });

  it("marks a sample the judge asks nothing about as judged, with no judgements", async () => {
    reset();
    const r = await run(join(root, "no-requests"), task({ none: true }));
    expect(r.judging[0]).toMatchObject({ samples: SAMPLES, errors: 0, sent: 0 });
    expect(r.tasks[0]).toMatchObject({ samples: SAMPLES, unanswered: 0, errors: 0 });
    expect(seen.every((x) => x.judgements?.length === 0)).toBe(true);
  });

  it("stops the judge stage when its first calls all fail (a wrong judge URL), as generation does", async () => {
    reset();
    const dir = join(root, "judge-gone");
    const t = task();
    const gen = model("gen");
    const store = new RunStore(dir);
    await store.open(manifestOf(t));
    await answerTasks({ tasks: [t], registry, model: gen, store });
    const gone = createOpenAICompatible({ modelId: "judge", baseURLs: ["http://127.0.0.1:9/v1"], maxAttempts: 1 });
    const judged = judgeTasks({ tasks: [t], registry, model: gone, store, failFastAfter: 2, concurrency: 1 });
    await expect(judged).rejects.toThrow(/the first 2 requests all failed/);
    await store.close();
    await gen.close();
    await gone.close();
    expect(judgeRecords(dir).filter((rec) => rec.status === "error")).toHaveLength(2);
  });
});

describe("resolveJudgements", () => {
  const kept = (call: string, seq: number, judgement: KeptJudgement["judgement"], stage = "judge"): KeptJudgement => ({ stage, call, seq, judgement });
  it("keeps the latest record per call, orders judge calls by request index then labels, and applies a later retry", () => {
    const out = resolveJudgements([
      kept("b", 1, { label: "old", data: { requestIndex: 1 } }),
      kept("alice", 2, { label: "human" }, "label"),
      kept("a", 3, { error: "no tag", data: { requestIndex: 0 } }),
      kept("a#retry", 4, { label: "A", data: { requestIndex: 0 } }),
      kept("b", 5, { label: "new", data: { requestIndex: 1 } }),
      // A retry older than its call's latest reply does not count.
      kept("c#retry", 6, { label: "stale", data: { requestIndex: 2 } }),
      kept("c", 7, { error: "no tag again", data: { requestIndex: 2 } }),
    ]);
    expect(out.map((r) => [r.stage, r.call, r.judgement.label ?? r.judgement.error])).toEqual([
      ["judge", "a", "A"],
      ["judge", "b", "new"],
      ["judge", "c", "no tag again"],
      ["label", "alice", "human"],
    ]);
  });
});

// The test judge itself keeps the judge contract.
testJudge(gradeJudge, {
  cases: [
    {
      name: "one answer",
      sample: { id: "s0", prompts: [{ q: "question 0" }], label: "yes", raw: {} },
      answers: [{ stage: "generate", turn: 1, texts: ["Answer: yes"], text: "Answer: yes", request: { messages: [{ role: "user", content: "Q: question 0" }] } }],
      options: {},
      task: task(),
      expectedRequests: 1,
      replies: [
        { response: "<grade>PASS</grade>", expected: { score: 1, label: "PASS" } },
        { response: "it passes", expected: { error: true } },
      ],
    },
  ],
});
