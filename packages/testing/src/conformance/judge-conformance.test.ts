import { ConfigError, type JudgeV2, type Sample, type StoredAnswer, type TaskSpec } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import type { JudgeConformanceCases } from "./judge-checks.js";
import { checkJudgeConformance, testJudge } from "./test-judge.js";

const task: TaskSpec = {
  key: "t/en",
  name: "t",
  language: "en",
  competency: "",
  data: { id: "x" },
  fewshot: 0,
  prompt: { id: "p" },
  mode: "generate",
  endpoint: "chat",
  generation: {},
  postprocessors: [],
  metrics: [],
  mainScore: "score",
  errorResponses: "replace",
};
const sample: Sample = { id: "s1", prompts: [{ text: "What is 2+2?" }], label: "4", raw: {} };
const answers: StoredAnswer[] = [{ stage: "generate", turn: 1, texts: ["4"], text: "4" }];

/** A well-behaved judge: asks YES or NO, and only accepts an exact YES/NO reply. */
function createYesNo(): JudgeV2 {
  const check = (options: Record<string, unknown>) => {
    for (const key of Object.keys(options)) if (key !== "strict") throw new ConfigError(`judge yes-no: unknown option "${key}"`, { keyPath: [key] });
  };
  return {
    specVersion: "v2",
    id: "yes-no",
    checkOptions: check,
    buildRequests(s, a, options) {
      check(options);
      return [{ id: "q", request: { kind: "chat", messages: [{ role: "user", content: `Is "${a[0]?.text}" right for ${s.prompts[0]?.text}? YES or NO` }], params: {} } }];
    },
    parse(response) {
      const t = response.text.trim();
      return t === "YES" ? { label: "YES", score: 1 } : t === "NO" ? { label: "NO", score: 0 } : { error: "neither YES nor NO" };
    },
  };
}

const cases: JudgeConformanceCases = {
  cases: [{ sample, answers, options: {}, task, expectedRequests: 1, replies: [{ response: "YES", expected: { score: 1, label: "YES" } }, { response: "maybe", expected: { error: true } }] }],
  invalidOptions: [{ lenient: true }],
};

testJudge(createYesNo(), cases);

async function failures(judge: JudgeV2, c: JudgeConformanceCases = cases): Promise<string> {
  const report = await checkJudgeConformance(judge, c);
  return report.failures.map((f) => `${f.check}: ${f.message}`).join("\n");
}

describe("checkJudgeConformance", () => {
  it("passes a conforming judge", async () => {
    expect(await failures(createYesNo())).toBe("");
  });

  it("reports duplicate request ids", async () => {
    const j = createYesNo();
    const bad: JudgeV2 = { ...j, buildRequests: (...args) => [...j.buildRequests(...args), ...j.buildRequests(...args)] };
    expect(await failures(bad)).toMatch(/request id "q" is used twice/);
  });

  it("reports a parse that throws on garbage", async () => {
    const bad: JudgeV2 = {
      ...createYesNo(),
      parse(response) {
        if (response.text === "") throw new TypeError("empty");
        return { label: "x" };
      },
    };
    expect(await failures(bad)).toMatch(/parse threw TypeError: empty/);
  });

  it("reports requests that change between calls", async () => {
    let n = 0;
    const j = createYesNo();
    const bad: JudgeV2 = { ...j, buildRequests: (...args) => j.buildRequests(...args).map((r) => ({ ...r, id: `q${n++}` })) };
    expect(await failures(bad)).toMatch(/two calls of buildRequests gave different requests/);
  });

  it("reports options that checkOptions accepts but should refuse", async () => {
    const bad: JudgeV2 = { ...createYesNo(), checkOptions: () => {} };
    expect(await failures(bad)).toMatch(/checkOptions accepted \{"lenient":true\}/);
  });

  it("reports a retry offered for a judgement without an error", async () => {
    const j = createYesNo();
    const bad: JudgeV2 = { ...j, parse: () => ({ score: 1 }), retryRequest: (request) => request };
    expect(await failures(bad)).toMatch(/retryRequest offered a retry for a judgement without an error/);
  });
});
