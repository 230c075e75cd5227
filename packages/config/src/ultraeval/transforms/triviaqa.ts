/** Port of triviaqa's transform (gen v0); the gold answer (or each of a list) goes through exact_match_post. */
import { exactMatchGold, text, type UltraEvalGoldPostprocess, type UltraEvalTransform } from "./types.js";

export function triviaqaGen(post: UltraEvalGoldPostprocess): UltraEvalTransform {
  return (r) => {
    const input = `Answer these questions, your answer should be as simple as possible, start your answer with the prompt 'The answer is '.\nQuestion: ${text(r, "question")}\nAnswer: `;
    return { input, ...exactMatchGold(r, post) };
  };
}
