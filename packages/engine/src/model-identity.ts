import { ConfigError, type ModelProviderV1, type ServedModelInfo } from "@yardstick/core";
import { canonicalJson } from "./canonical-json.js";

/** What a run's model is, for the request cache and the run fingerprint. */
export interface ModelIdentity {
  /** The string that keys the request cache and enters the run fingerprint. */
  identity: string;
  parts: {
    /** The provider id, e.g. "openai-compatible". */
    provider: string;
    /** The model id as configured (the name sent to the server). */
    model: string;
    /** What the server reports about the model it serves (vLLM's root, max_model_len, owned_by). */
    served?: ServedModelInfo;
    /** A revision the user gave (`--model-revision`), for servers that report nothing. */
    revision?: string;
  };
}

export interface ResolveModelIdentityOptions {
  revision?: string;
  signal?: AbortSignal;
  log?: (message: string) => void;
}

/**
 * The model identity of a run: `model.identity()` when the server reports nothing beyond the name
 * and no revision is given (so existing cache keys stay valid), else `model.identity()` + "#" + the
 * canonical JSON of `{revision, served}`. Two servers serving different checkpoints under one name
 * thus never share cached answers, and a revision separates checkpoints a server cannot tell apart.
 * Errors of `describeServedModel` (unreachable server, base URLs that disagree) are thrown on.
 */
export async function resolveModelIdentity(model: ModelProviderV1, opts: ResolveModelIdentityOptions = {}): Promise<ModelIdentity> {
  if (opts.revision !== undefined && opts.revision.trim() === "") {
    throw new ConfigError("the model revision is empty", { expected: "a non-empty revision, e.g. a checkpoint name or commit" });
  }
  const base = model.identity();
  // The provider's only note (a server that does not list the model, so pass a revision) does not
  // apply when a revision was given.
  const log = opts.revision === undefined ? opts.log : undefined;
  const served = model.describeServedModel
    ? await model.describeServedModel({ ...(opts.signal ? { signal: opts.signal } : {}), ...(log ? { log } : {}) })
    : undefined;
  const parts: ModelIdentity["parts"] = { provider: model.id, model: model.modelId };
  if (served !== undefined && Object.values(served).some((v) => v !== undefined)) parts.served = served;
  if (opts.revision !== undefined) parts.revision = opts.revision;
  if (parts.served === undefined && parts.revision === undefined) return { identity: base, parts };
  return { identity: `${base}#${canonicalJson({ served: parts.served, revision: parts.revision })}`, parts };
}
