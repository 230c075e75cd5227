/**
 * SEA-HELM's logprob tasks (`use_logprobs: true`) as yardstick loglikelihood requests.
 *
 * Upstream (LogprobsInferenceStrategy, vLLM only) lets the model write up to the answer tag, appends
 * `answer_tag_separator + gold label` to that reply and reads vLLM's prompt logprobs of the appended
 * tokens; their sum is the row's cumulative log-probability. yardstick asks the same quantity of any
 * server whose `/v1/completions` echoes the prompt with logprobs: the context is the conversation as
 * text, the one continuation is the separator and the gold label.
 *
 * The conversation is rendered through SEA-HELM's base-model chat template (the tokenizer-free text
 * SEA-HELM gives a base model; `bosToken`/`chatTemplate` as for base models), since an echo request
 * takes text and yardstick has no tokenizer to apply an instruct model's own chat template.
 *
 * With `logprobFirstPass` (what the SEA-HELM dialect sets by default) the context ends with the
 * conversation: the engine first lets the model generate from it up to the answer tag (the task's
 * `generation.stopAtFirst`) and scores the continuation after that text. Without it the answer tag is
 * written into the context: one echo request, no generation.
 */
import { type ChatMessage, ConfigError, DataLoadError, type Sample } from "@yardstick/core";
import { z } from "zod";
import { type BaseModelRenderOptions, renderBaseModelPrompt } from "./base-model-template.js";

/** The prompt-builder option giving the text between the answer tag and the label. */
export const logprobPromptOptions = {
  /** Logprob tasks: what goes between the answer tag and the gold label (default " ", as upstream). */
  answerSeparator: z.string().optional(),
  /** Logprob tasks: the context stops before the answer tag, which the model's first pass writes. */
  logprobFirstPass: z.boolean().optional(),
};

/**
 * Upstream's `answer_tag_separator`: what the answer template puts between `{answer_tag}` and
 * `{label}`, else the template's own `answer_tag_separator`, else one space.
 */
export function answerSeparatorFor(template: { answer_template?: string | null; answer_tag_separator?: unknown }): string {
  // Upstream's search: `{answer_tag}` and `{label}` are literal text there, and `.` stops at a newline.
  const between = /(?<=\{answer_tag\})(.*)(?=\{label\})/.exec(template.answer_template ?? "");
  if (between) return between[1]!;
  return typeof template.answer_tag_separator === "string" ? template.answer_tag_separator : " ";
}

/** The gold label a row's logprob request scores, as upstream's `str(label)`. */
function goldLabel(sample: Sample): string {
  const label = sample.label;
  if (typeof label === "string") return label;
  if (typeof label === "number" && Number.isFinite(label)) return String(label);
  throw new DataLoadError(`sample ${sample.id}: a logprob task scores the gold label, but the row's label is ${label === undefined ? "missing" : typeof label}`);
}

/**
 * The context (the conversation as text, then the answer tag unless the model's first pass writes it)
 * and the one continuation (separator + gold label).
 */
export function logprobChoices(
  sample: Sample,
  messages: readonly ChatMessage[],
  opts: BaseModelRenderOptions & { answerTag?: string | null | undefined; answerSeparator?: string | undefined; logprobFirstPass?: boolean | undefined },
): { context: string; continuations: string[] } {
  if (opts.answerTag === null || opts.answerTag === undefined || opts.answerTag === "") {
    throw new ConfigError("a logprob task needs an answer_tag: the gold label is scored after it", { keyPath: ["prompt_template", "answer_tag"] });
  }
  const rendered = renderBaseModelPrompt(messages, opts);
  const context = opts.logprobFirstPass === true ? rendered : rendered + opts.answerTag;
  return { context, continuations: [(opts.answerSeparator ?? " ") + goldLabel(sample)] };
}
