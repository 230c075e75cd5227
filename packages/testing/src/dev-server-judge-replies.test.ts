import { describe, expect, it } from "vitest";
import { judgeReply } from "./dev-server-judge-replies.js";

const chat = (system: string, user: string) => [
  ...(system ? [{ role: "system" as const, content: system }] : []),
  { role: "user" as const, content: user },
];

describe("judgeReply", () => {
  it("gives a pairwise prompt exactly one of the verdict labels its system prompt names, the same one every time", () => {
    const messages = chat('Output "[[A]]" if A is better, "[[B]]" if B is better, and "[[C]]" for a tie.', "[User Question]\nHi");
    const reply = judgeReply(messages)!;
    expect(reply.match(/\[\[[ABC]\]\]/g)).toHaveLength(1);
    expect(judgeReply(messages)).toBe(reply);
  });

  it("gives a criteria prompt a reflection and a class named in the prompt", () => {
    const reply = judgeReply(chat("Reply with <classification>.", "- CLASS_MET: met\n- CLASS_UNMET: not met\n<classification>ONE of them</classification>"))!;
    expect(reply).toMatch(/^<reflection>.+<\/reflection><classification>CLASS_(MET|UNMET)<\/classification>$/);
  });

  it("gives HealthBench a JSON block with a boolean criteria_met", () => {
    const reply = judgeReply(chat('Return a json object with "explanation" and "criteria_met".', "# Conversation\nuser: hi"))!;
    expect(typeof JSON.parse(reply.replace(/^```json\n|\n```$/g, "")).criteria_met).toBe("boolean");
  });

  it("answers the verdict prompts with the verdict word alone", () => {
    expect(["CORRECT", "INCORRECT"]).toContain(judgeReply(chat("", "CANDIDATE ANSWER TO ASSESS: 4\nReply only with CORRECT or INCORRECT.")));
    expect(["TRUE", "FALSE"]).toContain(judgeReply(chat("", "Ground Truth Answer: B\n**Output format:**\nTRUE or FALSE")));
  });

  it("answers the rubric text form with one CHOICE line among the labels", () => {
    const reply = judgeReply(chat("End your reply with one line CHOICE: <label>.\nLabels: good | bad", "Rate this."))!;
    expect(reply).toMatch(/\nCHOICE: (good|bad)$/);
  });

  it("leaves other prompts to the echo policy, even ones that mention TRUE or FALSE", () => {
    expect(judgeReply(chat("", "Replace ANSWER with either TRUE or FALSE."))).toBeUndefined();
    expect(judgeReply(chat("", "What is 2+2?"))).toBeUndefined();
    expect(judgeReply(undefined)).toBeUndefined();
  });
});
