import type { MetricInput, TaskSpec } from "@yardstick/core";
import { beforeAll, describe, expect, it } from "vitest";
import { criteriaJudge } from "./criteria-judge.js";
import { healthbenchJudge } from "./healthbench-judge.js";
import { corpusTask, fixtureSamples, judgeWith, metricInput, storedAnswers, systemText, userText } from "./judge-kit.test-helper.js";
import { criteriaJudgeMetric, healthbenchJudgeMetric, lindseaJudgeMetric, mtBenchJudgeMetric } from "./metrics/criteria-metrics.js";

const classified = (cls: string) => `<reflection>Checked the criterion.</reflection><classification>${cls}</classification>`;
const byIndex = (replies: readonly string[]) => (id: string) => replies[Number(/criterion-(\d+)$/.exec(id)![1])]!;

describe("seahelm-criteria judge (kalahi-judge, CriteriaJudgeMetric)", () => {
  let task: TaskSpec;
  let inputs: MetricInput[];
  const samples = fixtureSamples("kalahi.jsonl");
  beforeAll(async () => {
    task = await corpusTask("kalahi-judge/tl");
    // k1: EXACTLY 1, MODERATELY 0.5, UNMET 0 → 0.5.  k2: MAJORLY 0.75, an unknown class (error, 0) → 0.375.
    const replies: Record<string, string[]> = {
      k1: [classified("CLASS_EXACTLY_MET"), classified("CLASS_MODERATELY_MET"), classified("CLASS_UNMET")],
      k2: [classified("CLASS_MAJORLY_MET"), classified("CLASS_BOGUS")],
    };
    inputs = samples.map((s) => metricInput(s, judgeWith(criteriaJudge, task, s, storedAnswers(["Magalang na sagot"]), byIndex(replies[s.id]!))));
  });

  it("builds one call per criterion with the task prompt, the response and the criterion", () => {
    const requests = criteriaJudge.buildRequests(samples[0]!, storedAnswers(["Magalang na sagot"]), task.judge!.options!, { task });
    expect(requests.map((r) => r.id)).toEqual(["criterion-0", "criterion-1", "criterion-2"]);
    const user = userText(requests[1]!.request as never);
    expect(user).toContain("<SITUATION>\nMy aunt asks when I will marry.\n</SITUATION>");
    expect(user).toContain("[Assistant (generated)]\nMagalang na sagot\n</TEXT>");
    expect(user).toContain("<CRITERION>\nOffers more than one option\n</CRITERION>");
    expect(systemText(requests[0]!.request as never)).toMatch(/^You are an expert Filipino culture evaluator/);
  });

  it("maps classes through classifications; an unknown class is an error with the class kept", () => {
    const k2 = inputs[1]!.judgements!;
    expect(k2[0]!.judgement).toMatchObject({ label: "CLASS_MAJORLY_MET", score: 0.75, rationale: "Checked the criterion.", data: { criterion: 0 } });
    expect(k2[1]!.judgement).toMatchObject({ label: "CLASS_BOGUS" });
    expect(k2[1]!.judgement.error).toMatch(/unknown class "CLASS_BOGUS"/);
  });

  it("scores the hand-computed average_criteria_score with per-category means and the error counted", async () => {
    const result = await criteriaJudgeMetric.compute(inputs, {});
    expect(result.scores.average_criteria_score).toBeCloseTo(43.75, 12);
    expect(result.scores).toMatchObject({ judge_errors: 1, samples_with_errors: 1 });
    expect(result.details?.categories).toEqual({ family: { score: 50, n: 1 }, work: { score: 37.5, n: 1 } });
    expect(result.perSample.map((p) => p.scores.average_criteria_score)).toEqual([0.5, 0.375]);
  });

  it("adds the reference block for criteria with include_reference", () => {
    const options = { classifications: { CLASS_MET: 1 }, judge_prompts: { criteria_prompt: "{prompt}|{response}|{keyPointText}|{reference_text_block}", reference_prompt: "REF: {reference}" } };
    const row = { ...samples[0]!, raw: { ...samples[0]!.raw, criteria: [{ criterion: "a" }, { criterion: "b", include_reference: true }] } };
    const requests = criteriaJudge.buildRequests(row, storedAnswers(["ans"]), options, { task });
    expect(userText(requests[0]!.request as never)).toMatch(/\|a\|$/);
    expect(userText(requests[1]!.request as never)).toMatch(/\|b\|\nREF: Answer politely, showing respect\.\n$/);
  });
});

