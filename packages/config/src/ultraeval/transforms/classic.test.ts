import { describe, expect, it } from "vitest";
import type { UltraEvalRecord } from "./index.js";
import { wiredTransforms } from "./wired-transforms.test-helper.js";

const rec = (fields: Record<string, unknown>, targetScores: [string, number][] = []): UltraEvalRecord => ({ fields, targetScores });
const ctx = { taskName: "x", fewshot: 0 };
const port = (p: string) => wiredTransforms.get(p)!;

// Expected texts follow the upstream Python transforms line by line.
describe("winogrande gen and wmt20 en-zh", () => {
  it("winogrande gen: the question completed by each of the first two endings", () => {
    const r = rec({ question: "Sarah gave the book to Maria because" }, [
      [" she was done.", 1],
      [" it was late.", 0],
    ]);
    expect(port("datasets/winogrande/transform_gen_v1.py")(r, ctx)).toEqual({
      input:
        "Question:\nWhich of the following is a good sentence?\nRequirement:\nChoose and respond with the letter of the correct answer, including the parentheses.\nOptions:\n(A) Sarah gave the book to Maria because she was done.\n(B) Sarah gave the book to Maria because it was late.\nAnswer:\n",
      output: "(A)",
      processedOutput: "(A)",
    });
    expect(() => port("datasets/winogrande/transform_gen_v1.py")(rec({ question: "q" }, [["a", 1]]), ctx)).toThrow("reads two");
  });
  it("wmt20 en-zh: the English-to-Chinese request, gold with a newline", () => {
    expect(port("datasets/wmt20-en-zh/transform_gen_v0.py")(rec({ question: "Hello", answer: "你好" }), ctx)).toEqual({
      input: "请将下面这段内容从英文翻译为中文：\nHello\n译文：\n",
      output: "你好\n",
      processedOutput: "你好\n",
    });
  });
});

describe("small English benchmarks", () => {
  const four: [string, number][] = [
    ["rock", 0],
    [" sand ", 1],
    ["water", 0],
    ["air", 0],
  ];
  it("piqa: lettered gen, ppl with a space before the newline", () => {
    const r = rec({ question: "How to dry wet shoes?" }, four);
    expect(port("datasets/piqa/transform_gen_v1.py")(r, ctx).input).toBe(
      "Question:\nHow to dry wet shoes?\nRequirement:\nChoose and respond with the letter of the correct answer, including the parentheses.\nOptions:\n(A) rock\n(B)  sand \n(C) water\n(D) air\nAnswer:\n",
    );
    expect(port("datasets/piqa/transform_ppl_v0.py")(r, ctx)).toEqual({ input: "Question: How to dry wet shoes? \nAnswer: ", output: "sand", processedOutput: "sand" });
  });
  it("openbookqa: four options in gen; ppl lower-cases and turns a statement into a clause", () => {
    const r = rec({ passage: " Sand Is Dry. ", question: "What is dry?" }, four);
    expect(port("datasets/openbookqa/transform_gen_v0.py")(r, ctx)).toEqual({
      input: "Given the fact:  Sand Is Dry. \nQuestion: What is dry?\nA. rock\nB.  sand \nC. water\nD. air\nAnswer: ",
      output: "B",
      processedOutput: "B",
    });
    const ppl = port("datasets/openbookqa/transform_ppl_v0.py");
    expect(ppl(r, ctx).input).toBe("Given the fact: sand is dry. \nQuestion: what is dry?\nAnswer: ");
    expect(ppl(rec({ passage: "Sand Is Dry.", question: "The Dry thing is" }, four), ctx).input).toBe("Given the fact: sand is dry., we can infer that the dry thing is ");
    expect(() => port("datasets/openbookqa/transform_gen_v0.py")(rec({ passage: "", question: "q" }, [["a", 1]]), ctx)).toThrow("expects 4");
  });
  it("commonsenseqa and siqa: bare letters", () => {
    expect(port("datasets/commonsenseqa/transform_gen_v0.py")(rec({ question: "Q?" }, four), ctx)).toEqual({
      input: "Q?\nA. rock\nB.  sand \nC. water\nD. air\nAnswer: ",
      output: "B",
      processedOutput: "B",
    });
    expect(port("datasets/commonsenseqa/transform_ppl_v0.py")(rec({ question: "Q?" }, four), ctx).input).toBe("Question: Q?\nAnswer: ");
    const s = rec({ passage: "Ann smiled.", question: "Why?" }, four);
    expect(port("datasets/siqa/transform_gen_v0.py")(s, ctx).input).toBe("Ann smiled.\nQuestion: Why?\nA. rock\nB.  sand \nC. water\nD. air\nAnswer: ");
    expect(port("datasets/siqa/transform_ppl_v0.py")(s, ctx)).toEqual({ input: "Based on the context: Ann smiled.\nQuestion: Why?\nAnswer: ", output: "sand", processedOutput: "sand" });
  });
  it("copa and storycloze: two options; storycloze joins the story lines", () => {
    const two: [string, number][] = [
      ["It rained.", 0],
      ["The sun shone.", 1],
    ];
    expect(port("datasets/copa/transform_gen_v0.py")(rec({ passage: "The grass dried.", question: "cause" }, two), ctx).input).toBe(
      "The grass dried.\nQuestion: Which may be the cause?\nA. It rained.\nB. The sun shone.\nAnswer: ",
    );
    expect(port("datasets/copa/transform_ppl_v0.py")(rec({ passage: "The grass dried.", question: "cause" }, two), ctx).input).toBe(
      "The grass dried.\nQuestion: What may be the cause?\nAnswer: ",
    );
    const story = rec({ passage: ["Tom woke.", "He ate."] }, two);
    expect(port("datasets/storycloze/transform_gen_v0.py")(story, ctx)).toEqual({
      input: "Tom woke.\nHe ate.\nQuestion: Which ending makes the most sense?\nA. It rained.\nB. The sun shone.\nYou may choose between 'A' and 'B'.\nAnswer: ",
      output: "B",
      processedOutput: "B",
    });
    expect(port("datasets/storycloze/transform_ppl_v0.py")(story, ctx)).toEqual({ input: "Tom woke.\nHe ate.\n", output: "The sun shone.", processedOutput: "The sun shone." });
  });
});
