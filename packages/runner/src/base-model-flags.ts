/**
 * The flags that say the model is a base (pretrained) model, shared by `run` and `prompts` so both
 * build the same requests: the dialect's base-model prompts, few-shot defaults and stop strings.
 */
import { type DialectLoadOptions, defineFlags } from "@yardstick/core";
import { z } from "zod";
import { UsageError, checkFlag } from "./args.js";

export const BASE_MODEL_FLAGS = defineFlags({
  "base-model": {
    type: "boolean",
    description:
      "the model is a base model: SEA-HELM's base-model prompts (chat_templates/base_model.jinja rendered to one completion prompt), base few-shot counts and stop strings of constants.yaml",
  },
  "bos-token": {
    type: "string",
    value: "S",
    default: "none",
    description:
      "with --base-model: the tokenizer's BOS text, put where the template puts it (then the server must not add its own, e.g. vLLM: --extra-body '{\"add_special_tokens\":false}')",
  },
  endpoint: {
    type: "string",
    value: "completion|chat",
    default: "completion",
    description: "with --base-model: chat sends the messages to a chat endpoint whose server applies the base-model template itself",
  },
});

/** The dialect load options of the base-model flags (empty for an instruct model). */
export function baseModelLoadOptions(values: { "base-model"?: boolean; "bos-token"?: string; endpoint?: string }): Pick<
  DialectLoadOptions,
  "baseModel" | "bosToken" | "baseModelEndpoint"
> {
  if (!values["base-model"]) {
    if (values["bos-token"] !== undefined) throw new UsageError("--bos-token needs --base-model");
    if (values.endpoint !== undefined) throw new UsageError("--endpoint needs --base-model (an instruct model is always asked through the chat endpoint)");
    return {};
  }
  const endpoint = values.endpoint === undefined ? undefined : checkFlag("endpoint", z.enum(["completion", "chat"], { message: "expected completion or chat" }), values.endpoint);
  if (endpoint === "chat" && values["bos-token"] !== undefined) {
    throw new UsageError("--bos-token goes with --endpoint completion: with --endpoint chat the server's template puts its tokenizer's BOS");
  }
  return {
    baseModel: true,
    ...(values["bos-token"] !== undefined ? { bosToken: values["bos-token"] } : {}),
    ...(endpoint !== undefined ? { baseModelEndpoint: endpoint } : {}),
  };
}