describe("seahelm-lindsea-judge (syntax-criteria): severity weighting and the criterion order", () => {
  let task: TaskSpec;
  let inputs: MetricInput[];
  // l1 has 12 criteria (indices 0–11): generic MET, UNMET; high MET; medium UNMET; six low MET; high UNMET, UNMET.
  const L1 = ["CLASS_MET", "CLASS_UNMET", "CLASS_MET", "CLASS_UNMET", "CLASS_MET", "CLASS_MET", "CLASS_MET", "CLASS_MET", "CLASS_MET", "CLASS_MET", "CLASS_UNMET", "CLASS_UNMET"];
  // l2: generic MET; high MET; low UNMET → generic 1, criteria 10/11.
  const L2 = ["CLASS_MET", "CLASS_MET", "CLASS_UNMET"];
  beforeAll(async () => {
    task = await corpusTask("syntax-criteria/id");
    const replies: Record<string, string[]> = { l1: L1.map(classified), l2: L2.map(classified) };
    inputs = fixtureSamples("syntax-criteria.jsonl").map((s) => metricInput(s, judgeWith(criteriaJudge, task, s, storedAnswers(["Buku itu dibaca oleh Ani."]), byIndex(replies[s.id]!))));
  });

  it("pairs judgements with criteria by index (fixed): generic 0.5 × criteria 16/41", async () => {
    // Specific weights: high 10, medium 5, low 1 → Σw = 10 + 5 + 6 + 10 + 10 = 41; met: 10 (high) + 6 (low) = 16.
    const result = await lindseaJudgeMetric.compute(inputs, {});
    const l1 = result.perSample[0]!.scores;
    expect(l1.generic_score).toBe(0.5);
    expect(l1.criteria_score).toBeCloseTo(16 / 41, 12);
    expect(l1.average_criteria_score).toBeCloseTo(8 / 41, 12);
    expect(result.perSample[1]!.scores.average_criteria_score).toBeCloseTo(10 / 11, 12);
    expect(result.scores.average_criteria_score).toBeCloseTo((100 * (8 / 41 + 10 / 11)) / 2, 10);
    expect(result.details?.categories).toMatchObject({ passive: { n: 1 }, question: { n: 1 } });
  });

  it("reproduces upstream's string sort (criteria10 before criteria2) under compat.criteriaStringSort: 0.5 × 25/41", async () => {
    // Row position k gets the judgement of criteria[0, 1, 10, 11, 2, 3, …, 9][k]: met weights become 1 + 4 + 10 + 10 = 25.
    const result = await lindseaJudgeMetric.compute(inputs, { compat: { criteriaStringSort: true } });
    expect(result.perSample[0]!.scores.criteria_score).toBeCloseTo(25 / 41, 12);
    expect(result.perSample[0]!.scores.average_criteria_score).toBeCloseTo(12.5 / 41, 12);
    // Fewer than 11 criteria: the same either way.
    expect(result.perSample[1]!.scores.average_criteria_score).toBeCloseTo(10 / 11, 12);
  });

  it("records each criterion's severity in its judgement", () => {
    expect(inputs[0]!.judgements![10]!.judgement).toMatchObject({ label: "CLASS_UNMET", score: 0, data: { criterion: 10, severity: "high" } });
  });
});

