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

/**
 * Checks that every base URL answers before the run starts, so an unreachable server is one clear
 * message instead of a failed request per sample. The base URLs of a fleet are asked all at once
 * (start-up does not grow with the fleet); a failure is reported for the first failing one in the
 * order given, whatever answered first.
 */
export async function preflight(model: ModelProviderV1, baseURLs: readonly string[], apiKey?: string, signal?: AbortSignal): Promise<void> {
  if (model.id !== "openai-compatible") return;
  const checks = baseURLs.map((base) => checkBaseURL(base, apiKey, signal));
  // Failures after the one reported are dropped, not left unhandled.
  for (const check of checks) check.catch(() => {});
  for (const check of checks) await check;
}

async function checkBaseURL(base: string, apiKey: string | undefined, signal: AbortSignal | undefined): Promise<void> {
  const url = `${base.replace(/\/+$/, "")}/models`;
  const transport = createTransport([base], 1);
  let status: number;
  try {
    status = (await transport.get(transport.endpoints[0]!, "/models", apiKey ? { authorization: `Bearer ${apiKey}` } : {}, 10_000, signal)).status;
  } catch (err) {
    if (signal?.aborted) return; // stopped: the caller sees the signal
    const cause = err instanceof TransportError ? err.cause : err;
    const reason = (cause as { code?: string } | null)?.code ?? (err instanceof Error ? err.message : String(err));
    throw new ApiCallError(`cannot reach the model server at ${base} (${reason}); is it running?`, {
      retryable: false,
      url: base,
      cause,
    });
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
      `the model server at ${base} refused the credentials (HTTP ${status}); pass the key with --api-key-env NAME`,
      { retryable: false, status, url: base },
    );
  }
}
