/**
 * The `seahelm-chat` prompt builder: SEA-HELM's conversation layout.
 *
 *   per few-shot example: user = task_template.format(**ex.prompts[0], answer_tag=tag)
 *                         assistant = answer_template.format(**ex, **ex.prompts[0], answer_tag=tag)
 *   then: user = task_template.format(**row.prompts[turn-1])          (no answer_tag)
 *   first message of the block = (preamble.format(answer_tag=tag) + "\n\n" + it).strip()
 *
 * Turn t > 1 replays turns 1..t-1, each followed by its response as an assistant message, then
 * appends a new block built the same way (so the preamble is prepended again, and, as upstream does,
 * the few-shot examples are repeated unless `fewshotOnEveryTurn: false`). No system message.
 * `baseModel: true` returns one string: the messages rendered through the base-model chat template
 * (chat_templates/base_model.jinja with add_generation_prompt; `bosToken` where the template puts it).
 * `buildChoices` gives a logprob task's loglikelihood request (see seahelm-logprob-prompt.ts).
 */
import {
  type ChatMessage,
  ConfigError,
  type ContentPart,
  DataLoadError,
  type PromptBuilderV1,
  type PromptBuildInput,
  pyStrip,
  type Sample,
} from "@yardstick/core";
import { z } from "zod";
import { baseModelPromptOptions, renderBaseModelPrompt } from "./base-model-template.js";
import { logprobChoices, logprobPromptOptions } from "./seahelm-logprob-prompt.js";
import { exampleColumns, mergeKwargs, turnPrompt } from "./prompt-values.js";
import { pyFormat } from "./python-format.js";

export const seahelmChatOptionsSchema = z.object({
  preamble: z.string(),
  taskTemplate: z.string(),
  answerTemplate: z.string().nullable().optional(),
  /** null renders as "None", exactly like Python. */
  answerTag: z.string().nullable().optional(),
  ...baseModelPromptOptions,
  ...logprobPromptOptions,
  /** Upstream re-inserts the few-shot examples at every turn; set false to put them only before turn 1. */
  fewshotOnEveryTurn: z.boolean().optional(),
  /** Let `{a.b}` read dict keys (Python raises AttributeError). */
  lenientAttributes: z.boolean().optional(),
});

export type SeahelmChatOptions = z.output<typeof seahelmChatOptionsSchema>;

/** Parsed options, per options object: a task passes the same object for each of its samples. */
const parsedOptions = new WeakMap<object, SeahelmChatOptions>();

function parseOptions(options: Record<string, unknown>): SeahelmChatOptions {
  const known = parsedOptions.get(options);
  if (known) return known;
  const parsed = seahelmChatOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`seahelm-chat options: ${issue.message}`, { keyPath: ["prompt", "options", ...issue.path.map(String)] });
  }
  parsedOptions.set(options, parsed.data);
  return parsed.data;
}

/** The formatted preamble depends only on the options: computed once (failures are not kept, so they raise every time, as before). */
const preambles = new WeakMap<SeahelmChatOptions, string>();

function formattedPreamble(opts: SeahelmChatOptions, fmt: { lenientAttributes: boolean }): string {
  let text = preambles.get(opts);
  if (text === undefined) {
    text = pyFormat(opts.preamble, { answer_tag: opts.answerTag ?? null }, [], fmt);
    preambles.set(opts, text);
  }
  return text;
}

function block(input: PromptBuildInput, opts: SeahelmChatOptions, turn: number, withExamples: boolean): ChatMessage[] {
  const tag = opts.answerTag ?? null;
  const fmt = { lenientAttributes: opts.lenientAttributes ?? false };
  const contents: { role: "user" | "assistant"; text: string }[] = [];
  if (withExamples) {
    for (const ex of input.examples) {
      const first = turnPrompt(ex, 1);
      contents.push({ role: "user", text: pyFormat(opts.taskTemplate, mergeKwargs(opts.taskTemplate, first, { answer_tag: tag }), [], fmt) });
      const answerTemplate = opts.answerTemplate;
      if (answerTemplate === null || answerTemplate === undefined) {
        throw new ConfigError("few-shot examples need an answer_template, but it is null", {
          keyPath: ["prompt_template", "answer_template"],
        });
      }
      const kwargs = mergeKwargs(answerTemplate, exampleColumns(ex), first, { answer_tag: tag });
      contents.push({ role: "assistant", text: pyFormat(answerTemplate, kwargs, [], fmt) });
    }
  }
  contents.push({ role: "user", text: pyFormat(opts.taskTemplate, turnPrompt(input.sample, turn), [], fmt) });
  const head = contents[0]!;
  head.text = pyStrip(`${formattedPreamble(opts, fmt)}\n\n${head.text}`);
  return contents.map((c) => ({ role: c.role, content: c.text }));
}

