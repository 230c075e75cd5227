/** Ports of the boolq, truthfulqa, winogrande, tydiqa, mbpp and wmt20-zh-en transforms. */
import { DataLoadError } from "@yardstick/core";
import { ENGLISH_WORDING, optionLines } from "./multiple-choice.js";
import { correctIndex, correctOption, exactMatchGold, field, letter, text, type UltraEvalGoldPostprocess, type UltraEvalTransform } from "./types.js";

export const boolqGen: UltraEvalTransform = (r) => {
  const gold = `(${letter(correctIndex(r))})`;
  const input = `Context:\n${text(r, "passage")}\nQuestion:\n${text(r, "question")}?\n${ENGLISH_WORDING.requirement}${ENGLISH_WORDING.options}${optionLines(r)}${ENGLISH_WORDING.answer}`;
  return { input, output: gold, processedOutput: gold };
};

export const boolqPpl: UltraEvalTransform = (r) => {
  const gold = correctOption(r).trim();
  return { input: `${text(r, "passage")}\nQuestion: ${text(r, "question")}?\nAnswer: `, output: gold, processedOutput: gold };
};

/** Every true answer (mc2 has several); few-shot shows the first. */
export const truthfulqaPpl: UltraEvalTransform = (r) => {
  const golds = r.targetScores.filter(([, v]) => v === 1).map(([k]) => k);
  return { input: `Question: ${text(r, "question")}\nAnswer: `, output: golds, processedOutput: golds };
};

/** The option keys hold the rest of the sentence; the input is the question as is. */
export const winograndePpl: UltraEvalTransform = (r) => {
  const gold = correctOption(r);
  return { input: text(r, "question"), output: gold, processedOutput: gold };
};

/** `data['passage'][1]`: the second passage of a list (or, as Python does for a string, its second character). */
function secondPassage(value: unknown): string {
  if (Array.isArray(value) && typeof value[1] === "string") return value[1];
  if (typeof value === "string" && [...value].length > 1) return [...value][1]!;
  throw new DataLoadError('the record\'s "passage" has no item 1');
}

/** tydiqa's gold answers (a list in its rows) go through `exact_match_post`. */
export function tydiqaGen(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r) => {
    const input = `Answer the following question based on the information in the given passage.\n\nPassage: ${secondPassage(field(r, "passage"))}\nQuestion: ${text(r, "question")}\nAnswer: `;
    return { input, ...exactMatchGold(r, post) };
  };
}

export const mbppGen: UltraEvalTransform = (r) => {
  const tests = field(r, "test_list");
  if (!Array.isArray(tests) || !tests.every((t) => typeof t === "string")) throw new DataLoadError('the record\'s "test_list" must be a list of strings');
  const code = text(r, "code");
  return { input: `"""${text(r, "text")}\n${tests.join("\n")}"""`, output: code, processedOutput: code };
};

export const wmt20ZhEnGen: UltraEvalTransform = (r) => {
  const answer = `${text(r, "answer")}\n`;
  return { input: `请将下面这段内容从中文翻译为英文：\n${text(r, "question")}\n译文：\n`, output: answer, processedOutput: answer };
};
