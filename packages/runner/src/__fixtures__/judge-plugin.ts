import { readFileSync } from "node:fs";
import { type ConfigDialectV1, ConfigError, type DataloaderV1, type JudgeV2, type MetricV1, type PromptBuilderV1, type TaskSpec } from "@yardstick/core";

// A plugin package for the judge-stage tests of `yardstick run`: a config dialect whose tasks have a
// judge (`*.judged.json`), their rows, a grading judge and its metric.

interface JudgedConfig {
  name: string;
  /** The judge model the config names (SEA-HELM's judge_model_name). */
  judgeModel?: string;
  judge?: string;
  judgeOptions?: Record<string, unknown>;
  rows: { id: string; q: string; label: string }[];
}

const dialect: ConfigDialectV1 = {
  specVersion: "v1",
  id: "judged-json",
  detect: (path) => path.endsWith(".judged.json"),
  async load(path) {
    const config = JSON.parse(readFileSync(path, "utf8")) as JudgedConfig;
    const task: TaskSpec = {
      key: `${config.name}/en`,
      name: config.name,
      language: "en",
      competency: "judged",
      source: { file: path, dialect: "judged-json" },
      data: { id: "inline-rows", options: { rows: config.rows } },
      fewshot: 0,
      prompt: { id: "plain-question" },
      mode: "generate",
      endpoint: "chat",
      generation: { maxTokens: 16 },
      postprocessors: [],
      metrics: [{ id: "pass-rate" }],
      judge: {
        id: config.judge ?? "grade",
        options: config.judgeOptions ?? {},
        generation: { temperature: 0 },
        ...(config.judgeModel ? { model: config.judgeModel } : {}),
      },
      mainScore: "pass_rate",
      errorResponses: "replace",
    };
    return [task];
  },
};

const rows: DataloaderV1 = {
  specVersion: "v1",
  id: "inline-rows",
  async *load(options) {
    for (const r of options.rows as JudgedConfig["rows"]) yield { id: r.id, prompts: [{ q: r.q }], label: r.label, raw: { id: r.id, label: r.label } };
  },
};

const question: PromptBuilderV1 = {
  specVersion: "v1",
  id: "plain-question",
  build: ({ sample }) => [{ role: "user", content: `Q: ${String(sample.prompts[0]?.q)}` }],
};

function checkGradeOptions(options: Record<string, unknown>): void {
  const unknown = Object.keys(options).filter((k) => k !== "pairwise");
  if (unknown.length > 0) throw new ConfigError(`judge "grade": unknown option ${unknown.join(", ")}`, { expected: "pairwise" });
}

/** Asks the judge model whether an answer states the reference; with `pairwise`, the baseline run's answer too. */
export const grade: JudgeV2 = {
  specVersion: "v2",
  id: "grade",
  checkOptions: checkGradeOptions,
  buildRequests(sample, answers, options) {
    checkGradeOptions(options);
    const ask = (id: string, text: string) => ({
      id,
      request: { kind: "chat" as const, messages: [{ role: "user" as const, content: `GRADE ref=${String(sample.label)} answer=${text}` }], params: {} },
    });
    const own = answers.find((a) => a.run === undefined)?.text ?? "";
    const requests = [ask("own", own)];
    const baseline = answers.find((a) => a.run === "baseline");
    if (options.pairwise && baseline) requests.push(ask("baseline", baseline.text));
    return requests;
  },
  parse(response) {
    const m = /<grade>(PASS|FAIL)<\/grade>/.exec(response.text);
    return m ? { label: m[1]!, score: m[1] === "PASS" ? 1 : 0 } : { error: `no <grade> in "${response.text}"` };
  },
};

/** 100 × the share of samples whose "own" call passed. */
const passRate: MetricV1 = {
  specVersion: "v1",
  id: "pass-rate",
  compute(inputs) {
    const perSample = inputs.map((x) => ({ sampleId: x.sampleId, scores: { pass: x.judgements?.find((j) => j.call === "own")?.judgement.score ?? 0 } }));
    const mean = perSample.length ? perSample.reduce((a, s) => a + s.scores.pass, 0) / perSample.length : 0;
    return { scores: { pass_rate: 100 * mean }, perSample };
  },
};

export const plugins = {
  dialects: { "judged-json": dialect },
  dataloaders: { "inline-rows": rows },
  promptBuilders: { "plain-question": question },
  judges: { grade },
  metrics: { "pass-rate": passRate },
};
