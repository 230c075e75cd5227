import { resolve } from "node:path";
import { ConfigError, type ModelProviderV1, type Registry, type TaskSpec } from "@yardstick/core";
import { RunStore, resolveModelIdentity } from "@yardstick/engine";
import type { ModelRole } from "@yardstick/run-format";
import { createModel, JUDGE_SERVER, type ModelFlags, preflight } from "./model-setup.js";

export interface JudgeOptions {
  /** `--judge-model provider:model`, or a provider object; default the config's judge model name. */
  judgeModel?: string | ModelProviderV1 | undefined;
  /** `--judge-base-url`; default the evaluated model's base URLs (for an OpenAI-compatible judge). */
  judgeBaseURLs?: readonly string[] | undefined;
  /** `--judge-api-key-env`'s key; default the evaluated model's key. */
  judgeApiKey?: string | undefined;
  /** `--baseline RUN`: a run store whose answers pairwise judges compare against. */
  baseline?: string | undefined;
}

/** The judge stage's model and baseline, ready for `runEvaluation`. */
export interface JudgeSetup {
  model: ModelProviderV1;
  /** The identity keying the judge's requests in the cache (with what its server reports). */
  identity: string;
  /** run.json's "judge" role. */
  role: ModelRole;
  /** Whether this setup made the provider (and so closes it). */
  owned: boolean;
  baselineStore?: RunStore;
  /** The baseline run's fingerprint: it enters this run's fingerprint. */
  baselineFingerprint?: string;
}

/**
 * Makes the judge model of a run whose tasks have judges: `--judge-model`, or else the judge model
 * the configs name (`task.judge.model`, served OpenAI-compatibly at `--judge-base-url` or the main
 * `--base-url`), built by the same code as the evaluated model and checked the same way. Undefined
 * when no task has a judge.
 */
export async function setupJudge(
  tasks: readonly TaskSpec[],
  options: JudgeOptions,
  main: ModelFlags,
  registry: Registry,
  cwd: string,
  log?: (message: string) => void,
  signal?: AbortSignal,
): Promise<JudgeSetup | undefined> {
  const judged = tasks.filter((t) => t.judge);
  if (judged.length === 0) {
    if (options.judgeModel !== undefined || options.baseline !== undefined) log?.("note: no selected task has a judge, so --judge-model and --baseline are not used");
    return undefined;
  }
  const judgeURLs = options.judgeBaseURLs?.length ? [...options.judgeBaseURLs] : undefined;
  let model: ModelProviderV1;
  let baseURLs: string[] = [];
  const apiKey = options.judgeApiKey ?? main.apiKey;
  if (typeof options.judgeModel === "object") {
    model = options.judgeModel;
  } else {
    const spec = options.judgeModel ?? configJudgeSpec(judged);
    // An Anthropic judge talks to its own API unless told otherwise; an OpenAI-compatible one to the main server.
    baseURLs = judgeURLs ?? (spec.startsWith("anthropic:") ? [] : main.baseURLs);
    if (options.judgeModel === undefined) {
      log?.(`judge model: ${spec} (the judge model the config names; --judge-model to choose another)${baseURLs.length ? ` at ${baseURLs.join(", ")}` : ""}`);
    }
    if (baseURLs.length === 0 && spec.startsWith("anthropic:") && !apiKey) {
      throw new ConfigError(`the judge model ${spec} needs an API key: pass --judge-api-key-env NAME (e.g. ANTHROPIC_API_KEY)`);
    }
    if (baseURLs.length === 0 && /^(openai-compatible|openai):/.test(spec)) {
      throw new ConfigError(`the judge model ${spec} needs --judge-base-url (or --base-url): the URL of the server that serves it`);
    }
    model = createModel(spec, { ...main, baseURLs, ...(apiKey ? { apiKey } : {}) }, registry);
  }
  const owned = typeof options.judgeModel !== "object";
  try {
    await preflight(model, baseURLs, apiKey, signal, log, JUDGE_SERVER);
    const { identity, parts } = await resolveModelIdentity(model, { ...(log ? { log } : {}), ...(signal ? { signal } : {}) });
    const role: ModelRole = {
      provider: model.id,
      modelId: model.modelId,
      identity,
      ...(parts.served ? { served: parts.served } : {}),
      ...(baseURLs.length ? { baseURLs } : {}),
    };
    const setup: JudgeSetup = { model, identity, role, owned };
    if (options.baseline !== undefined) {
      const baselineStore = new RunStore(resolve(cwd, options.baseline));
      const { manifest } = await baselineStore.readManifest();
      const keys = new Set(manifest.tasks.map((t) => t.key));
      const missing = judged.filter((t) => !keys.has(t.key)).map((t) => t.key);
      if (missing.length > 0) log?.(`warning: the baseline run ${baselineStore.dir} has no task ${missing.join(", ")}; its judges get no baseline answers`);
      setup.baselineStore = baselineStore;
      setup.baselineFingerprint = manifest.fingerprint;
    }
    return setup;
  } catch (err) {
    if (owned) await model.close?.();
    throw err;
  }
}

/**
 * The `provider:model` of the judge model the configs name: `openai-compatible:<name>` for a bare
 * name (SEA-HELM names OpenAI models). Tasks naming different judge models need `--judge-model`.
 */
function configJudgeSpec(judged: readonly TaskSpec[]): string {
  const names = [...new Set(judged.map((t) => t.judge!.model).filter((m): m is string => typeof m === "string" && m !== ""))];
  if (names.length === 0) {
    throw new ConfigError(`task ${judged[0]!.key} has a judge but its config names no judge model: pass --judge-model provider:model`, {
      ...(judged[0]!.source ? { file: judged[0]!.source.file } : {}),
    });
  }
  if (names.length > 1) {
    throw new ConfigError(`the selected tasks name different judge models (${names.join(", ")}); pass one with --judge-model provider:model`);
  }
  const name = names[0]!;
  return /^(openai-compatible|openai|anthropic):/.test(name) ? name : `openai-compatible:${name}`;
}
