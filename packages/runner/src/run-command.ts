import { setMaxListeners } from "node:events";
import { join, resolve } from "node:path";
import { ConfigError, type GenerationParams, type Registry, YardstickError } from "@yardstick/core";
import {
  type RequestCache,
  RunStore,
  createProgressReporter,
  hashTaskData,
  openRequestCache,
  runEvaluation,
  runFingerprint,
  slug,
} from "@yardstick/engine";
import { lindseaRollup, summarize } from "@yardstick/metrics";
import { z } from "zod";
import { UsageError, checkFlag, intFlag, listFlag, parseFlags, requireConfigPaths } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, loadPluginPackages } from "./builtins.js";
import type { CliIO } from "./io.js";
import { createModel, preflight } from "./model-setup.js";
import { formatResultsTable } from "./table.js";
import { checkTasksRunnable, findUnrunnable, loadTaskSpecs } from "./tasks.js";
import { cacheRoot, defaultCachePath } from "./cache-paths.js";
import { packageVersions } from "./versions.js";

export const RUN_USAGE =
  "usage: yardstick run <config-file-or-folder>... --model <provider>:<model-id> [--base-url URL ...] [--api-key-env NAME] [--tasks a,b] [--langs id,th] [--limit N] [--out DIR] [--concurrency N] [--seed N] [--no-cache] [--plugin PACKAGE ...] [--max-attempts N] [--timeout-ms N] [--temperature X] [--top-p X] [--max-tokens N] [--stop S ...] [--extra-body JSON] [--skip-unsupported] [--quiet]";

export async function runCommand(argv: string[], io: CliIO, registryOverride?: Registry): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    model: { type: "string" },
    "base-url": { type: "string", multiple: true },
    "api-key-env": { type: "string" },
    tasks: { type: "string" },
    langs: { type: "string" },
    limit: { type: "string" },
    out: { type: "string" },
    concurrency: { type: "string" },
    seed: { type: "string" },
    "no-cache": { type: "boolean" },
    plugin: { type: "string", multiple: true },
    "max-attempts": { type: "string" },
    temperature: { type: "string" },
    "top-p": { type: "string" },
    "max-tokens": { type: "string" },
    stop: { type: "string", multiple: true },
    "extra-body": { type: "string" },
    "timeout-ms": { type: "string" },
    quiet: { type: "boolean" },
    "skip-unsupported": { type: "boolean" },
  });
  const configPaths = requireConfigPaths(positionals, "run");
  const modelSpec = checkFlag("model", z.string({ message: "required, e.g. --model openai-compatible:Qwen/Qwen3-8B" }).min(1), values.model);
  const limit = values.limit === undefined ? undefined : checkFlag("limit", intFlag(1), values.limit);
  const concurrency = values.concurrency === undefined ? 16 : checkFlag("concurrency", intFlag(1, 4096), values.concurrency);
  const seed = values.seed === undefined ? 1234 : checkFlag("seed", intFlag(0, 2 ** 32 - 1), values.seed);
  const generation = generationOverrides(values, values.seed === undefined ? undefined : seed);
  const maxAttempts = values["max-attempts"] === undefined ? undefined : checkFlag("max-attempts", intFlag(1, 100), values["max-attempts"]);
  const timeoutMs = values["timeout-ms"] === undefined ? undefined : checkFlag("timeout-ms", intFlag(1), values["timeout-ms"]);
  const baseURLs = (values["base-url"] ?? []).map((u) => checkFlag("base-url", z.url({ message: "expected an http(s) URL" }), u));
  let apiKey: string | undefined;
  if (values["api-key-env"] !== undefined) {
    apiKey = io.env[values["api-key-env"]];
    if (!apiKey) throw new UsageError(`--api-key-env: environment variable ${values["api-key-env"]} is not set`);
  }

  let registry = registryOverride ?? createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
  if (values.plugin?.length) registry = registry.extend(await loadPluginPackages(values.plugin, io.cwd));

  const skipUnsupported = values["skip-unsupported"] === true;
  const loaded = await loadTaskSpecs(configPaths.map((p) => resolve(io.cwd, p)), {
    tasks: listFlag(values.tasks),
    languages: listFlag(values.langs),
    requireData: !skipUnsupported,
  });
  const { baseDir, plugins } = loaded;
  let tasks = loaded.tasks;
  if (plugins.length > 0) registry = registry.extend(await loadPluginPackages(plugins, baseDir));
  if (skipUnsupported) {
    // A whole suite can hold tasks this machine cannot run (vLLM-only paths, missing files): leave
    // them out, say which, and run the rest.
    const unrunnable = findUnrunnable(tasks, registry);
    const skipped = new Set(unrunnable.map((u) => u.task));
    for (const u of unrunnable) io.stderr.write(`skipped: ${u.error.message}\n`);
    tasks = tasks.filter((t) => !skipped.has(t));
    if (tasks.length === 0) throw new ConfigError("every selected task was skipped as unsupported (see above)");
  } else {
    checkTasksRunnable(tasks, registry);
  }
  if (Object.keys(generation).length > 0) {
    for (const t of tasks) t.generation = { ...t.generation, ...generation, extraBody: mergeExtraBody(t.generation.extraBody, generation.extraBody) };
  }

  const model = createModel(modelSpec, { baseURLs, apiKey, maxConcurrency: concurrency, seed, maxAttempts, timeoutMs }, registry);
  const dataHashes = await hashTaskData(tasks, baseDir);
  const runOptions = { limit: limit ?? null, seed };
  const fingerprint = runFingerprint({ tasks, dataHashes, modelIdentity: model.identity(), options: runOptions });
  const outDir = resolve(io.cwd, values.out ?? join("runs", `${slug(model.modelId)}-${fingerprint.slice(0, 12)}`));

  await preflight(model, baseURLs, apiKey);

  let cache: RequestCache | undefined;
  if (!values["no-cache"]) cache = openCache(defaultCachePath(io.env));
  const store = new RunStore(outDir);
  let resumed: boolean;
  try {
    ({ resumed } = await openStore(store, {
      fingerprint,
      createdAt: new Date().toISOString(),
      yardstick: { versions: packageVersions() },
      model: { provider: model.id, modelId: model.modelId, identity: model.identity(), ...(baseURLs.length ? { baseURLs } : {}) },
      options: { ...runOptions, concurrency, cache: !values["no-cache"], configs: configPaths },
      tasks,
      dataHashes,
    }));
  } catch (err) {
    cache?.close();
    throw err;
  }
  const log = (m: string): void => {
    io.stderr.write(`${m}\n`);
  };
  if (!values.quiet) log(`${resumed ? "resuming" : "writing"} run store ${outDir}`);


  const controller = new AbortController();
  // Every in-flight request listens on this one signal.
  setMaxListeners(0, controller.signal);
  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(130);
    log("\ninterrupted: finishing requests in flight and saving (Ctrl-C again to quit at once)");
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const progress = values.quiet ? undefined : createProgressReporter({ stream: io.stderr });
    const result = await runEvaluation({
      tasks,
      registry,
      model,
      store,
      cache,
      concurrency,
      limit,
      seed,
      baseDir,
      progress,
      signal: controller.signal,
      summarize: (scores, s) => summarize(scores, { seed: s }),
      // SEA-HELM scores its linguistic-diagnostics competency with the LINDSEA rule, not a plain mean.
      competencyRollups: { "linguistic-diagnostics": lindseaRollup },
      log,
    });
    if (result.aborted) {
      log(`stopped; run the same command again to continue (${outDir})`);
      return 130;
    }
    const errors = result.tasks.reduce((a, t) => a + t.errors, 0);
    const fromCache = result.tasks.reduce((a, t) => a + t.fromCache, 0);
    if (fromCache > 0 && !values.quiet) log(`${fromCache} answer(s) came from the request cache (${defaultCachePath(io.env)}; --no-cache to ask the server again)`);
    const results = {
      ...result.results,
      meta: {
        model: model.modelId,
        provider: model.id,
        fingerprint,
        runDir: outDir,
        finishedAt: new Date().toISOString(),
        tasks: Object.fromEntries(
          result.tasks.map((t) => [
            t.key,
            { samples: t.samples, errors: t.errors, fromStore: t.fromStore, fromCache: t.fromCache, sent: t.sent, summary: t.summary ?? null },
          ]),
        ),
      },
    };
    await store.writeResults(results);
    io.stdout.write(`${formatResultsTable(result.tasks, result.results.total)}\n`);
    if (!values.quiet) log(`results: ${store.resultsPath}`);
    const failed = result.tasks.filter((t) => t.failure);
    for (const t of failed) log(`task ${t.key} could not be scored: ${t.failure}`);
    if (errors > 0) {
      log(`${errors} request(s) failed for good and were scored as empty answers; run the same command again to retry them`);
      return 1;
    }
    return failed.length > 0 ? 1 : 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await store.close();
    cache?.close();
    await model.close?.();
  }
}

