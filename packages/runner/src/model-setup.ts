import { ApiCallError, ConfigError, type ModelProviderV1, type Registry } from "@yardstick/core";
import { ANTHROPIC_BASE_URL, parseModelSpec } from "@yardstick/models";
import { createTransport, TransportError } from "@yardstick/http";

export interface ModelFlags {
  baseURLs: string[];
  apiKey?: string;
  maxConcurrency: number;
  seed: number;
  maxAttempts?: number | undefined;
  timeoutMs?: number | undefined;
}

/** Makes the provider named by `--model provider:model-id` from the registry's model factories. */
export function createModel(spec: string, flags: ModelFlags, registry: Registry): ModelProviderV1 {
  const colon = spec.indexOf(":");
  const prefix = colon < 0 ? spec : spec.slice(0, colon);
  const builtin = prefix === "openai-compatible" || prefix === "openai" || prefix === "anthropic" || prefix === "baseline";
  // Plugin packages may register their own providers: "<id>:<model>" where <id> is registered.
  if (!builtin && registry.has("models", prefix)) {
    return registry.get("models", prefix, { modelId: spec.slice(colon + 1) });
  }
  const parsed = parseModelSpec(spec);
  if (parsed.provider === "openai-compatible") {
    if (flags.baseURLs.length === 0) {
      throw new ConfigError(`--model ${spec} needs --base-url (e.g. --base-url http://127.0.0.1:8000/v1 for vLLM)`);
    }
    return registry.get("models", "openai-compatible", {
      modelId: parsed.modelId,
      baseURLs: flags.baseURLs,
      ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
      maxConcurrency: flags.maxConcurrency,
      ...(flags.maxAttempts !== undefined ? { maxAttempts: flags.maxAttempts } : {}),
      ...(flags.timeoutMs !== undefined ? { timeoutMs: flags.timeoutMs } : {}),
    });
  }
  if (parsed.provider === "anthropic") return createAnthropicModel(spec, parsed.modelId, flags, registry);
  return registry.get("models", parsed.provider, parsed.provider === "baseline:random" ? { seed: flags.seed } : {});
}

/** `--model anthropic:<id>`: the Messages API at https://api.anthropic.com, or at the one --base-url. */
function createAnthropicModel(spec: string, modelId: string, flags: ModelFlags, registry: Registry): ModelProviderV1 {
  if (flags.baseURLs.length > 1) throw new ConfigError(`--model ${spec} takes at most one --base-url (got ${flags.baseURLs.length})`);
  const baseURL = flags.baseURLs[0] ?? ANTHROPIC_BASE_URL;
  // A local stand-in (the dev server, a proxy) may need no key; the real API always does.
  if (!flags.apiKey && baseURL === ANTHROPIC_BASE_URL) {
    throw new ConfigError(`--model ${spec} needs an API key: pass --api-key-env NAME (e.g. --api-key-env ANTHROPIC_API_KEY)`);
  }
  return registry.get("models", "anthropic", {
    modelId,
    baseURL,
    ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
    maxConcurrency: flags.maxConcurrency,
    ...(flags.maxAttempts !== undefined ? { maxAttempts: flags.maxAttempts } : {}),
    ...(flags.timeoutMs !== undefined ? { timeoutMs: flags.timeoutMs } : {}),
  });
}

/** Which server a check is about, for its messages: the judged model's, or the judge's. */
export interface ServerRole {
  server: string;
  keyFlag: string;
}
export const MODEL_SERVER: ServerRole = { server: "model server", keyFlag: "--api-key-env" };
export const JUDGE_SERVER: ServerRole = { server: "judge model's server", keyFlag: "--judge-api-key-env" };

/**
 * Checks the base URLs before the run starts, so a mistake is one clear message instead of a failed
 * request per sample. The base URLs of a fleet are asked all at once (start-up does not grow with the
 * fleet). An answer that would make every request fail the same way (404: no API there; 401/403: the
 * key) is an error, reported for the first such base URL in the order given, whatever answered
 * first. A base URL that cannot be reached is an error only when none can: a replica down at start is
 * set aside (`log` says so) and probed like one that goes down during the run, so it joins once it
 * answers.
 */
export async function preflight(
  model: ModelProviderV1,
  baseURLs: readonly string[],
  apiKey?: string,
  signal?: AbortSignal,
  log?: (message: string) => void,
  role: ServerRole = MODEL_SERVER,
): Promise<void> {
  if (model.id !== "openai-compatible") return;
  const checks = baseURLs.map((base) => checkBaseURL(base, apiKey, signal, role));
  // Failures after the one reported are dropped, not left unhandled.
  for (const check of checks) check.catch(() => {});
  const down: { base: string; reason: string }[] = [];
  for (const [i, check] of checks.entries()) {
    const reason = await check;
    if (reason !== undefined) down.push({ base: baseURLs[i]!, reason });
  }
  if (signal?.aborted || down.length === 0) return;
  const setAside = (model as { setBaseURLAside?: (baseURL: string, why: string) => void }).setBaseURLAside;
  if (down.length === baseURLs.length || typeof setAside !== "function") {
    const { base, reason } = down[0]!;
    throw new ApiCallError(`cannot reach the ${role.server} at ${base} (${reason}); is it running?`, { retryable: false, url: base });
  }
  const others = baseURLs.length - down.length;
  for (const { base, reason } of down) {
    setAside.call(model, base, reason);
    log?.(`warning: cannot reach the ${role.server} at ${base} (${reason}): set aside and probed until it answers; the run goes on with the other ${others} base URL${others === 1 ? "" : "s"}`);
  }
}

/** Undefined when the base URL answers; why it cannot be reached when it does not. Throws for answers no request could get past. */
async function checkBaseURL(base: string, apiKey: string | undefined, signal: AbortSignal | undefined, role: ServerRole): Promise<string | undefined> {
  const url = `${base.replace(/\/+$/, "")}/models`;
  const transport = createTransport([base], 1);
  let status: number;
  try {
    status = (await transport.get(transport.endpoints[0]!, "/models", apiKey ? { authorization: `Bearer ${apiKey}` } : {}, 10_000, signal)).status;
  } catch (err) {
    if (signal?.aborted) return undefined; // stopped: the caller sees the signal
    const cause = err instanceof TransportError ? err.cause : err;
    return (cause as { code?: string } | null)?.code ?? (err instanceof Error ? err.message : String(err));
  } finally {
    await transport.close();
  }
  // Fail before the run on answers that would make every request fail the same way.
  if (status === 404) {
    const hint = /\/v1$/.test(base) ? "" : " (OpenAI-compatible base URLs usually end in /v1)";
    throw new ApiCallError(`no OpenAI-compatible API at ${base}: GET ${url} answered 404${hint}`, { retryable: false, status, url: base });
  }
  if (status === 401 || status === 403) {
    throw new ApiCallError(
      `the ${role.server} at ${base} refused the credentials (HTTP ${status}); pass the key with ${role.keyFlag} NAME`,
      { retryable: false, status, url: base },
    );
  }
  return undefined;
}
