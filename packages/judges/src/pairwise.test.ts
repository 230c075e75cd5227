import { beforeAll, describe, expect, it } from "vitest";
import { corpusTask, fixtureSamples, judgeWith, metricInput, storedAnswers, systemText, userText } from "./judge-kit.test-helper.js";
import { combineOrders, pairwiseJudgeMetric } from "./metrics/pairwise-metric.js";
import { pairwiseJudge } from "./pairwise-judge.js";
import type { MetricInput, TaskSpec } from "@yardstick/core";

const samples = fixtureSamples("mt-bench.jsonl");
const sample = (id: string) => samples.find((s) => s.id === id)!;
const modelAnswers = storedAnswers(["MODEL-TURN-1", "MODEL-TURN-2"]);

/**
 * The judge's replies per sample and call (spec §6). AB = the model is assistant A; BA = it is B.
 * Combined verdicts per turn, worked out by hand:
 *   q1 writing:   t1 A/B → win, win → WIN;      t2 A/A → win, lose → TIE (disagree)
 *   q2 math:      t1 C/B → tie, win → TIE;      t2 B/A → lose, lose → LOSE
 *   q3 writing:   t1 two labels → ERROR;        t2 no label → ERROR
 *   q4 reasoning: t1 A/B → WIN;                 t2 A (twice in one reply)/B → WIN
 * writing 4 turns: W1 T1 E2 → (1 + 0.5)/4 = 0.375; math: T1 L1 → 0.25; reasoning: W2 → 1.
 * win_rate = (W3 + 0.5·T2)/8 = 0.5; weighted_win_rate = 100 × (0.375 + 0.25 + 1)/3 = 54.1666…
 */
const REPLIES: Record<string, Record<string, string>> = {
  q1: { "turn1-AB": "A is better. [[A]]", "turn1-BA": "B is better. [[B]]", "turn2-AB": "[[A]]", "turn2-BA": "[[A]]" },
  q2: { "turn1-AB": "Equal. [[C]]", "turn1-BA": "[[B]]", "turn2-AB": "[[B]]", "turn2-BA": "[[A]]" },
  q3: { "turn1-AB": "Either [[A]] or [[B]]", "turn1-BA": "[[B]]", "turn2-AB": "I cannot decide.", "turn2-BA": "[[B]]" },
  q4: { "turn1-AB": "[[A]]", "turn1-BA": "[[B]]", "turn2-AB": "[[A]] ... so [[A]]", "turn2-BA": "[[B]]" },
};

let task: TaskSpec;
let inputs: MetricInput[];
beforeAll(async () => {
  task = await corpusTask("mt-bench/en");
  inputs = samples.map((s) => metricInput(s, judgeWith(pairwiseJudge, task, s, modelAnswers, (id) => REPLIES[s.id]![id]!)));
});