/** Opens the run store; a folder yardstick cannot use becomes one clear message naming it. */
async function openStore(store: RunStore, manifest: Parameters<RunStore["open"]>[0]): Promise<{ resumed: boolean }> {
  try {
    return await store.open(manifest);
  } catch (err) {
    if (YardstickError.isInstance(err)) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof SyntaxError) {
      throw new ConfigError(`not valid JSON (${err.message}); move the run folder away or choose another --out`, {
        file: store.manifestPath,
        cause: err,
      });
    }
    throw new ConfigError(`cannot use this as the run folder (${code ?? (err as Error).message}); choose another --out`, {
      file: store.dir,
      cause: err,
    });
  }
}

/** Opens the shared request cache; an unusable one names the file and the way around it. */
function openCache(path: string): RequestCache {
  try {
    return openRequestCache({ path });
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError(
      `cannot open the request cache (${reason}); set YARDSTICK_CACHE_DIR to another folder, delete the file, or run with --no-cache`,
      { file: path, cause: err },
    );
  }
}

function mergeExtraBody(
  a: Record<string, unknown> | undefined,
  b: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  return a || b ? { ...a, ...b } : undefined;
}

/** Sampling flags that override every task's generation parameters (and so enter the fingerprint). */
function generationOverrides(values: Record<string, unknown>, seed: number | undefined): GenerationParams {
  const out: GenerationParams = {};
  const num = (flag: string, min: number, max: number) =>
    checkFlag(flag, z.coerce.number({ message: "expected a number" }).min(min).max(max), values[flag]);
  if (values.temperature !== undefined) out.temperature = num("temperature", 0, 100);
  if (values["top-p"] !== undefined) out.topP = num("top-p", 0, 1);
  if (values["max-tokens"] !== undefined) out.maxTokens = checkFlag("max-tokens", intFlag(1), values["max-tokens"]);
  if (Array.isArray(values.stop) && values.stop.length > 0) out.stop = values.stop as string[];
  if (seed !== undefined) out.seed = seed;
  if (values["extra-body"] !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(values["extra-body"]));
    } catch {
      throw new UsageError(`--extra-body: expected a JSON object, e.g. '{"chat_template_kwargs":{"enable_thinking":false}}'`);
    }
    out.extraBody = checkFlag("extra-body", z.record(z.string(), z.unknown(), { message: "expected a JSON object" }), parsed);
  }
  return out;
}

