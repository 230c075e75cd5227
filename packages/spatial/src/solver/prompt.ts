import { ANSWER_TAG } from "../prompts.js";
import { solveQuestion } from "./answer.js";

/** What the solver answers when the text gives it nothing (e.g. an image prompt). */
function fallbackGuess(question: string): string | undefined {
  if (/^Is there /.test(question)) return "Yes";
  if (/^How many /.test(question)) return "1";
  if (/^Where is /.test(question)) return "Above Left";
  if (/^What shape is /.test(question)) return "large red square";
  return undefined;
}

/**
 * Answers a spatial prompt (the SEA-HELM template's "Canvas:\n...\n\nQuestion: ..." text, or the
 * upstream "description\nQuestion: q" form) as `Answer: <x>`; undefined when it is not one.
 */
export function solveSpatialPrompt(promptText: string): string | undefined {
  const qAt = promptText.lastIndexOf("Question:");
  if (qAt < 0) return undefined;
  const question = (promptText.slice(qAt + "Question:".length).split("\n")[0] ?? "").trim();
  let description = promptText.slice(0, qAt);
  const canvasAt = description.lastIndexOf("Canvas:\n");
  if (canvasAt >= 0) description = description.slice(canvasAt + "Canvas:\n".length);
  const result = solveQuestion(description, question);
  const answer = result.answer ?? fallbackGuess(question);
  return answer === undefined ? undefined : `${ANSWER_TAG} ${answer}`;
}
