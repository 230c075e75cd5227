import type { TaskSpec } from "@yardstick/core";
import { ConfigError, DataLoadError } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { buildAnswerTagRegex, createSeahelmAnswerTagPostprocessor, orderLabels } from "./seahelm-answer-tag.js";

const pp = createSeahelmAnswerTagPostprocessor();
const task = (labels?: string[], promptOptions: Record<string, unknown> = {}) =>
  ({ labels, prompt: { id: "x", options: promptOptions } }) as unknown as TaskSpec;

describe("seahelm-answer-tag, labels mode", () => {
  const labels = ["Positif", "Negatif", "Netral"];
  it("finds the label after the tag, case-insensitively, and returns the matched text", () => {
    expect(pp.process("Jawaban: **negatif**", { tag: "Jawaban:", labels })).toBe("negatif");
    expect(pp.process("blah\nJAWABAN:\n Netral.", { tag: "Jawaban:", labels })).toBe("Netral");
  });
  it("falls back to the whole response, stripped", () => {
    expect(pp.process("  I think it is positive  ", { tag: "Jawaban:", labels })).toBe("I think it is positive");
  });
  it("takes labels from the task when the options have none", () => {
    expect(pp.process("Jawaban: Positif", { tag: "Jawaban:" }, { task: task(labels) })).toBe("Positif");
  });
  it("takes the tag from the task's prompt options when the options have none", () => {
    expect(pp.process("Jawaban: Netral", {}, { task: task(labels, { answer_tag: "Jawaban:" }) })).toBe("Netral");
  });
  it("a label that is a prefix of another cannot shadow it", () => {
    expect(orderLabels(["A", "AB", "B", "AB"])).toEqual(["AB", "A", "B"]);
    expect(pp.process("Answer: Positive", { tag: "Answer:", labels: ["Pos", "Positive"] })).toBe("Positive");
    expect(pp.process("Answer: Positive", { tag: "Answer:", labels: ["Positive", "Pos"] })).toBe("Positive");
  });
  it("matches a tag with regex characters literally", () => {
    const text = "so \\boxed{B} it is; boxedB";
    expect(pp.process(text, { tag: "\\boxed{", labels: ["A", "B"] })).toBe("B");
    // "boxed{" unescaped means "boxed" plus a literal "{" (Annex B) -> same match here.
    expect(pp.process("boxed{A}", { tag: "boxed{", labels: ["A", "B"], unescapedTag: true })).toBe("A");
    // A dot in the tag is literal by default, a wildcard with unescapedTag.
    expect(pp.process("AnswerX B", { tag: "Answer.", labels: ["A", "B"] })).toBe("AnswerX B");
    expect(pp.process("AnswerX B", { tag: "Answer.", labels: ["A", "B"], unescapedTag: true })).toBe("B");
  });
  it("repeated labels keep the last repetition, as the Python group does", () => {
    expect(pp.process("Answer: AB", { tag: "Answer:", labels: ["A", "B"] })).toBe("B");
  });
});

describe("seahelm-answer-tag, other modes", () => {
  it("line mode stops at the newline", () => {
    expect(pp.process("Answer: `42`\nmore", { tag: "Answer:", mode: "line" })).toBe("42`");
    expect(pp.process("Answer:\n\n  Paris is nice\r\nx", { tag: "Answer:", mode: "line" })).toBe("Paris is nice");
  });
  it("strips dollar signs by default, not with stripDollar: false (upstream)", () => {
    expect(pp.process("Answer: $ 12 $", { tag: "Answer:", mode: "line" })).toBe("12");
    expect(pp.process("Answer: $ 12 $", { tag: "Answer:", mode: "line", stripDollar: false })).toBe("$ 12 $");
    expect(pp.process(" $5$ ", { tag: "Answer:", mode: "line" })).toBe("5");
  });
  it("until-close-tag takes everything up to the last closing tag", () => {
    expect(pp.process("<a>x, y</a><b>z</b>", { tag: "<a>", mode: "until-close-tag" })).toBe("x, y</a><b>z");
    expect(pp.process("no tag here", { tag: "<a>", mode: "until-close-tag" })).toBe("no tag here");
  });
  it("none only cleans", () => {
    expect(pp.process("\u3000$7$\n", { tag: "x", mode: "none" })).toBe("7");
  });
  it("none accepts the empty tag SEA-HELM configs use for tag-less tasks; other modes refuse it", () => {
    expect(pp.process("  $42$ ", { tag: "", mode: "none" })).toBe("42");
    expect(() => pp.process("x", { tag: "", mode: "line" })).toThrow(/tag is required in mode line/);
  });
  it("case-insensitive is opt-in outside labels mode", () => {
    expect(pp.process("ANSWER: yes", { tag: "Answer:", mode: "line" })).toBe("ANSWER: yes");
    expect(pp.process("ANSWER: yes", { tag: "Answer:", mode: "line", caseInsensitive: true })).toBe("yes");
  });
});

describe("seahelm-answer-tag, bad input", () => {
  it("reports bad options as ConfigError", () => {
    expect(() => pp.process("x", { tag: "A:", labels: ["a"], colour: 1 })).toThrow(ConfigError);
    expect(() => pp.process("x", { tag: "A:", mode: "words" })).toThrow(/unknown mode/);
    expect(() => pp.process("x", { labels: ["a"] })).toThrow(/tag is required/);
    expect(() => pp.process("x", { tag: "A:" })).toThrow(/needs labels/);
    expect(() => pp.process("x", { tag: "A:", labels: "a" })).toThrow(/list of strings/);
    expect(() => buildAnswerTagRegex({ tag: "(", mode: "line", unescapedTag: true })).toThrow(ConfigError);
  });
  it("reports a non-string response as DataLoadError", () => {
    expect(() => pp.process(42 as unknown as string, { tag: "A:", mode: "line" })).toThrow(DataLoadError);
  });
});

describe("seahelm-answer-tag, upstream per-metric details", () => {
  it("firstTagOnly: only the first tag counts, as minimal pairs' `(labels)*` (no label after it: the raw text)", () => {
    const o = { tag: "Jawapan:", mode: "labels", labels: ["A", "B"], caseInsensitive: false, firstTagOnly: true };
    expect(pp.process("Jawapan: B", o)).toBe("B");
    expect(pp.process("Jawapan: Saya rasa...\nJawapan: B", o)).toBe("Jawapan: Saya rasa...\nJawapan: B");
    expect(pp.process("jawapan: B", o)).toBe("jawapan: B");
    // Without the option the later tag is found (yardstick's default for F1Acc-style tasks).
    expect(pp.process("Jawapan: Saya rasa...\nJawapan: B", { tag: "Jawapan:", mode: "labels", labels: ["A", "B"] })).toBe("B");
  });

  it("emptyOnNoMatch: NIAH/CWE responses without the tag and a closing tag score as empty", () => {
    const o = { tag: "<answer>", mode: "until-close-tag", emptyOnNoMatch: true };
    expect(pp.process("<answer> apple, banana </answer>", o)).toBe("apple, banana");
    expect(pp.process("<answer> apple, banana", o)).toBe("");
    expect(pp.process("apple, banana", o)).toBe("");
  });
});