/** Data-URI or URL images of a row (`image` or `images`), as the dataloader left them in `raw`. */
export function rowImages(sample: Sample): string[] {
  const raw = sample.raw;
  if ((raw.image === undefined || raw.image === null) && (raw.images === undefined || raw.images === null)) return [];
  const list: unknown[] = [];
  if (raw.image !== undefined && raw.image !== null) list.push(raw.image);
  if (Array.isArray(raw.images)) list.push(...raw.images);
  else if (raw.images !== undefined && raw.images !== null) list.push(raw.images);
  return list.map((v, i) => {
    if (typeof v !== "string" || !/^(data:|https?:\/\/)/.test(v)) {
      throw new DataLoadError(`sample ${sample.id}: image ${i} is not a data URI or http(s) URL`);
    }
    return v;
  });
}

/** The conversation of every turn up to `input.turn`: earlier turns replayed with their responses. */
function conversation(input: PromptBuildInput, opts: SeahelmChatOptions): ChatMessage[] {
  const { turn } = input;
  if (!Number.isInteger(turn) || turn < 1) throw new ConfigError(`turn must be a positive integer, got ${turn}`);
  if (input.previousResponses.length < turn - 1) {
    throw new ConfigError(`turn ${turn} needs ${turn - 1} previous response(s), got ${input.previousResponses.length}`);
  }
  const everyTurn = opts.fewshotOnEveryTurn ?? true;
  const messages: ChatMessage[] = [];
  for (let t = 1; t <= turn; t++) {
    if (t > 1) messages.push({ role: "assistant", content: input.previousResponses[t - 2]! });
    messages.push(...block(input, opts, t, t === 1 || everyTurn));
  }
  return messages;
}

export function buildSeahelmChat(input: PromptBuildInput, options: Record<string, unknown>): ChatMessage[] | string {
  const opts = parseOptions(options);
  const messages = conversation(input, opts);
  const images = rowImages(input.sample);
  if (opts.baseModel) {
    if (images.length > 0) throw new ConfigError(`sample ${input.sample.id} has images, which a base-model text prompt cannot carry`);
    return renderBaseModelPrompt(messages, opts);
  }
  if (images.length > 0) {
    const last = messages[messages.length - 1]!;
    // SEA-HELM's image dataloader puts the text part first, then one image part per image.
    const parts: ContentPart[] = [{ type: "text", text: last.content as string }];
    for (const url of images) parts.push({ type: "image_url", image_url: { url } });
    last.content = parts;
  }
  return messages;
}

/** A logprob task's request: the conversation as text (plus the answer tag without `logprobFirstPass`), and the gold label after it. */
export function buildSeahelmChatChoices(input: PromptBuildInput, options: Record<string, unknown>): { context: string; continuations: string[] } {
  const opts = parseOptions(options);
  if (rowImages(input.sample).length > 0) throw new ConfigError(`sample ${input.sample.id} has images, which a logprob (text) request cannot carry`);
  return logprobChoices(input.sample, conversation(input, opts), opts);
}

export function createSeahelmChatPromptBuilder(): PromptBuilderV1 {
  // checkOptions: the same parse as build (its result is cached per options object, so build reuses it).
  return {
    specVersion: "v1",
    id: "seahelm-chat",
    build: buildSeahelmChat,
    buildChoices: buildSeahelmChatChoices,
    checkOptions: (options) => void parseOptions(options),
  };
}
