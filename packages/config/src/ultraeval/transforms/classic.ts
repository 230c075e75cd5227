/**
 * Ports of the transforms of the small English benchmarks (piqa, openbookqa, commonsenseqa, siqa,
 * copa, storycloze), winogrande's gen prompt and wmt20 en→zh.
 */
import { DataLoadError, pyLower } from "@yardstick/core";
import { ENGLISH_WORDING, lettered } from "./multiple-choice.js";
import { correctIndex, correctOption, field, letter, letterGold, strippedGold, text, type UltraEvalTransform } from "./types.js";

/** The option keys when the transform unpacks exactly `n` of them (Python raises otherwise). */
function exactlyOptions(r: Parameters<UltraEvalTransform>[0], n: number): string[] {
  if (r.targetScores.length !== n) throw new DataLoadError(`target_scores has ${r.targetScores.length} options, the transform expects ${n}`);
  return r.targetScores.map(([k]) => k);
}

/** Python's `"\n".join(x)`: a list of texts joined by newlines (a string is joined character by character, as Python does). */
function joinedLines(value: unknown): string {
  if (typeof value === "string") return [...value].join("\n");
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join("\n");
  throw new DataLoadError('the record\'s "passage" must be a list of texts');
}

/** winogrande gen v1: the question with each of the first two endings as options A and B. */
export const winograndeGen: UltraEvalTransform = (r) => {
  if (r.targetScores.length < 2) throw new DataLoadError(`target_scores has ${r.targetScores.length} options, the transform reads two`);
  const q = text(r, "question");
  const [[first], [second]] = r.targetScores as [readonly [string, number], readonly [string, number]];
  const w = ENGLISH_WORDING;
  const input = `${w.question}Which of the following is a good sentence?\n${w.requirement}${w.options}(A) ${q}${first}\n(B) ${q}${second}\n${w.answer}`;
  const gold = `(${letter(correctIndex(r))})`;
  return { input, output: gold, processedOutput: gold };
};

export const wmt20EnZhGen: UltraEvalTransform = (r) => {
  const answer = `${text(r, "answer")}\n`;
  return { input: `请将下面这段内容从英文翻译为中文：\n${text(r, "question")}\n译文：\n`, output: answer, processedOutput: answer };
};

/** piqa gen v1: the lettered multiple-choice layout of mmlu. */
export const piqaGen: UltraEvalTransform = (r) => lettered(r, ENGLISH_WORDING);

export const piqaPpl: UltraEvalTransform = (r) => ({ input: `Question: ${text(r, "question")} \nAnswer: `, ...strippedGold(r) });

export const openbookqaGen: UltraEvalTransform = (r) => {
  const [a, b, c, d] = exactlyOptions(r, 4);
  return { input: `Given the fact: ${text(r, "passage")}\nQuestion: ${text(r, "question")}\nA. ${a}\nB. ${b}\nC. ${c}\nD. ${d}\nAnswer: `, ...letterGold(r) };
};

/** openbookqa ppl: a question ending in "?" is asked; otherwise the fact is continued by the question as a clause. */
export const openbookqaPpl: UltraEvalTransform = (r) => {
  const q = text(r, "question");
  const fact = pyLower(text(r, "passage")).trim();
  const input = q.endsWith("?") ? `Given the fact: ${fact} \nQuestion: ${pyLower(q)}\nAnswer: ` : `Given the fact: ${fact}, we can infer that ${pyLower(q)} `;
  return { input, ...strippedGold(r) };
};

export const commonsenseqaGen: UltraEvalTransform = (r) => {
  // Upstream labels at most five options (A–E).
  if (r.targetScores.length > 5) throw new DataLoadError(`target_scores has ${r.targetScores.length} options, the transform labels at most five`);
  const options = r.targetScores.map(([k], i) => `${letter(i)}. ${k}\n`).join("");
  return { input: `${text(r, "question")}\n${options}Answer: `, ...letterGold(r) };
};

export const commonsenseqaPpl: UltraEvalTransform = (r) => ({ input: `Question: ${text(r, "question")}\nAnswer: `, ...strippedGold(r) });

export const siqaGen: UltraEvalTransform = (r) => {
  const options = r.targetScores.map(([k], i) => `${letter(i)}. ${k}\n`).join("");
  return { input: `${text(r, "passage")}\nQuestion: ${text(r, "question")}\n${options}Answer: `, ...letterGold(r) };
};

export const siqaPpl: UltraEvalTransform = (r) => ({
  input: `Based on the context: ${text(r, "passage")}\nQuestion: ${text(r, "question")}\nAnswer: `,
  ...strippedGold(r),
});

export const copaGen: UltraEvalTransform = (r) => {
  const [a, b] = exactlyOptions(r, 2);
  return { input: `${text(r, "passage")}\nQuestion: Which may be the ${text(r, "question")}?\nA. ${a}\nB. ${b}\nAnswer: `, ...letterGold(r) };
};

export const copaPpl: UltraEvalTransform = (r) => ({ input: `${text(r, "passage")}\nQuestion: What may be the ${text(r, "question")}?\nAnswer: `, ...strippedGold(r) });

export const storyclozeGen: UltraEvalTransform = (r) => {
  const [a, b] = exactlyOptions(r, 2);
  const input = `${joinedLines(field(r, "passage"))}\nQuestion: Which ending makes the most sense?\nA. ${a}\nB. ${b}\nYou may choose between 'A' and 'B'.\nAnswer: `;
  return { input, ...letterGold(r) };
};

/** storycloze ppl: the story lines, then the ending as the continuation (gold not stripped). */
export const storyclozePpl: UltraEvalTransform = (r) => {
  const gold = correctOption(r);
  return { input: `${joinedLines(field(r, "passage"))}\n`, output: gold, processedOutput: gold };
};
