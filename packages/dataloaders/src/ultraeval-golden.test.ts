import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { createPythonTransformBridge, createUltraEvalPromptBuilder, createUltraEvalTransforms, pythonProblem } from "@yardstick/config";
import { ConfigError, type Sample, type TaskSpec } from "@yardstick/core";
import { ULTRAEVAL_TEXT_POSTS } from "@yardstick/postprocessors";
import { describe, expect, it } from "vitest";
import { createUltraEvalDataloader, loadUltraEval } from "./ultraeval-dataloader.js";

// Wired as the runner's composition root wires them.
const transforms = createUltraEvalTransforms({ postprocess: (name, text) => ULTRAEVAL_TEXT_POSTS[name](text) ?? "" });

// Golden prompts of upstream's construct_input (few-shot drawn with random.Random(1234)).
const SAMPLES = fileURLToPath(new URL("../../config/src/__fixtures__/ultraeval/data_samples/", import.meta.url));
const DATA_FILES: Record<string, string> = {
  mmlu: "synthetic_mmlu.jsonl",
  gsm8k: "synthetic_gsm8k.jsonl",
  "ax-b": "synthetic_ax-b.jsonl",
  hellaswag: "synthetic_hellaswag.jsonl",
  humaneval: "humaneval_issue17.jsonl",
};

interface Golden {
  task_name: string;
  transform: string;
  fewshot: number;
  description: string;
  data: Record<string, unknown>;
  prompt: { input: string; output: string | string[]; processed_output: unknown };
  loglikelihood_request_strings?: string[];
}

const goldens: Golden[] = readFileSync(path.join(SAMPLES, "golden_prompts.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Golden);

const groups = new Map<string, Golden[]>();
for (const g of goldens) {
  const key = `${g.task_name} ${g.fewshot}-shot`;
  groups.set(key, [...(groups.get(key) ?? []), g]);
}

function taskFor(g: Golden): TaskSpec {
  return {
    key: g.task_name,
    name: g.task_name,
    language: "",
    competency: "",
    data: { id: "ultraeval" },
    fewshot: g.fewshot,
    prompt: { id: "ultraeval" },
    mode: g.loglikelihood_request_strings ? "loglikelihood" : "generate",
    endpoint: "completion",
    generation: {},
    postprocessors: [],
    metrics: [],
    mainScore: "accuracy",
    errorResponses: "replace",
  };
}

describe("ultraeval prompts match upstream's golden_prompts.jsonl", () => {
  const builder = createUltraEvalPromptBuilder({ transforms });
  for (const [name, cases] of groups) {
    it(name, async () => {
      const first = cases[0]!;
      const file = path.join(SAMPLES, DATA_FILES[first.task_name.split("_")[0]!]!);
      const task = taskFor(first);
      const samples: Sample[] = [];
      for await (const s of loadUltraEval({ path: file, transform: first.transform, taskName: first.task_name }, { task }, { transforms })) samples.push(s);
      expect(samples).toHaveLength(cases.length);
      const options = { transform: first.transform, description: first.description, taskName: first.task_name };
      cases.forEach((g, i) => {
        const sample = samples[i]!;
        expect(sample.raw).toEqual(g.data);
        expect(Object.keys(sample.metadata?.targetScoresOrder ?? {}).length).toBe(Object.keys(g.data.target_scores as object).length);
        const input = { sample, task, examples: [], turn: 1, previousResponses: [] };
        expect(builder.build(input, options)).toBe(g.prompt.input);
        expect(sample.label).toEqual(g.prompt.processed_output);
        if (g.loglikelihood_request_strings) {
          const { context, continuations } = builder.buildChoices!(input, options);
          expect(continuations.map((c) => context + c)).toEqual(g.loglikelihood_request_strings);
        }
      });
    });
  }
});

describe("ultraeval rows", () => {
  it("keep target_scores in file order when the keys look like integers", async () => {
    const orders: unknown[] = [];
    for await (const s of loadUltraEval({ path: path.join(SAMPLES, "synthetic_mmlu.jsonl") }, {}, { transforms })) orders.push(s.metadata?.targetScoresOrder);
    expect(orders[2]).toEqual(["4", "3", "10", "2"]);
    expect(orders[3]).toEqual(["9", "15", "21", "7"]);
  });

  it("may lack target_scores (bbh-cot rows are {cot, input, answer})", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ys-bbh-cot-")), "navigate.jsonl");
    writeFileSync(file, `${JSON.stringify({ cot: "Q: ...\nA: Yes.", input: "Is it?", answer: ["Yes"] })}\n`);
    const samples: Sample[] = [];
    for await (const s of loadUltraEval({ path: file, transform: "datasets/bbh-cot/transform_gen_cot.py" }, {}, { transforms })) samples.push(s);
    expect(samples.map((s) => [s.label, s.metadata?.targetScoresOrder])).toEqual([[["yes"], []]]);
  });

  it("read a list question (wsc's noun and pronoun spans)", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ys-wsc-")), "wsc.jsonl");
    writeFileSync(file, `${JSON.stringify({ passage: "Mark told Pete he was late.", question: ["Pete", "he"], target_scores: { Yes: 1, No: 0 }, answer: "" })}\n`);
    const samples: Sample[] = [];
    for await (const s of loadUltraEval({ path: file, transform: "datasets/wsc/transform_gen_v0.py" }, {}, { transforms })) samples.push(s);
    expect(samples.map((s) => s.label)).toEqual(["A"]);
  });

  it("read a passage that holds lists (strategyqa's facts and decomposition)", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ys-strategyqa-")), "strategyqa.jsonl");
    const row = { passage: ["Owl", "A bird.", ["Owls hunt at night."], ["Do owls hunt?"]], question: "Are owls nocturnal?", target_scores: { Yes: 1, No: 0 }, answer: "" };
    writeFileSync(file, `${JSON.stringify(row)}\n`);
    const samples: Sample[] = [];
    for await (const s of loadUltraEval({ path: file, transform: "datasets/strategyqa/transform_gen_v0.py" }, {}, { transforms })) samples.push(s);
    expect(samples.map((s) => s.label)).toEqual(["A"]);
  });

  it("refuse a transform the injected transforms do not port, naming the option", async () => {
    const loader = createUltraEvalDataloader({ transforms });
    const options = { path: path.join(SAMPLES, "synthetic_mmlu.jsonl"), transform: "datasets/ceval/transform_gen_v0.py" };
    expect(() => loader.checkOptions!(options)).toThrow("the transform datasets/ceval/transform_gen_v0.py has no TypeScript port");
    await expect(loader.load(options).next()).rejects.toSatisfy((e) => ConfigError.isInstance(e) && e.keyPath?.join(".") === "data.options.transform");
  });
});