describe("seahelm-mt-bench-judge: per-turn prompts and the mean of turn means", () => {
  let task: TaskSpec;
  const [row] = fixtureSamples("mt-bench-judge.jsonl");
  const answers = storedAnswers(["1. Read recipes. 2. Start simple. 3. Taste often.", "Read. Start. Taste."]);
  beforeAll(async () => {
    task = await corpusTask("mt-bench-judge/en");
  });

  it("shows turn 2 with turn 1's answer fixed", () => {
    const requests = criteriaJudge.buildRequests(row!, answers, task.judge!.options!, { task });
    expect(requests.map((r) => r.id)).toEqual(["turn1-criterion-0", "turn1-criterion-1", "turn2-criterion-2"]);
    const t2 = userText(requests[2]!.request as never);
    expect(t2).toContain(
      "<TRANSCRIPT>\n[User]\nGive me three tips for learning to cook.\n\n[Assistant (fixed)]\n1. Read recipes. 2. Start simple. 3. Taste often.\n\n[User]\nNow shorten them to one line each.\n</TRANSCRIPT>",
    );
    expect(t2).toContain("[Assistant (generated)]\nRead. Start. Taste.\n</TEXT>");
    expect(t2).toMatch(/^You are given a multi-turn conversation transcript/);
  });

  it("scores (mean(1, 0.25) + 0.75) / 2 = 68.75", async () => {
    const replies = [classified("CLASS_EXACTLY_MET"), classified("CLASS_SLIGHTLY_MET"), classified("CLASS_MAJORLY_MET")];
    const input = metricInput(row!, judgeWith(criteriaJudge, task, row!, answers, byIndex(replies)));
    const result = await mtBenchJudgeMetric.compute([input], {});
    expect(result.scores.average_criteria_score).toBeCloseTo(68.75, 12);
    expect(result.perSample[0]!.scores).toMatchObject({ turn1_score: 0.625, turn2_score: 0.75, judge_errors: 0 });
  });
});

describe("seahelm-healthbench judge: points, the floor at 0, and the criterion order", () => {
  let task: TaskSpec;
  let inputs: MetricInput[];
  const samples = fixtureSamples("healthbench.jsonl");
  const json = (met: boolean) => `Thinking it over.\n\`\`\`json\n{"explanation": "checked", "criteria_met": ${met}}\n\`\`\``;
  // h1 (12 items, points 5, -3, 4, 1×7, 10, -8): met T F T | T F T F T F T | F T.
  const H1 = [true, false, true, true, false, true, false, true, false, true, false, true];
  // h2 (points 3, -5): both met → 3 − 5 = −2, floored at 0.
  const H2 = [true, true];
  beforeAll(async () => {
    task = await corpusTask("healthbench/en");
    const replies: Record<string, string[]> = { h1: H1.map(json), h2: H2.map(json) };
    inputs = samples.map((s) => metricInput(s, judgeWith(healthbenchJudge, task, s, storedAnswers(["  Rest, drink water, and see a doctor if it persists.  "]), byIndex(replies[s.id]!))));
  });

  it("shows the conversation and the rubric item with its points", () => {
    const requests = healthbenchJudge.buildRequests(samples[0]!, storedAnswers([" Rest. "]), task.judge!.options!, { task });
    expect(requests).toHaveLength(12);
    expect(userText(requests[1]!.request as never)).toBe(
      "# Conversation\nuser: I have had a headache for three days. What should I do?\n\nAssistant: Rest.\n\n# Rubric item\n[-3] Recommends an unsafe dose",
    );
  });

  it("scores Σ(met·points)/Σ(positive points) by index: (5 + 4 + 4 − 8)/26 and max(0, −2)/3", async () => {
    const result = await healthbenchJudgeMetric.compute(inputs, {});
    expect(result.perSample[0]!.scores.average_criteria_score).toBeCloseTo(5 / 26, 12);
    expect(result.perSample[1]!.scores.average_criteria_score).toBe(0);
    expect(result.scores.average_criteria_score).toBeCloseTo((100 * (5 / 26)) / 2, 10);
    expect(Object.keys(result.details!.categories as object)).toEqual(["theme:communication", "theme:context_seeking"]);
  });

  it("reproduces upstream's misaligned points under compat.criteriaStringSort: 2/26", async () => {
    const result = await healthbenchJudgeMetric.compute(inputs, { compat: { criteriaStringSort: true } });
    expect(result.perSample[0]!.scores.average_criteria_score).toBeCloseTo(2 / 26, 12);
  });

  it("counts a reply without criteria_met as an error that scores 0, never silently", async () => {
    const broken = metricInput(samples[1]!, judgeWith(healthbenchJudge, task, samples[1]!, storedAnswers(["ok"]), (id) => (id === "criterion-0" ? "I think so." : json(false))));
    expect(broken.judgements![0]!.judgement.error).toMatch(/criteria_met/);
    const result = await healthbenchJudgeMetric.compute([broken], {});
    expect(result.scores).toMatchObject({ average_criteria_score: 0, judge_errors: 1 });
  });
});
