import { describe, expect, it } from "vitest";
import type { UltraEvalRecord } from "./index.js";
import { wiredTransforms } from "./wired-transforms.test-helper.js";

const rec = (fields: Record<string, unknown>, targetScores: [string, number][]): UltraEvalRecord => ({ fields, targetScores });
const ctx = { taskName: "x", fewshot: 0 };
const port = (p: string) => wiredTransforms.get(p)!;
const five: [string, number][] = [
  ["aspirin", 0],
  [" insulin ", 1],
  ["heparin", 0],
  ["warfarin", 0],
  ["extra", 0],
];

// Expected texts follow the upstream Python transforms line by line.
describe("exam-style transforms", () => {
  it("medqa-usmle: the first four options inline; gen gives the letter, ppl the option", () => {
    const r = rec({ question: "Which lowers glucose?" }, five);
    const input = "Question: Which lowers glucose?\nOptions: A. aspirin\nB.  insulin \nC. heparin\nD. warfarin\nAnswer: ";
    expect(port("datasets/medqa-usmle/transform_gen_v0.py")(r, ctx)).toEqual({ input, output: "B", processedOutput: "B" });
    expect(port("datasets/medqa-usmle/transform_ppl_v0.py")(r, ctx)).toEqual({ input, output: "insulin", processedOutput: "insulin" });
    expect(port("datasets/medmcqa/transform_ppl_v0.py")(r, ctx).input).toBe(input);
    expect(() => port("datasets/medqa-usmle/transform_gen_v0.py")(rec({ question: "q" }, five.slice(0, 3)), ctx)).toThrow("reads four");
  });
  it("jecqa and medqa-mcmle: the Chinese layout", () => {
    const r = rec({ question: "哪个降血糖？" }, five);
    expect(port("datasets/jecqa/transform_gen_v0.py")(r, ctx)).toEqual({
      input: "问题：哪个降血糖？\n选项：A. aspirin\nB.  insulin \nC. heparin\nD. warfarin\n答案：",
      output: "B",
      processedOutput: "B",
    });
    expect(port("datasets/medqa-mcmle/transform_ppl_v0.py")(r, ctx).output).toBe("insulin");
  });
  it("strategyqa: background, facts joined by commas; gen's gold follows the score of Yes", () => {
    const r = rec({ passage: ["Owl", "A bird.", ["Owls hunt at night.", "Owls sleep by day."], ["Do owls hunt?"]], question: "Are owls nocturnal?" }, [
      ["No", 0],
      ["Yes", 1],
    ]);
    expect(port("datasets/strategyqa/transform_gen_v0.py")(r, ctx)).toEqual({
      input: "Background: Owl - A bird.\nFact: Owls hunt at night., Owls sleep by day.\nQuestion: Are owls nocturnal?\nA. Yes\nB. No\nAnswer: ",
      output: "A",
      processedOutput: "A",
    });
    expect(port("datasets/strategyqa/transform_ppl_v0.py")(r, ctx)).toMatchObject({ input: expect.stringMatching(/Question: Are owls nocturnal\?\nAnswer: $/), output: "Yes" });
  });
  it("multirc: question and claim from the list question", () => {
    const r = rec({ passage: "Tom has a red car.", question: ["What colour is the car?", "It is red."] }, [
      ["Yes", 1],
      ["No", 0],
    ]);
    expect(port("datasets/multirc/transform_gen_v0.py")(r, ctx).input).toBe(
      "Tom has a red car.\nQuestion: What colour is the car?\nClaim: It is red.\nIs it true?\nA. Yes\nB. No\nAnswer: ",
    );
    expect(port("datasets/multirc/transform_ppl_v0.py")(r, ctx)).toEqual({
      input: "Tom has a red car.\nQuestion: What colour is the car?\nClaim: It is red.\nIs it true? ",
      output: "Yes",
      processedOutput: "Yes",
    });
  });
});