describe("seahelm-pairwise judge", () => {
  it("judges every turn in both orders, the model as A then as B", async () => {
    const requests = pairwiseJudge.buildRequests(sample("q1"), modelAnswers, task.judge!.options!, { task });
    expect(requests.map((r) => r.id)).toEqual(["turn1-AB", "turn1-BA", "turn2-AB", "turn2-BA"]);
    const [ab, ba] = requests.map((r) => userText(r.request as never));
    expect(ab).toContain("[The Start of Assistant A's Answer]\nMODEL-TURN-1\n[The End of Assistant A's Answer]");
    expect(ab).toContain("[The Start of Assistant B's Answer]\nSoft rain on the roof\n");
    expect(ba).toContain("[The Start of Assistant A's Answer]\nSoft rain on the roof\n");
    expect(systemText(requests[0]!.request as never)).toContain('"[[A]]" if assistant A is better, "[[B]]" if assistant B is better, and "[[C]]" for a tie');
    // Turn 2 shows the whole conversation.
    const t2 = userText(requests[2]!.request as never);
    expect(t2).toContain("### User:\nNow make it about snow.\n\n### Assistant A:\nMODEL-TURN-2");
  });

  it("adds the reference answers for math and reasoning only", () => {
    const math = pairwiseJudge.buildRequests(sample("q2"), modelAnswers, task.judge!.options!, { task });
    expect(userText(math[0]!.request as never)).toContain("[The Start of Reference Answer]\n156\n[The End of Reference Answer]");
    expect(userText(math[2]!.request as never)).toContain("### Reference answer:\n168");
    const writing = pairwiseJudge.buildRequests(sample("q1"), modelAnswers, task.judge!.options!, { task });
    expect(userText(writing[0]!.request as never)).not.toContain("Reference");
  });

  it("takes the baseline from a baseline run when one is given", () => {
    const answers = [...modelAnswers, ...storedAnswers(["RUN-BASE-1", "RUN-BASE-2"], "baseline")];
    const requests = pairwiseJudge.buildRequests(sample("q1"), answers, task.judge!.options!, { task });
    expect(userText(requests[0]!.request as never)).toContain("[The Start of Assistant B's Answer]\nRUN-BASE-1\n");
  });

  it("refuses a sample without a baseline answer, saying why (a plain Error: the judge stage records it)", () => {
    const row = { ...sample("q1"), raw: { ...sample("q1").raw, baselines: {} } };
    const build = () => pairwiseJudge.buildRequests(row, modelAnswers, task.judge!.options!, { task });
    expect(build).toThrow(/sample q1: no baseline answer for turn 1: the row has no baselines\["gpt-4\.1-2025-04-14"\]\[0\]/);
  });

  it("parses verdicts strictly: exactly one label, from the model's side", () => {
    const judgements = Object.fromEntries(inputs.map((i) => [i.sampleId, Object.fromEntries(i.judgements!.map((j) => [j.call, j.judgement]))]));
    expect(judgements.q1!["turn1-AB"]).toMatchObject({ label: "win", score: 1, rationale: "A is better.", data: { verdict: "A", order: "AB", turn: 1 } });
    expect(judgements.q1!["turn1-BA"]).toMatchObject({ label: "win", data: { verdict: "B", order: "BA" } });
    expect(judgements.q2!["turn1-AB"]).toMatchObject({ label: "tie", score: 0.5 });
    expect(judgements.q3!["turn1-AB"]!.error).toMatch(/several verdict labels \(A, B\)/);
    expect(judgements.q3!["turn2-AB"]!.error).toMatch(/no verdict label/);
    expect(judgements.q4!["turn2-AB"]).toMatchObject({ label: "win" });
  });

  it("scores the hand-computed win rates, errors counted as 0 and reported", async () => {
    const result = await pairwiseJudgeMetric.compute(inputs, {}, { task });
    expect(result.scores.win_rate).toBeCloseTo(0.5, 12);
    expect(result.scores.weighted_win_rate).toBeCloseTo((100 * (0.375 + 0.25 + 1)) / 3, 10);
    expect(result.scores).toMatchObject({ wins: 3, ties: 2, losses: 1, judge_errors: 2, order_disagreements: 2 });
    expect(result.details?.categories).toEqual({
      math: { win_rate: 0.25, n: 2, wins: 0, ties: 1, losses: 1, errors: 0 },
      reasoning: { win_rate: 1, n: 2, wins: 2, ties: 0, losses: 0, errors: 0 },
      writing: { win_rate: 0.375, n: 4, wins: 1, ties: 1, losses: 0, errors: 2 },
    });
    expect(result.perSample.find((p) => p.sampleId === "q3")!.scores).toEqual({ win_rate: 0, weighted_win_rate: 0, judge_errors: 2 });
    expect(result.perSample.find((p) => p.sampleId === "q1")!.scores.win_rate).toBe(0.75);
    const errors = result.details?.errors as { sampleId: string; error: string }[];
    expect(errors.map((e) => e.sampleId)).toEqual(["q3", "q3"]);
  });

  it("reports a sample whose requests could not be built with the judge stage's reason", async () => {
    // At scoring time the engine's samples carry no prompts: the task's turn count says how many turns were due.
    expect(task.turns).toBe(2);
    const failed = metricInput({ ...sample("q1"), prompts: [] }, [{ stage: "judge", call: "", judgement: { error: "the judge could not build its requests: no baseline" } }]);
    const result = await pairwiseJudgeMetric.compute([failed], {}, { task });
    expect(result.scores).toMatchObject({ judge_errors: 2, win_rate: 0 });
    expect((result.details!.errors as { error: string }[])[0]!.error).toMatch(/no baseline/);
  });

  it("combines the two orders by SEA-HELM's rules, an error never becoming a tie", () => {
    expect(combineOrders({ outcome: "win" }, { outcome: "win" }, true).verdict).toBe("win");
    expect(combineOrders({ outcome: "lose" }, { outcome: "lose" }, true).verdict).toBe("lose");
    expect(combineOrders({ outcome: "tie" }, { outcome: "tie" }, true).verdict).toBe("tie");
    expect(combineOrders({ outcome: "win" }, { outcome: "tie" }, true).verdict).toBe("tie");
    expect(combineOrders({ outcome: "win" }, { outcome: "lose" }, true)).toEqual({ verdict: "tie", disagreement: true });
    expect(combineOrders({ outcome: "win" }, { error: "bad" }, true).verdict).toBe("error");
    expect(combineOrders({ outcome: "win" }, undefined, true).verdict).toBe("error");
    expect(combineOrders({ outcome: "win" }, { outcome: "lose" }, false)).toMatchObject({ verdict: "error", disagreement: true });
  });

  it("without ties, a [[C]] is no verdict", async () => {
    const noTies = { ...task.judge!.options!, ties_allowed: false };
    const [request] = pairwiseJudge.buildRequests(sample("q1"), modelAnswers, noTies, { task });
    const j = pairwiseJudge.parse({ text: "[[C]]", finishReason: "stop", choices: [{ text: "[[C]]", finishReason: "stop" }] }, noTies, { sample: sample("q1"), task, request: request! });
    expect(j.error).toMatch(/no verdict label/);
  });
});
