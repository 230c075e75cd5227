import { describe, expect, it } from "vitest";
import type { UltraEvalRecord } from "./index.js";
import { wiredTransforms } from "./wired-transforms.test-helper.js";

const rec = (fields: Record<string, unknown>, targetScores: [string, number][] = []): UltraEvalRecord => ({ fields, targetScores });
const ctx = { taskName: "x", fewshot: 0 };
const port = (p: string) => wiredTransforms.get(p)!;

// Expected texts follow the upstream Python transforms line by line.
describe("reading-comprehension transforms", () => {
  it("squad: every gold answer through exact_match_post; the answer cue starts with a space", () => {
    const t = port("datasets/squad/transform_gen_v0.py")(rec({ passage: ["Title", "The cat sat."], question: "Who sat?", answer: ["The cat.", "A cat"] }), ctx);
    expect(t).toEqual({
      input:
        "The cat sat.\nAccording to the above passage, answer the following question. If it is impossible to answer according to the passage, answer `impossible to answer`:\nQuestion: Who sat?\n Answer: ",
      output: ["The cat.", "A cat"],
      processedOutput: ["cat", "cat"],
    });
  });
  it("record replaces every @placeholder; drcd takes a single answer too", () => {
    const r = port("datasets/record/transform_gen_v0.py")(rec({ passage: "P.", question: "@placeholder met @placeholder.", answer: ["Bob"] }), ctx);
    expect(r.input).toBe("Passage: P.\n____ met ____.\nQuestion: What entity does ____ refer to in the result? Give me the entity name: ");
    const d = port("datasets/drcd/transform_gen_v0.py")(rec({ passage: "文章。", question: "问题？", answer: "答案是北京" }), ctx);
    expect(d).toEqual({ input: "根据文章回答问题。你的答案应该尽可能简练，请以 ‘答案是’ 开头的句式作答。\n文章：文章。\n问：问题？\n答：", output: "答案是北京", processedOutput: ["北京"] });
    expect(() => port("datasets/drcd/transform_gen_v0.py")(rec({ passage: "p", question: "q", answer: 3 }), ctx)).toThrow("a text or a list of texts");
  });
  it("quac: title, section and paragraph", () => {
    const t = port("datasets/quac/transform_gen_v0.py")(rec({ passage: ["Bach", "Early life", "Born in 1685."], question: "When?", answer: ["1685"] }), ctx);
    expect(t.input).toBe("TITLE:\nBach - Early life\nPARAGRAPH:\nBorn in 1685.\nQuestion:\nWhen?\nAnswer:\n");
    expect(t.processedOutput).toEqual(["1685"]);
  });
  it("nq-open: the list of answers through exact_match_post", () => {
    expect(port("datasets/nq-open/transform_gen_v0.py")(rec({ question: "capital of france", answer: ["Paris", "The City of Paris"] }), ctx)).toEqual({
      input: "Question: capital of france\nAnswer: ",
      output: ["Paris", "The City of Paris"],
      processedOutput: ["paris", "city of paris"],
    });
  });
  it("lambada and flores", () => {
    expect(port("datasets/lambada/transform_gen_v0.py")(rec({ question: "He opened the", answer: "door" }), ctx)).toEqual({
      input: "Please complete the following sentence:\nHe opened the",
      output: "door",
      processedOutput: "door",
    });
    expect(port("datasets/flores/transform_gen_v0.py")(rec({ passage: ["Hello.", "你好。"] }), ctx)).toEqual({
      input: "Translate the following English statements to Chinese (Simpl).\nSource: Hello.\nTarget: ",
      output: "你好。",
      processedOutput: "你好。",
    });
  });
  it("chid: seven idioms cut to four characters; ppl appends the fluency claim", () => {
    const seven = Array.from({ length: 7 }, (_, i): [string, number] => [`一二三四${i}`, i === 2 ? 1 : 0]);
    const g = port("datasets/chid/transform_gen_v0.py")(rec({ passage: "他______地走了。" }, seven), ctx);
    expect(g.input).toBe(
      "他______地走了。\n请选择______处所填的词\nA. 一二三四\nB. 一二三四\nC. 一二三四\nD. 一二三四\nE. 一二三四\nF. 一二三四\nG. 一二三四\n请从”A“，”B“，”C“，”D“，”E“，”F“，”G“中进行选择。答：",
    );
    expect(g.output).toBe("C");
    expect(() => port("datasets/chid/transform_gen_v0.py")(rec({ passage: "p" }, seven.slice(0, 6)), ctx)).toThrow("expects 7");
    expect(port("datasets/chid/transform_ppl_v0.py")(rec({ passage: "他悄悄地走了。" }, seven), ctx)).toEqual({
      input: "以下句子是否通顺？\n他悄悄地走了。",
      output: "一二三四2这句话是通顺的。",
      processedOutput: "一二三四2这句话是通顺的。",
    });
  });
});
