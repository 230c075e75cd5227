import type { GenerationParams } from "@yardstick/core";

/**
 * Upstream sampling keys (snake_case, as SEA-HELM's `*_generation_kwargs` and UltraEval's params
 * files spell them) → `GenerationParams`. Keys without a typed field are handed to `other`, which
 * returns what to send through `extraBody` (or undefined to leave the key out); by default every
 * such key is sent as it is (e.g. `reasoning_effort`). Null and undefined values are not sent.
 */
export function generationParamsFromKwargs(
  kwargs: Record<string, unknown>,
  other: (key: string, value: unknown, out: GenerationParams) => unknown = (_k, v) => v,
): GenerationParams {
  const out: GenerationParams = {};
  const extraBody: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(kwargs)) {
    if (v === undefined || v === null) continue;
    switch (k) {
      case "max_tokens":
        out.maxTokens = v as number;
        break;
      case "temperature":
        out.temperature = v as number;
        break;
      case "top_p":
        out.topP = v as number;
        break;
      case "seed":
        out.seed = v as number;
        break;
      case "n":
        out.n = v as number;
        break;
      case "stop":
        out.stop = typeof v === "string" ? [v] : (v as string[]);
        break;
      default: {
        const sent = other(k, v, out);
        if (sent !== undefined) extraBody[k] = sent;
      }
    }
  }
  if (Object.keys(extraBody).length > 0) out.extraBody = extraBody;
  return out;
}
