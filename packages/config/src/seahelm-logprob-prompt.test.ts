import type { Sample } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { createSeahelmChatPromptBuilder } from "./seahelm-chat-prompt.js";
import { answerSeparatorFor } from "./seahelm-logprob-prompt.js";

const builder = createSeahelmChatPromptBuilder();
const options = {
  preamble: "Answer with {answer_tag} X",
  taskTemplate: "Text: {text}",
  answerTemplate: "{answer_tag} {label}",
  answerTag: "Answer:",
  baseModel: true,
  answerSeparator: " ",
};
const sample = (id: string, text: string, label: unknown): Sample => ({ id, prompts: [{ text }], label, raw: {} });
const choices = (s: Sample, examples: Sample[] = [], opts: Record<string, unknown> = options) =>
  builder.buildChoices!({ sample: s, task: {} as never, examples, turn: 1, previousResponses: [] }, opts);

describe("seahelm-chat buildChoices (logprob tasks)", () => {
  it("scores separator + gold label after the base-model text of the conversation and the answer tag", () => {
    expect(choices(sample("1", "good film", "Positive"))).toEqual({
      context: "Answer with Answer: X\n\nText: good film\n\nAnswer:",
      continuations: [" Positive"],
    });
    // Few-shot examples are turns of the conversation; the BOS text goes where the template puts it.
    const shot = sample("e", "bad film", "Negative");
    expect(choices(sample("2", "ok", 3), [shot], { ...options, bosToken: "<s>" })).toEqual({
      context: "<s>Answer with Answer: X\n\nText: bad film\n\nAnswer: Negative\n\nText: ok\n\nAnswer:",
      continuations: [" 3"],
    });
  });

  it("with logprobFirstPass the context stops before the answer tag, which the model's first pass writes", () => {
    expect(choices(sample("1", "good film", "Positive"), [], { ...options, logprobFirstPass: true })).toEqual({
      context: "Answer with Answer: X\n\nText: good film\n\n",
      continuations: [" Positive"],
    });
  });

  it("refuses a row without a label and a task without an answer tag", () => {
    expect(() => choices(sample("x", "t", undefined))).toThrow(/sample x: a logprob task scores the gold label, but the row's label is missing/);
    expect(() => choices(sample("y", "t", "A"), [], { ...options, answerTag: null })).toThrow(/needs an answer_tag/);
  });
});

describe("answerSeparatorFor (upstream's answer_tag_separator)", () => {
  it("takes the text between the tag and the label, else the template's separator, else a space", () => {
    expect(answerSeparatorFor({ answer_template: "{answer_tag} {label}" })).toBe(" ");
    expect(answerSeparatorFor({ answer_template: "{answer_tag}{label}" })).toBe("");
    expect(answerSeparatorFor({ answer_template: "{answer_tag} ({label})" })).toBe(" (");
    expect(answerSeparatorFor({ answer_template: "{answer_tag} {prompt_label}", answer_tag_separator: ": " })).toBe(": ");
    expect(answerSeparatorFor({ answer_template: "{answer_tag}\n{label}" })).toBe(" ");
    expect(answerSeparatorFor({ answer_template: null })).toBe(" ");
  });
});
