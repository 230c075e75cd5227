import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, type PromptBuildInput, type Sample, type TaskSpec } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { renderBaseModelPrompt } from "./base-model-template.js";
import { buildSeahelmChat } from "./seahelm-chat-prompt.js";
import { seahelmDialect } from "./seahelm-dialect.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__");
const UPSTREAM_TEMPLATE = readFileSync(path.join(FIXTURES, "chat_templates", "base_model.jinja"), "utf8");
const QA_MC = path.join(FIXTURES, "seahelm_tasks", "nlu", "question_answering_mc");

const conversation = [
  { role: "user" as const, content: "  Preamble\n\nQ1 \n" },
  { role: "assistant" as const, content: "Answer: B" },
  { role: "user" as const, content: "Q2" },
];

describe("base-model prompts through the base-model chat template", () => {
  it("yardstick's template renders as upstream's base_model.jinja, with and without a BOS", () => {
    for (const bosToken of [undefined, "<s>", ""]) {
      const options = bosToken === undefined ? {} : { bosToken };
      const ours = renderBaseModelPrompt(conversation, options);
      expect(ours).toBe(renderBaseModelPrompt(conversation, { ...options, chatTemplate: UPSTREAM_TEMPLATE }));
      expect(ours).toBe(`${bosToken ?? ""}Preamble\n\nQ1\n\nAnswer: B\n\nQ2\n\n`);
    }
  });

  it("renders whatever template it is given, and names a template that does not parse", () => {
    const custom = "{% for m in messages %}[{{ m.role }}] {{ m.content }}|{% endfor %}";
    expect(renderBaseModelPrompt(conversation.slice(1), { chatTemplate: custom })).toBe("[assistant] Answer: B|[user] Q2|");
    expect(() => renderBaseModelPrompt(conversation, { chatTemplate: "{% for m in messages %}" })).toThrow(ConfigError);
    expect(() => renderBaseModelPrompt(conversation, { chatTemplate: "{% for m in messages %}" })).toThrow(/base-model chat template/);
  });

  it("the seahelm-chat builder passes bosToken and chatTemplate through", () => {
    const sample: Sample = { id: "1", prompts: [{ q: "Q?" }], raw: {} };
    const input: PromptBuildInput = { sample, task: {} as TaskSpec, examples: [], turn: 1, previousResponses: [] };
    const options = { preamble: "P {answer_tag}", taskTemplate: "{q}", answerTemplate: "{answer_tag} {label}", answerTag: "A:", baseModel: true };
    expect(buildSeahelmChat(input, options)).toBe("P A:\n\nQ?\n\n");
    expect(buildSeahelmChat(input, { ...options, bosToken: "<|bos|>" })).toBe("<|bos|>P A:\n\nQ?\n\n");
    expect(buildSeahelmChat(input, { ...options, chatTemplate: "{{ messages[0].content | upper }}" })).toBe("P A:\n\nQ?".toUpperCase());
  });
});

describe("the SEA-HELM dialect for base models", () => {
  it("uses upstream's chat_templates/base_model.jinja beside seahelm_tasks, the BOS, base few-shot and stop strings", async () => {
    const [spec] = await seahelmDialect.load(QA_MC, { tasks: ["qa-mc"], languages: ["jv"], baseModel: true, bosToken: "<s>" });
    expect(spec!.endpoint).toBe("completion");
    expect(spec!.fewshot).toBe(5);
    expect(spec!.generation).toEqual({ seed: 1234, maxTokens: 16, stop: ["\n\n"], stopAtFirst: "Jawaban:" });
    expect(spec!.prompt.options).toMatchObject({ baseModel: true, bosToken: "<s>", chatTemplate: UPSTREAM_TEMPLATE });
  });

  it("--endpoint chat: messages for the server to render, same few-shot and stop strings", async () => {
    const [spec] = await seahelmDialect.load(QA_MC, { tasks: ["qa-mc"], languages: ["jv"], baseModel: true, baseModelEndpoint: "chat", seed: 9 });
    expect(spec!.endpoint).toBe("chat");
    expect(spec!.fewshot).toBe(5);
    expect(spec!.generation).toEqual({ seed: 9, maxTokens: 16, stop: ["\n\n"], stopAtFirst: "Jawaban:" });
    expect(spec!.prompt.options?.baseModel).toBeUndefined();
    expect(spec!.prompt.options?.chatTemplate).toBeUndefined();
  });

  it("instruct models: chat, the config's few-shot count, the seed and no stop strings", async () => {
    const [spec] = await seahelmDialect.load(QA_MC, { tasks: ["qa-mc"], languages: ["jv"] });
    expect(spec!.endpoint).toBe("chat");
    expect(spec!.fewshot).toBe(0);
    expect(spec!.generation).toEqual({ seed: 1234, maxTokens: 16 });
  });
});
