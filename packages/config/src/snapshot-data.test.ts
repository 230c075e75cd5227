/** HealthBench and AA-LCR: their dataloader classes map to the snapshot loaders, HealthBench's prompt to its conversation. */
import * as path from "node:path";
import type { Sample, TaskSpec } from "@yardstick/core";
import { beforeAll, describe, expect, it } from "vitest";
import { builtinPromptBuilders } from "./index.js";
import { type LoadedConfigs, loadSeaHelmConfigs } from "./load-seahelm.js";
import { CORPUS_TASKS } from "./test-files.test-helper.js";
import { toTaskSpecs } from "./to-task-specs.js";

let corpus: LoadedConfigs;
beforeAll(async () => {
  corpus = await loadSeaHelmConfigs([path.join(CORPUS_TASKS, "health"), path.join(CORPUS_TASKS, "long_context", "AA-LCR")]);
});

describe("SEA-HELM tasks read by snapshot loaders", () => {
  it("HealthBench: each task reads its own file of openai/healthbench and sends the row's conversation", () => {
    const specs = toTaskSpecs(corpus, { tasks: ["healthbench", "healthbench_consensus", "healthbench_hard"] });
    expect(specs.map((s) => [s.key, s.data, s.prompt])).toEqual([
      ["healthbench/en", { id: "seahelm-healthbench", options: { repo: "openai/healthbench", subset: "healthbench" } }, { id: "seahelm-conversation", options: {} }],
      ["healthbench_consensus/en", { id: "seahelm-healthbench", options: { repo: "openai/healthbench", subset: "healthbench_consensus" } }, { id: "seahelm-conversation", options: {} }],
      ["healthbench_hard/en", { id: "seahelm-healthbench", options: { repo: "openai/healthbench", subset: "healthbench_hard" } }, { id: "seahelm-conversation", options: {} }],
    ]);
    expect(specs.every((s) => s.judge?.id === "seahelm-healthbench" && s.unsupported === undefined)).toBe(true);
    const [base] = toTaskSpecs(corpus, { tasks: ["healthbench"], modelKind: "base" });
    expect(base!.prompt).toEqual({ id: "seahelm-conversation", options: { baseModel: true } });
  });

  it("AA-LCR: reads ArtificialAnalysis/AA-LCR and keeps the seahelm-chat prompt with documents_text", () => {
    const [spec] = toTaskSpecs(corpus, { tasks: ["aa-lcr"] });
    expect(spec!.data).toEqual({ id: "seahelm-aa-lcr", options: { repo: "ArtificialAnalysis/AA-LCR" } });
    expect(spec!.prompt.id).toBe("seahelm-chat");
    expect(spec!.prompt.options?.taskTemplate).toContain("{documents_text}");
    expect(spec!.judge?.id).toBe("seahelm-verdict");
  });
});

describe("seahelm-conversation prompt builder", () => {
  const builder = builtinPromptBuilders["seahelm-conversation"]!;
  const conversations = [
    { role: "system", content: "You are a clinic assistant." },
    { role: "user", content: "  My child has a fever.  " },
    { role: "assistant", content: "How high is it?" },
    { role: "user", content: "39.5 C" },
  ];
  const sample: Sample = { id: "0", prompts: [{ conversations }], raw: { id: "0", conversations } };
  const input = { sample, task: {} as TaskSpec, examples: [], turn: 1, previousResponses: [] };

  it("sends the row's messages as they are (roles and contents kept)", () => {
    expect(builder.build(input, {})).toEqual(conversations);
  });

  it("base models get the contents stripped and joined by blank lines, as the base-model chat template", () => {
    expect(builder.build(input, { baseModel: true })).toBe("You are a clinic assistant.\n\nMy child has a fever.\n\nHow high is it?\n\n39.5 C\n\n");
  });

  it("refuses a row without a conversation, a bad role, a second turn and bad options", () => {
    expect(() => builder.build({ ...input, sample: { ...sample, raw: { id: "0" } } }, {})).toThrow(/sample 0: expected a non-empty list `conversations`/);
    const tool = [{ role: "tool", content: "x" }];
    expect(() => builder.build({ ...input, sample: { ...sample, raw: { conversations: tool } } }, {})).toThrow(/conversations\[0\] is not \{role: system\|user\|assistant/);
    expect(() => builder.build({ ...input, turn: 2, previousResponses: ["a"] }, {})).toThrow(/builds one turn/);
    expect(() => builder.checkOptions!({ baseModel: "yes" })).toThrow(/seahelm-conversation options/);
  });
});
