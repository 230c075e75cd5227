/**
 * The `seahelm-legacy` prompt builder: prompts of SEA-HELM's earlier `prompt_template` shape
 * (`template`, `fewshot_example`, `fewshot_label`), where the few-shot examples are text inside the
 * user turn instead of earlier turns:
 *
 *   example_i        = fewshot_example.format(**ex.prompts[0], answer_tag=tag)
 *                      + "\n" + fewshot_label.format(**ex, **ex.prompts[0], answer_tag=tag)
 *   fewshot_examples = "" when 0-shot, else "\n\n" + "\n\n".join(example_i)
 *   user             = template.format(**row.prompts[turn-1], fewshot_examples=..., answer_tag=tag).strip()
 *
 * The block goes where the template puts `{fewshot_examples}` (the guide's example ends its
 * instructions with it). Turn t > 1 replays the earlier turns with their responses; later turns get
 * an empty examples block. `baseModel: true` returns one string as `seahelm-chat` does (the
 * base-model chat template). No system message.
 */
import { type ChatMessage, ConfigError, type PromptBuilderV1, type PromptBuildInput, pyStrip, type Sample } from "@yardstick/core";
import { z } from "zod";
import { baseModelPromptOptions, renderBaseModelPrompt } from "./base-model-template.js";
import { exampleColumns, mergeKwargs, turnPrompt } from "./prompt-values.js";
import { pyFormat } from "./python-format.js";

export const SEAHELM_LEGACY_PROMPT_ID = "seahelm-legacy";

export const seahelmLegacyOptionsSchema = z.object({
  template: z.string(),
  fewshotExample: z.string().optional(),
  fewshotLabel: z.string().optional(),
  answerTag: z.string().nullable().optional(),
  ...baseModelPromptOptions,
});

export type SeahelmLegacyOptions = z.output<typeof seahelmLegacyOptionsSchema>;

const parsedOptions = new WeakMap<object, SeahelmLegacyOptions>();

function parseOptions(options: Record<string, unknown>): SeahelmLegacyOptions {
  const known = parsedOptions.get(options);
  if (known) return known;
  const parsed = seahelmLegacyOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${SEAHELM_LEGACY_PROMPT_ID} options: ${issue.message}`, { keyPath: ["prompt", "options", ...issue.path.map(String)] });
  }
  parsedOptions.set(options, parsed.data);
  return parsed.data;
}

/** The text that replaces `{fewshot_examples}`. */
export function legacyExamplesBlock(examples: readonly Sample[], opts: SeahelmLegacyOptions): string {
  if (examples.length === 0) return "";
  const { fewshotExample, fewshotLabel } = opts;
  if (fewshotExample === undefined || fewshotLabel === undefined) {
    throw new ConfigError("few-shot examples need prompt_template.fewshot_example and fewshot_label", {
      keyPath: ["prompt_template", fewshotExample === undefined ? "fewshot_example" : "fewshot_label"],
    });
  }
  const tag = { answer_tag: opts.answerTag ?? null };
  const parts = examples.map((ex) => {
    const first = turnPrompt(ex, 1);
    const question = pyFormat(fewshotExample, mergeKwargs(fewshotExample, first, tag));
    const answer = pyFormat(fewshotLabel, mergeKwargs(fewshotLabel, exampleColumns(ex), first, tag));
    return `${question}\n${answer}`;
  });
  return `\n\n${parts.join("\n\n")}`;
}

export function buildSeahelmLegacy(input: PromptBuildInput, options: Record<string, unknown>): ChatMessage[] | string {
  const opts = parseOptions(options);
  const { turn } = input;
  if (!Number.isInteger(turn) || turn < 1) throw new ConfigError(`turn must be a positive integer, got ${turn}`);
  if (input.previousResponses.length < turn - 1) {
    throw new ConfigError(`turn ${turn} needs ${turn - 1} previous response(s), got ${input.previousResponses.length}`);
  }
  const tag = { answer_tag: opts.answerTag ?? null };
  const messages: ChatMessage[] = [];
  for (let t = 1; t <= turn; t++) {
    if (t > 1) messages.push({ role: "assistant", content: input.previousResponses[t - 2]! });
    const fewshot = { fewshot_examples: t === 1 ? legacyExamplesBlock(input.examples, opts) : "" };
    const text = pyFormat(opts.template, mergeKwargs(opts.template, turnPrompt(input.sample, t), fewshot, tag));
    messages.push({ role: "user", content: pyStrip(text) });
  }
  if (opts.baseModel) return renderBaseModelPrompt(messages, opts);
  return messages;
}

export function createSeahelmLegacyPromptBuilder(): PromptBuilderV1 {
  return { specVersion: "v1", id: SEAHELM_LEGACY_PROMPT_ID, build: buildSeahelmLegacy, checkOptions: (options) => void parseOptions(options) };
}
