/** The UltraEval task-level postprocess functions on one output, keyed by their upstream names. */
import { agievalClozePost } from "./agieval-cloze.js";
import { bbhPost, exactMatchPost, gsm8kPost, theoremqaPost } from "./answer-phrase.js";
import {
  agievalMultipleAnswerPost,
  agievalSingleAnswerPost,
  gaokaoFiveOutOfSevenPost,
  gaokaoMultiChoicePost,
  gaokaoMultiQuestionChoicePost,
  gaokaoSingleChoicePost,
  hellaswagPost,
} from "./choice-letters.js";
import { arithmeticPost, humanevalChatgpt, humanevalPost, mbppPost, newMbppPost, untilReturnPost } from "./code-cut.js";
import { mathPost } from "./math-post.js";
import { commonMathPost } from "./strip-string.js";

/** `null` only from `agieval_cloze_post` (upstream `None`). */
export type UltraevalTextPost = (text: string) => string | null;

export const ULTRAEVAL_TEXT_POSTS = {
  general_torch: (text: string) => text,
  exact_match_post: exactMatchPost,
  math_post: mathPost,
  common_math_post: commonMathPost,
  until_return_post: untilReturnPost,
  humaneval_post: humanevalPost,
  humaneval_chatgpt: humanevalChatgpt,
  mbpp_post: mbppPost,
  new_mbpp_post: newMbppPost,
  arithmetic_post: arithmeticPost,
  theoremqa_post: theoremqaPost,
  gsm8k_post: gsm8kPost,
  hellaswag_post: hellaswagPost,
  bbh_post: bbhPost,
  gaokao_single_choice_post: gaokaoSingleChoicePost,
  gaokao_multi_question_choice_post: gaokaoMultiQuestionChoicePost,
  gaokao_multi_choice_post: gaokaoMultiChoicePost,
  gaokao_five_out_of_seven_post: gaokaoFiveOutOfSevenPost,
  agieval_single_answer_post: agievalSingleAnswerPost,
  agieval_multiple_answer_post: agievalMultipleAnswerPost,
  agieval_cloze_post: agievalClozePost,
} as const satisfies Record<string, UltraevalTextPost>;

export type UltraevalTextPostName = keyof typeof ULTRAEVAL_TEXT_POSTS;
