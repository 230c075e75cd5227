/**
 * Ports of the reading-comprehension and completion transforms (drcd, record, squad, quac: gold
 * answers through exact_match_post; lambada; flores), and chid's idiom cloze.
 */
import { DataLoadError } from "@yardstick/core";
import { correctIndex, correctOption, exactMatchGold, field, letter, passagePair, text, type UltraEvalGoldPostprocess, type UltraEvalTransform } from "./types.js";

export function drcdGen(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r) => ({
    input: `根据文章回答问题。你的答案应该尽可能简练，请以 ‘答案是’ 开头的句式作答。\n文章：${text(r, "passage")}\n问：${text(r, "question")}\n答：`,
    ...exactMatchGold(r, post),
  });
}

export function recordGen(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r) => ({
    input: `Passage: ${text(r, "passage")}\n${text(r, "question").replaceAll("@placeholder", "____")}\nQuestion: What entity does ____ refer to in the result? Give me the entity name: `,
    ...exactMatchGold(r, post),
  });
}

/** squad: the context is the passage's second item (the first is the title); " Answer: " starts with a space upstream. */
export function squadGen(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r) => {
    const [, context] = passagePair(r);
    return {
      input: `${context}\nAccording to the above passage, answer the following question. If it is impossible to answer according to the passage, answer \`impossible to answer\`:\nQuestion: ${text(r, "question")}\n Answer: `,
      ...exactMatchGold(r, post),
    };
  };
}

/** quac rows: passage = [title, section title, paragraph]. */
export function quacGen(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r) => {
    const passage = field(r, "passage");
    const [title, section, paragraph] = Array.isArray(passage) ? passage : [];
    if (typeof title !== "string" || typeof section !== "string" || typeof paragraph !== "string") {
      throw new DataLoadError('the record\'s "passage" must be a list [title, section title, paragraph]');
    }
    return { input: `TITLE:\n${title} - ${section}\nPARAGRAPH:\n${paragraph}\nQuestion:\n${text(r, "question")}\nAnswer:\n`, ...exactMatchGold(r, post) };
  };
}

export const lambadaGen: UltraEvalTransform = (r) => {
  const answer = text(r, "answer");
  return { input: `Please complete the following sentence:\n${text(r, "question")}`, output: answer, processedOutput: answer };
};

/** flores rows: passage = [English source, Chinese target]. */
export const floresGen: UltraEvalTransform = (r) => {
  const [source, target] = passagePair(r);
  return { input: `Translate the following English statements to Chinese (Simpl).\nSource: ${source}\nTarget: `, output: target, processedOutput: target };
};

/** chid gen: exactly seven candidate idioms, each shown as its first four characters. */
export const chidGen: UltraEvalTransform = (r) => {
  if (r.targetScores.length !== 7) throw new DataLoadError(`target_scores has ${r.targetScores.length} options, the transform expects 7`);
  const options = r.targetScores.map(([k], i) => `${letter(i)}. ${[...k].slice(0, 4).join("")}\n`).join("");
  const gold = letter(correctIndex(r));
  return { input: `${text(r, "passage")}\n请选择______处所填的词\n${options}请从”A“，”B“，”C“，”D“，”E“，”F“，”G“中进行选择。答：`, output: gold, processedOutput: gold };
};

/** chid ppl: is the sentence fluent; the gold is the correct option followed by the fluency claim. */
export const chidPpl: UltraEvalTransform = (r) => {
  const gold = `${correctOption(r)}这句话是通顺的。`.trim();
  return { input: `以下句子是否通顺？\n${text(r, "passage")}`, output: gold, processedOutput: gold };
};

/** nq-open: the answers (a list in NQ-open's rows) through exact_match_post. */
export function nqOpenGen(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r) => ({ input: `Question: ${text(r, "question")}\nAnswer: `, ...exactMatchGold(r, post) });
}
