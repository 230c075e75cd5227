import { describe, expect, it } from "vitest";
import { createUltraEvalTransforms, ULTRAEVAL_PORTED_TRANSFORMS, type UltraEvalRecord } from "./index.js";
import { wiredTransforms } from "./wired-transforms.test-helper.js";

const portedTransform = (p: string) => wiredTransforms.get(p);

const ctx = { taskName: "x_y_gen", fewshot: 0 };
const rec = (fields: Record<string, unknown>, targetScores: [string, number][] = []): UltraEvalRecord => ({ fields, targetScores });

// Expected texts follow the upstream Python transforms line by line.
describe("ported transforms", () => {
  it("boolq gen and ppl", () => {
    const r = rec({ passage: "Sky is blue.", question: "is the sky blue" }, [["yes", 1], ["no", 0]]);
    expect(portedTransform("datasets/boolq/transform_gen_v1.py")!(r, ctx)).toEqual({
      input:
        "Context:\nSky is blue.\nQuestion:\nis the sky blue?\nRequirement:\nChoose and respond with the letter of the correct answer, including the parentheses.\nOptions:\n(A) yes\n(B) no\nAnswer:\n",
      output: "(A)",
      processedOutput: "(A)",
    });
    expect(portedTransform("datasets/boolq/transform_ppl_v0.py")!(r, ctx).input).toBe("Sky is blue.\nQuestion: is the sky blue?\nAnswer: ");
  });

  it("truthfulqa keeps every true answer; winogrande's gold is the option sentence", () => {
    const t = portedTransform("datasets/truthfulqa/transform_ppl_v0.py")!(rec({ question: "Q?" }, [["a", 1], ["b", 1], ["c", 0]]), ctx);
    expect(t).toEqual({ input: "Question: Q?\nAnswer: ", output: ["a", "b"], processedOutput: ["a", "b"] });
    const w = portedTransform("datasets/winogrande/transform_ppl_v0.py")!(rec({ question: "Sarah gave" }, [[" it.", 0], [" them.", 1]]), ctx);
    expect(w.output).toBe(" them.");
  });

  it("tydiqa reads the second passage and normalises the gold with exact_match_post", () => {
    const t = portedTransform("datasets/tydiqa/transform_gen_v0.py")!(rec({ passage: ["title", "Body."], question: "Who?", answer: "The Cat." }), ctx);
    expect(t.input).toBe("Answer the following question based on the information in the given passage.\n\nPassage: Body.\nQuestion: Who?\nAnswer: ");
    expect(t.processedOutput).toEqual(["cat"]);
    // tydiqa's rows hold a list of answers: each goes through exact_match_post.
    const listed = portedTransform("datasets/tydiqa/transform_gen_v0.py")!(rec({ passage: ["title", "Body."], question: "Who?", answer: ["The Cat.", "A dog"] }), ctx);
    expect(listed).toMatchObject({ output: ["The Cat.", "A dog"], processedOutput: ["cat", "dog"] });
  });

  it("mbpp and wmt20-zh-en", () => {
    const m = portedTransform("datasets/mbpp/transform_gen_v0.py")!(rec({ text: "Add.", test_list: ["assert f(1)==2", "assert f(2)==3"], code: "def f(x): return x+1" }), ctx);
    expect(m.input).toBe('"""Add.\nassert f(1)==2\nassert f(2)==3"""');
    const w = portedTransform("datasets/wmt20-zh-en/transform_gen_v0.py")!(rec({ question: "你好", answer: "Hello" }), ctx);
    expect(w).toEqual({ input: "请将下面这段内容从中文翻译为英文：\n你好\n译文：\n", output: "Hello\n", processedOutput: "Hello\n" });
  });

  it("a record without a key the transform reads gives a clear error", () => {
    expect(() => portedTransform("datasets/gsm8k/transform_gen_v0.py")!(rec({ answer: "#### 1" }), ctx)).toThrow('the record has no "question"');
  });
});

describe("createUltraEvalTransforms", () => {
  it("has a port for every listed path, accepting ./ and backslashes, and none for others", () => {
    for (const p of ULTRAEVAL_PORTED_TRANSFORMS) expect(wiredTransforms.get(p), p).toBeTypeOf("function");
    expect(wiredTransforms.get("./datasets/mmlu/transform_gen_v1.py")).toBe(wiredTransforms.get("datasets/mmlu/transform_gen_v1.py"));
    expect(wiredTransforms.get("datasets\\gsm8k\\transform_gen_v0.py")).toBeTypeOf("function");
    expect(wiredTransforms.get("datasets/ceval/transform_gen_v0.py")).toBeUndefined();
  });

  it("normalises gold answers with the injected postprocess, naming the upstream function", () => {
    const calls: string[] = [];
    const transforms = createUltraEvalTransforms({
      postprocess: (name, text) => {
        calls.push(`${name}:${text}`);
        return `<${text}>`;
      },
    });
    const gsm8k = transforms.get("datasets/gsm8k/transform_gen_v0.py")!(rec({ question: "1+1?", answer: "so #### 2" }), ctx);
    expect(gsm8k.processedOutput).toEqual(["<so #### 2>"]);
    const math = transforms.get("datasets/math/transform_gen_v0.py")!(rec({ question: "x?", answer: "It is \\boxed{\\frac{1}{2}}." }), ctx);
    expect(math.processedOutput).toEqual(["<\\frac{1}{2}>"]);
    expect(math.output).toBe("It is \\boxed{\\frac{1}{2}}.\nFinal Answer: The final answer is $<\\frac{1}{2}>$. I hope it is correct.");
    expect(calls).toEqual(["gsm8k_post:so #### 2", "math_post:\\frac{1}{2}"]);
  });
});
