/**
 * Base-model prompts. SEA-HELM builds a base model's prompt as the same conversation an instruct
 * model gets, rendered through the chat template `chat_templates/base_model.jinja`: each message's
 * content trimmed, the tokenizer's BOS text (when it has one) before the first, a blank line between
 * messages, and a blank line after the last (the generation prompt). The template is rendered by
 * @huggingface/jinja, a maintained Jinja engine for chat templates, so the file found beside the
 * configs renders as the Python side renders it.
 */
import { Template } from "@huggingface/jinja";
import { type ChatMessage, ConfigError } from "@yardstick/core";
import { z } from "zod";

/**
 * Renders like SEA-HELM's `base_model.jinja`, for configs without a `chat_templates` folder beside
 * them (written for yardstick; the dialect prefers the upstream file when it finds one).
 */
export const BASE_MODEL_CHAT_TEMPLATE =
  "{%- for message in messages -%}" +
  "{%- if loop.first and bos_token is defined -%}{{ bos_token }}{%- endif -%}" +
  "{{ message['content'] | trim }}" +
  "{%- if not loop.last -%}{{ '\\n\\n' }}{%- endif -%}" +
  "{%- endfor -%}" +
  "{%- if add_generation_prompt -%}{{ '\\n\\n' }}{%- endif -%}";

/** The prompt-builder options that make a SEA-HELM builder return a base model's completion prompt. */
export const baseModelPromptOptions = {
  /** Return one completion prompt (the rendered base-model template) instead of chat messages. */
  baseModel: z.boolean().optional(),
  /** The tokenizer's BOS text; absent = the tokenizer has none (the template's `bos_token is defined` is false). */
  bosToken: z.string().optional(),
  /** The Jinja chat template's text; default `BASE_MODEL_CHAT_TEMPLATE`. */
  chatTemplate: z.string().optional(),
};

export interface BaseModelRenderOptions {
  bosToken?: string | undefined;
  chatTemplate?: string | undefined;
}

/** Parsed templates by text: every sample of a task renders through the same one. */
const compiled = new Map<string, Template>();

function templateOf(text: string): Template {
  let template = compiled.get(text);
  if (!template) {
    try {
      template = new Template(text);
    } catch (err) {
      throw new ConfigError(`the base-model chat template does not parse: ${err instanceof Error ? err.message : String(err)}`, {
        keyPath: ["prompt", "options", "chatTemplate"],
        expected: "a Jinja chat template (SEA-HELM's chat_templates/base_model.jinja)",
      });
    }
    compiled.set(text, template);
  }
  return template;
}

/** The completion prompt a base model gets for `messages`, with the generation prompt added (as vLLM's chat does by default). */
export function renderBaseModelPrompt(messages: readonly ChatMessage[], options: BaseModelRenderOptions = {}): string {
  const template = templateOf(options.chatTemplate ?? BASE_MODEL_CHAT_TEMPLATE);
  const plain = messages.map((m, i) => {
    if (typeof m.content !== "string") throw new ConfigError(`message ${i} has image parts, which a base-model text prompt cannot carry`);
    return { role: m.role, content: m.content };
  });
  // An absent BOS stays undefined in the template (HF passes only the special tokens a tokenizer has).
  const context: Record<string, unknown> = { messages: plain, add_generation_prompt: true };
  if (options.bosToken !== undefined) context.bos_token = options.bosToken;
  try {
    return template.render(context);
  } catch (err) {
    throw new ConfigError(`the base-model chat template failed to render: ${err instanceof Error ? err.message : String(err)}`, {
      keyPath: ["prompt", "options", "chatTemplate"],
    });
  }
}
