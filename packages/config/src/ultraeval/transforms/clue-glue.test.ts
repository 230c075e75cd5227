import { describe, expect, it } from "vitest";
import type { UltraEvalRecord } from "./index.js";
import { wiredTransforms } from "./wired-transforms.test-helper.js";

const rec = (fields: Record<string, unknown>, targetScores: [string, number][]): UltraEvalRecord => ({ fields, targetScores });
const ctx = { taskName: "x", fewshot: 0 };
const port = (p: string) => wiredTransforms.get(p)!;
const pair = ["今天天气好。", "今天天气不错。"];
const yesNo: [string, number][] = [
  [" 是 ", 0],
  ["否", 1],
];

// Expected texts follow the upstream Python transforms line by line (their odd quotation marks included).
describe("CLUE transforms", () => {
  it("afqmc: gen asks whether the two questions match; ppl leaves the first quotation open", () => {
    expect(port("datasets/afqmc/transform_gen_v0.py")(rec({ passage: pair }, yesNo), ctx)).toEqual({
      input: "语句一：“今天天气好。”\n语句二：“今天天气不错。”\n语句一与语句二是关于蚂蚁金融产品的疑问，两者所询问的内容是否完全一致？\nA. 不完全一致\nB. 完全一致\n请从“A”，“B”中进行选择。\n答：",
      output: "B",
      processedOutput: "B",
    });
    expect(port("datasets/afqmc/transform_ppl_v0.py")(rec({ passage: pair }, yesNo), ctx).input).toBe(
      "语句一：“今天天气好。\n语句二：“今天天气不错。”\n语句一与语句二是关于蚂蚁金融产品的疑问，两者所询问的内容是否完全一致？",
    );
  });
  it("tnews: fifteen fixed labels A–O; a gold past O is refused", () => {
    const scores = Array.from({ length: 15 }, (_, i): [string, number] => [`l${i}`, i === 14 ? 1 : 0]);
    const t = port("datasets/tnews/transform_gen_v0.py")(rec({ question: "股市大涨" }, scores), ctx);
    expect(t.input.startsWith("股市大涨\n请判断上述内容属于什么新闻？\nA. 农业新闻\nB. 旅游新闻\n")).toBe(true);
    expect(t.input.endsWith("O. 股票市场类别新闻\n请从“A”，“B”，“C”，“D”，“E”，“F”，“G”，“H”，“I”，“J”，“K”，“L”，“M”，“N”，“O”中进行选择。\n答：")).toBe(true);
    expect(t.output).toBe("O");
    const sixteen = [...scores.map(([k]): [string, number] => [k, 0]), ["l15", 1] as [string, number]];
    expect(() => port("datasets/tnews/transform_gen_v0.py")(rec({ question: "q" }, sixteen), ctx)).toThrow("names only 15 answers");
    expect(port("datasets/tnews/transform_ppl_v0.py")(rec({ question: "股市大涨" }, scores), ctx)).toEqual({ input: "股市大涨\n上述内容属于什么新闻？", output: "l14", processedOutput: "l14" });
  });
  it("eprstmt and cluewsc keep upstream's reversed quotation marks", () => {
    expect(port("datasets/eprstmt/transform_gen_v0.py")(rec({ passage: "很好用" }, yesNo), ctx).input).toBe(
      "内容： 很好用。请对上述内容进行情绪分类。\nA. 消极\nB. 积极\n请从”A“，”B“中进行选择。\n答：",
    );
    expect(port("datasets/eprstmt/transform_ppl_v0.py")(rec({ passage: "很好用" }, yesNo), ctx)).toEqual({ input: '内容： "很好用"。情绪分类：', output: "否", processedOutput: "否" });
    const wsc = rec({ passage: "小明把书给了小红，她很高兴。", question: ["小红", "她"] }, yesNo);
    expect(port("datasets/cluewsc/transform_gen_v0.py")(wsc, ctx).input).toBe("小明把书给了小红，她很高兴。\n此处，“她”是否指代“小红“？\nA. 是\nB. 否\n请从”A“，”B“中进行选择。\n答：");
    expect(port("datasets/cluewsc/transform_ppl_v0.py")(wsc, ctx).input).toBe("小明把书给了小红，她很高兴。\n此处，代词“她”被用于指代“小红”吗?请回答是或者否。");
    expect(() => port("datasets/cluewsc/transform_gen_v0.py")(rec({ passage: "p", question: "她" }, yesNo), ctx)).toThrow("list of two texts");
  });
  it("bustm, ocnli and ocnli-fc", () => {
    const three: [string, number][] = [
      ["矛盾", 0],
      ["无关", 0],
      ["蕴含", 1],
    ];
    expect(port("datasets/bustm/transform_ppl_v0.py")(rec({ passage: pair }, yesNo), ctx).input).toBe("语句一：“今天天气好。”\n语句二：“今天天气不错。”\n请判断语句一和语句二说的是否是一个意思？");
    expect(port("datasets/ocnli/transform_gen_v0.py")(rec({ passage: pair }, three), ctx)).toMatchObject({ output: "C" });
    expect(port("datasets/ocnli-fc/transform_ppl_v0.py")(rec({ passage: pair }, three), ctx).input).toBe(
      "阅读文章：今天天气好。\n根据上文，回答如下问题：今天天气不错。\n请从“无关”，“蕴含”，“矛盾”中进行选择。\n答：",
    );
  });
});

