/**
 * What an OpenAI-compatible server says about the model it serves, from `GET /v1/models`. vLLM and
 * SGLang list vLLM's `ModelCard` (`id`, `owned_by`, `root`: the checkpoint loaded, `parent`,
 * `max_model_len`); OpenAI and others list only `id`, `object`, `created`, `owned_by`. The result
 * enters the request-cache identity, so two servers serving different checkpoints under one model
 * name never share cached answers.
 */
import { ConfigError, type ServedModelInfo } from "@yardstick/core";
import { z } from "zod";

const modelCardSchema = z.looseObject({
  id: z.string(),
  owned_by: z.string().nullish(),
  root: z.string().nullish(),
  max_model_len: z.number().int().positive().nullish(),
});

/** The body of `GET /v1/models` (OpenAI's list shape; extra fields are allowed and ignored). */
export const modelListSchema = z.looseObject({ data: z.array(modelCardSchema) });

export type ModelList = z.output<typeof modelListSchema>;

/**
 * The served-model info of `modelId` in a `/v1/models` list: its `root`, `max_model_len` and
 * `owned_by`. Undefined when the model is not listed, or when the server reports neither a root nor
 * a context length: `owned_by` alone is boilerplate every OpenAI-compatible server sends, and
 * leaving it out keeps the cache keys of such servers what they were.
 */
export function servedModelInfo(list: ModelList, modelId: string): ServedModelInfo | undefined {
  const card = list.data.find((m) => m.id === modelId);
  if (!card) return undefined;
  const info: ServedModelInfo = {};
  if (typeof card.root === "string" && card.root !== "") info.root = card.root;
  if (typeof card.max_model_len === "number") info.maxModelLen = card.max_model_len;
  if (info.root === undefined && info.maxModelLen === undefined) return undefined;
  if (typeof card.owned_by === "string" && card.owned_by !== "") info.ownedBy = card.owned_by;
  return info;
}

/** What one base URL reported (undefined: nothing beyond the model name). */
export interface ServedModelReport {
  url: string;
  info: ServedModelInfo | undefined;
}

const describe = (info: ServedModelInfo | undefined): string =>
  info === undefined
    ? "nothing about the checkpoint"
    : [
        `root ${info.root === undefined ? "(none)" : JSON.stringify(info.root)}`,
        ...(info.maxModelLen !== undefined ? [`max_model_len ${info.maxModelLen}`] : []),
        ...(info.ownedBy !== undefined ? [`owned_by ${JSON.stringify(info.ownedBy)}`] : []),
      ].join(", ");

/** Whether two base URLs report the same checkpoint, context length and owner. */
export const sameServedModel = (a: ServedModelInfo | undefined, b: ServedModelInfo | undefined): boolean =>
  a?.root === b?.root && a?.maxModelLen === b?.maxModelLen && a?.ownedBy === b?.ownedBy;

/**
 * The one served-model info all base URLs agree on. Requests are shared among the base URLs, so
 * base URLs that disagree (another checkpoint, context length or server) would mix models in one
 * run and one cache entry: a `ConfigError` naming both.
 */
export function agreedServedModel(modelId: string, reports: readonly ServedModelReport[]): ServedModelInfo | undefined {
  const first = reports[0];
  if (!first) return undefined;
  for (const other of reports.slice(1)) {
    if (sameServedModel(first.info, other.info)) continue;
    const what = first.info?.root !== other.info?.root ? "different checkpoints (root)" : "different model settings";
    throw new ConfigError(
      `the base URLs serve model "${modelId}" with ${what}: ${first.url} reports ${describe(first.info)}, ${other.url} reports ${describe(other.info)}; requests are shared among the base URLs, so the run would mix their answers — point every base URL at the same checkpoint, or evaluate them as separate runs`,
      { keyPath: ["baseURLs"] },
    );
  }
  return first.info;
}
