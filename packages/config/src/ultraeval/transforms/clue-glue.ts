/**
 * Ports of the CLUE (afqmc, tnews, eprstmt, bustm, ocnli, ocnli-fc, cluewsc) and SuperGLUE-style
 * (cb, ax-g, rte, wic, wsc) transforms: sentence pairs or a passage, fixed answer letters.
 */
import { correctIndex, letter, letterGold, passagePair, questionPair, strippedGold, text, type UltraEvalTransform } from "./types.js";

/** wsc and cluewsc rows give the noun span, then the pronoun span. */
const questionSpans = questionPair;

// ---------------------------------------------------------------- CLUE

export const afqmcGen: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  const gold = letter(correctIndex(r));
  return {
    input: `语句一：“${a}”\n语句二：“${b}”\n语句一与语句二是关于蚂蚁金融产品的疑问，两者所询问的内容是否完全一致？\nA. 不完全一致\nB. 完全一致\n请从“A”，“B”中进行选择。\n答：`,
    output: gold,
    processedOutput: gold,
  };
};

/** Upstream leaves the first quotation open (no closing ” after the first sentence). */
export const afqmcPpl: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `语句一：“${a}\n语句二：“${b}”\n语句一与语句二是关于蚂蚁金融产品的疑问，两者所询问的内容是否完全一致？`, ...strippedGold(r) };
};

const TNEWS_LABELS = [
  "农业新闻",
  "旅游新闻",
  "游戏新闻",
  "科技类别公司新闻",
  "体育类别新闻",
  "初升高教育新闻",
  "娱乐圈新闻",
  "投资资讯",
  "军事类别常识",
  "车辆新闻",
  "楼市新闻",
  "环球不含中国类别新闻",
  "书籍文化历史类别新闻",
  "故事类别新闻",
  "股票市场类别新闻",
];

export const tnewsGen: UltraEvalTransform = (r) => {
  const list = TNEWS_LABELS.map((label, i) => `${letter(i)}. ${label}`).join("\n");
  const range = TNEWS_LABELS.map((_, i) => `“${letter(i)}”`).join("，");
  return { input: `${text(r, "question")}\n请判断上述内容属于什么新闻？\n${list}\n请从${range}中进行选择。\n答：`, ...letterGold(r, TNEWS_LABELS.length) };
};

export const tnewsPpl: UltraEvalTransform = (r) => ({ input: `${text(r, "question")}\n上述内容属于什么新闻？`, ...strippedGold(r) });

/** The quotation marks around A and B are reversed upstream (”A“); kept. */
export const eprstmtGen: UltraEvalTransform = (r) => ({
  input: `内容： ${text(r, "passage")}。请对上述内容进行情绪分类。\nA. 消极\nB. 积极\n请从”A“，”B“中进行选择。\n答：`,
  ...letterGold(r, 2),
});

export const eprstmtPpl: UltraEvalTransform = (r) => ({ input: `内容： "${text(r, "passage")}"。情绪分类：`, ...strippedGold(r) });

export const bustmGen: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `语句一：“${a}”\n语句二：“${b}”\n请判断语句一和语句二说的是否是一个意思？\nA. 相关\nB. 无关\n请从“A”，“B”中进行选择。\n答：`, ...letterGold(r, 2) };
};

export const bustmPpl: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `语句一：“${a}”\n语句二：“${b}”\n请判断语句一和语句二说的是否是一个意思？`, ...strippedGold(r) };
};

export const ocnliGen: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `语句一：“${a}”\n语句二：“${b}”\n请问这两句话是什么关系？\nA. 矛盾\nB. 无关\nC. 蕴含\n请从“A”，“B”，“C”中进行选择。\n答：`, ...letterGold(r, 3) };
};

export const ocnliPpl: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `语句一：“${a}”\n语句二：“${b}”\n请问这两句话是什么关系？`, ...strippedGold(r) };
};

export const ocnliFcGen: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `阅读文章：${a}\n根据上文，回答如下问题：${b}\nA. 错\nB. 可能\nC. 对\n请从“A”，“B”，“C”中进行选择。\n答：`, ...letterGold(r, 3) };
};

export const ocnliFcPpl: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `阅读文章：${a}\n根据上文，回答如下问题：${b}\n请从“无关”，“蕴含”，“矛盾”中进行选择。\n答：`, ...strippedGold(r) };
};

/** Upstream's quotation marks are mismatched here (“…“ and ”A“); kept. */
export const cluewscGen: UltraEvalTransform = (r) => {
  const [noun, pronoun] = questionSpans(r);
  return { input: `${text(r, "passage")}\n此处，“${pronoun}”是否指代“${noun}“？\nA. 是\nB. 否\n请从”A“，”B“中进行选择。\n答：`, ...letterGold(r, 2) };
};

export const cluewscPpl: UltraEvalTransform = (r) => {
  const [noun, pronoun] = questionSpans(r);
  return { input: `${text(r, "passage")}\n此处，代词“${pronoun}”被用于指代“${noun}”吗?请回答是或者否。`, ...strippedGold(r) };
};

// ---------------------------------------------------------------- SuperGLUE-style

export const cbGen: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `${a}\n${b}\nWhat is the relation between the two sentences?\nA. Contradiction\nB. Entailment\nC. Neutral\nAnswer: `, ...letterGold(r, 3) };
};

export const cbPpl: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `${a}\n${b}\nWhat is the relation between the two sentences? `, ...strippedGold(r) };
};

/** ax-g gen and rte gen: the same entailment question with fixed Yes/No letters. */
export const entailmentYesNoGen: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `${a}\n${b}\nIs the sentence below entailed by the sentence above?\nA. Yes\nB. No\nAnswer: `, ...letterGold(r, 2) };
};

/** rte ppl: the question ends in a space, not a newline as ax-b's and ax-g's do. */
export const rtePpl: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `${a}\n${b}\nIs the sentence below entailed by the sentence above? `, ...strippedGold(r) };
};

export const wicGen: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `Sentence 1: ${a}\nSentence 2: ${b}\nAre '${text(r, "question")}' in the above two sentenses the same?\nA. Yes\nB. No\nAnswer: `, ...letterGold(r, 2) };
};

/** wic ppl: the word is not quoted, unlike in the gen prompt. */
export const wicPpl: UltraEvalTransform = (r) => {
  const [a, b] = passagePair(r);
  return { input: `Sentence 1: ${a}\nSentence 2: ${b}\nAre ${text(r, "question")} in the above two sentenses the same?\n`, ...strippedGold(r) };
};

export const wscGen: UltraEvalTransform = (r) => {
  const [noun, pronoun] = questionSpans(r);
  return { input: `Passage: ${text(r, "passage")}\nDoes the pronoun # ${pronoun} # refer to * ${noun} *?\nA. Yes\nB. No\nAnswer: `, ...letterGold(r, 2) };
};

export const wscPpl: UltraEvalTransform = (r) => {
  const [noun, pronoun] = questionSpans(r);
  return { input: `Passage: ${text(r, "passage")}\nDoes the pronoun # ${pronoun} # refer to * ${noun} *?\nAnswer: `, ...strippedGold(r) };
};