describe("SuperGLUE-style transforms", () => {
  const en = ["A man is walking.", "A person moves."];
  const yes: [string, number][] = [
    ["Yes", 1],
    ["No", 0],
  ];
  it("rte and ax-g share the gen prompt; rte's ppl prompt ends in a space, ax-g's in a newline", () => {
    const gen = "A man is walking.\nA person moves.\nIs the sentence below entailed by the sentence above?\nA. Yes\nB. No\nAnswer: ";
    expect(port("datasets/rte/transform_gen_v0.py")(rec({ passage: en }, yes), ctx)).toEqual({ input: gen, output: "A", processedOutput: "A" });
    expect(port("datasets/ax-g/transform_gen_v0.py")(rec({ passage: en }, yes), ctx).input).toBe(gen);
    expect(port("datasets/rte/transform_ppl_v0.py")(rec({ passage: en }, yes), ctx).input).toBe("A man is walking.\nA person moves.\nIs the sentence below entailed by the sentence above? ");
    expect(port("datasets/ax-g/transform_ppl_v0.py")(rec({ passage: en }, yes), ctx).input).toBe("A man is walking.\nA person moves.\nIs the sentence below entailed by the sentence above?\n");
  });
  it("cb, wic and wsc", () => {
    expect(port("datasets/cb/transform_ppl_v0.py")(rec({ passage: en }, yes), ctx).input).toBe("A man is walking.\nA person moves.\nWhat is the relation between the two sentences? ");
    expect(port("datasets/wic/transform_gen_v0.py")(rec({ passage: en, question: "walk" }, yes), ctx).input).toBe(
      "Sentence 1: A man is walking.\nSentence 2: A person moves.\nAre 'walk' in the above two sentenses the same?\nA. Yes\nB. No\nAnswer: ",
    );
    expect(port("datasets/wic/transform_ppl_v0.py")(rec({ passage: en, question: "walk" }, yes), ctx).input).toBe(
      "Sentence 1: A man is walking.\nSentence 2: A person moves.\nAre walk in the above two sentenses the same?\n",
    );
    const wsc = rec({ passage: "Mark told Pete he was late.", question: ["Pete", "he"] }, yes);
    expect(port("datasets/wsc/transform_gen_v0.py")(wsc, ctx).input).toBe("Passage: Mark told Pete he was late.\nDoes the pronoun # he # refer to * Pete *?\nA. Yes\nB. No\nAnswer: ");
    expect(port("datasets/wsc/transform_ppl_v0.py")(wsc, ctx)).toEqual({
      input: "Passage: Mark told Pete he was late.\nDoes the pronoun # he # refer to * Pete *?\nAnswer: ",
      output: "Yes",
      processedOutput: "Yes",
    });
  });
});