// A transform without a port, run as Python by the bridge (the toy transform written for the bridge tests).
const BRIDGE_ROOT = fileURLToPath(new URL("../../config/src/__fixtures__/ultraeval/bridge-root/", import.meta.url));
const TOY = "datasets/toy/transform_gen_v0.py";

describe("ultraeval dataloader with the python3 bridge", () => {
  // Written by hand: JSON.stringify would put the integer-like key "3" before "10".
  const rows = ["q0", "q1", "q2"].map((q) => `{"question": "${q}", "answer": "a-${q}", "target_scores": {"10": 0, "3": 1}}`).join("\n");
  const writeRows = () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ys-bridge-")), "toy.jsonl");
    writeFileSync(file, `${rows}\n`);
    return file;
  };

  it.skipIf(pythonProblem())(`labels and few-shot results come from the Python file${pythonProblem() ? ` (skipped: ${pythonProblem()})` : ""}`, async () => {
    const bridge = createPythonTransformBridge();
    try {
      const bridged = createUltraEvalTransforms({ postprocess: (name, text) => ULTRAEVAL_TEXT_POSTS[name](text) ?? "", bridge });
      const options = { path: writeRows(), transform: TOY, taskName: "toy_toy_gen", fewshot: 1, root: BRIDGE_ROOT };
      const samples: Sample[] = [];
      for await (const s of loadUltraEval(options, {}, { transforms: bridged })) samples.push(s);
      expect(samples.map((s) => s.label)).toEqual([["A-Q0"], ["A-Q1"], ["A-Q2"]]);
      const vars = samples[0]!.prompts[0] as { fewshot: { fields: { question: string } }[]; transformed: { record: { input: string }; fewshot: { input: string }[] } };
      expect(vars.transformed.record.input).toBe("toy_toy_gen|1|q0|10,3");
      expect(vars.transformed.fewshot.map((f) => f.input)).toEqual(vars.fewshot.map((f) => `toy_toy_gen|1|${f.fields.question}|10,3`));
      // The prompt builder lays the Python results out as for a port: description, example (input + output), input.
      const builder = createUltraEvalPromptBuilder({ transforms: bridged });
      const task = { ...taskFor({ task_name: "toy_toy_gen", fewshot: 1 } as Golden), key: "toy_toy_gen" };
      const prompt = builder.build({ sample: samples[0]!, task, examples: [], turn: 1, previousResponses: [] }, { transform: TOY, description: "Toy.", taskName: "toy_toy_gen" });
      const example = vars.fewshot[0]!.fields.question;
      expect(prompt).toMatch(new RegExp(`^Toy\\.\\n\\ntoy_toy_gen\\|1\\|${example}\\|10,3\\d+\\n\\ntoy_toy_gen\\|1\\|q0\\|10,3$`));
      // A sample loaded without the bridge's results cannot be laid out.
      const bare = { ...samples[0]!, prompts: [{ record: vars.fewshot[0], fewshot: [] }] };
      expect(() => builder.build({ sample: bare, task: { ...task, fewshot: 0 }, examples: [], turn: 1, previousResponses: [] }, { transform: TOY })).toThrow(
        "has no TypeScript port and the sample carries no python3 bridge results",
      );
    } finally {
      await bridge.close();
    }
  });

  it("refuses an unported transform when python3 is missing, naming why", async () => {
    const bridged = createUltraEvalTransforms({ postprocess: () => "", bridge: createPythonTransformBridge({ python: "/nonexistent/python3" }) });
    const loader = createUltraEvalDataloader({ transforms: bridged });
    expect(() => loader.checkOptions!({ path: writeRows(), transform: TOY, root: BRIDGE_ROOT })).toThrow(
      `the transform ${TOY} has no TypeScript port, and the python3 bridge cannot run it: /nonexistent/python3 is not available (ENOENT)`,
    );
  });
});
