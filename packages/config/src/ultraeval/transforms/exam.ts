/**
 * Ports of the exam-style transforms (medqa-usmle, medqa-mcmle ppl, medmcqa ppl, jecqa: four
 * options inline), strategyqa (background, facts, yes/no) and multirc (question, claim, yes/no).
 */
import { DataLoadError } from "@yardstick/core";
import { field, letter, letterGold, questionPair, strippedGold, text, type UltraEvalRecord, type UltraEvalTransform } from "./types.js";

/** The first four options as `A. x` lines (upstream reads exactly four and fails on fewer). */
function fourOptionLines(r: UltraEvalRecord): string {
  if (r.targetScores.length < 4) throw new DataLoadError(`target_scores has ${r.targetScores.length} options, the transform reads four`);
  return r.targetScores
    .slice(0, 4)
    .map(([k], i) => `${letter(i)}. ${k}`)
    .join("\n");
}

const englishExam = (r: UltraEvalRecord) => `Question: ${text(r, "question")}\nOptions: ${fourOptionLines(r)}\nAnswer: `;
const chineseExam = (r: UltraEvalRecord) => `问题：${text(r, "question")}\n选项：${fourOptionLines(r)}\n答案：`;

/** medqa-usmle gen: the gold letter, no parentheses. */
export const englishExamGen: UltraEvalTransform = (r) => ({ input: englishExam(r), ...letterGold(r) });
/** medqa-usmle ppl and medmcqa ppl: the gold option text. */
export const englishExamPpl: UltraEvalTransform = (r) => ({ input: englishExam(r), ...strippedGold(r) });
/** jecqa gen. */
export const chineseExamGen: UltraEvalTransform = (r) => ({ input: chineseExam(r), ...letterGold(r) });
/** jecqa ppl and medqa-mcmle ppl. */
export const chineseExamPpl: UltraEvalTransform = (r) => ({ input: chineseExam(r), ...strippedGold(r) });

/** strategyqa rows: passage = [term, description, facts, decomposition]. */
function strategyBackground(r: UltraEvalRecord): string {
  const passage = field(r, "passage");
  const [term, description, facts] = Array.isArray(passage) ? passage : [];
  if (typeof term !== "string" || typeof description !== "string" || facts === undefined) {
    throw new DataLoadError('the record\'s "passage" must be a list [term, description, facts, ...]');
  }
  // Python's ", ".join: a list of texts, or a text joined character by character.
  const factList = typeof facts === "string" ? [...facts] : facts;
  if (!Array.isArray(factList) || !factList.every((f) => typeof f === "string")) throw new DataLoadError('the record\'s "passage"[2] (the facts) must be a list of texts');
  return `Background: ${term} - ${description}\nFact: ${factList.join(", ")}\nQuestion: ${text(r, "question")}\n`;
}

/** strategyqa gen: A when the option "Yes" scores 1, else B. */
export const strategyqaGen: UltraEvalTransform = (r) => {
  const yes = r.targetScores.find(([k]) => k === "Yes");
  const gold = yes?.[1] === 1 ? "A" : "B";
  return { input: `${strategyBackground(r)}A. Yes\nB. No\nAnswer: `, output: gold, processedOutput: gold };
};

export const strategyqaPpl: UltraEvalTransform = (r) => ({ input: `${strategyBackground(r)}Answer: `, ...strippedGold(r) });

export const multircGen: UltraEvalTransform = (r) => {
  const [question, claim] = questionPair(r);
  return { input: `${text(r, "passage")}\nQuestion: ${question}\nClaim: ${claim}\nIs it true?\nA. Yes\nB. No\nAnswer: `, ...letterGold(r, 2) };
};

export const multircPpl: UltraEvalTransform = (r) => {
  const [question, claim] = questionPair(r);
  return { input: `${text(r, "passage")}\nQuestion: ${question}\nClaim: ${claim}\nIs it true? `, ...strippedGold(r) };
};
