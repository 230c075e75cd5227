import { setMaxListeners } from "node:events";
import { join, resolve } from "node:path";
import { ConfigError, type GenerationParams, type Registry } from "@yardstick/core";
import { type RunEstimate, appendRunSession, createProgressReporter, createRunStats, formatRunSummary, formatUsd, parseShard } from "@yardstick/engine";
import { z } from "zod";
import { UsageError, checkFlag, intFlag, listFlag, parseFlags, requireConfigPaths } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, dialectsOf, loadPluginPackages } from "./builtins.js";
import type { CliIO } from "./io.js";
import { evaluate } from "./evaluate.js";
import { formatResultsTable } from "./table.js";
import { writeRunReport } from "./report-command.js";
import { checkTasksRunnable, findUnrunnable, loadTaskSpecs } from "./tasks.js";
import { cacheRoot, defaultCachePath } from "./cache-paths.js";
import { formatEstimate, loadPrices } from "./cost.js";
import { writeRunUltraEvalOutputs } from "./ultraeval-outputs.js";
import { BASE_MODEL_FLAGS, baseModelLoadOptions } from "./base-model-flags.js";

export const RUN_USAGE =
  "usage: yardstick run <config-file-or-folder>... --model <provider>:<model-id> [--base-url URL ...] [--api-key-env NAME] [--tasks a,b] [--langs id,th] [--suite NAME] [--num-fewshot N] [--reasoning] [--base-model [--bos-token S] [--endpoint completion|chat]] [--limit N] [--out DIR] [--concurrency N] [--seed N] [--no-cache] [--plugin PACKAGE ...] [--max-attempts N] [--timeout-ms N] [--temperature X] [--top-p X] [--max-tokens N] [--stop S ...] [--extra-body JSON] [--skip-unsupported] [--shard I/N] [--model-revision REV] [--no-report] [--judge-model P:M] [--judge-base-url URL ...] [--judge-api-key-env NAME] [--baseline RUN] [--batch] [--batch-poll-seconds S] [--dry-run] [--max-cost USD] [--prices FILE] [--quiet]";

export async function runCommand(argv: string[], io: CliIO, registryOverride?: Registry): Promise<number> {
  // The counters behind the progress display and run-stats.json (kept with --quiet too); the wall time counts from here.
  const runStats = createRunStats();
  const { values, positionals } = parseFlags(argv, {
    model: { type: "string" },
    "base-url": { type: "string", multiple: true },
    "api-key-env": { type: "string" },
    tasks: { type: "string" },
    langs: { type: "string" },
    suite: { type: "string" },
    "num-fewshot": { type: "string" },
    reasoning: { type: "boolean" },
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
    shard: { type: "string" },
    "model-revision": { type: "string" },
    "no-report": { type: "boolean" },
    "judge-model": { type: "string" },
    "judge-base-url": { type: "string", multiple: true },
    "judge-api-key-env": { type: "string" },
    baseline: { type: "string" },
    "dry-run": { type: "boolean" },
    batch: { type: "boolean" },
    "batch-poll-seconds": { type: "string" },
    "max-cost": { type: "string" },
    prices: { type: "string" },
    ...BASE_MODEL_FLAGS,
  });
  const configPaths = requireConfigPaths(positionals, "run");
  const modelSpec = checkFlag("model", z.string({ message: "required, e.g. --model openai-compatible:Qwen/Qwen3-8B" }).min(1), values.model);
  const numFewshot = values["num-fewshot"] === undefined ? undefined : checkFlag("num-fewshot", intFlag(0, 1000), values["num-fewshot"]);
  const limit = values.limit === undefined ? undefined : checkFlag("limit", intFlag(1), values.limit);
  const concurrency = values.concurrency === undefined ? 16 : checkFlag("concurrency", intFlag(1, 4096), values.concurrency);
  const seed = values.seed === undefined ? 1234 : checkFlag("seed", intFlag(0, 2 ** 32 - 1), values.seed);
  const generation = generationOverrides(values, values.seed === undefined ? undefined : seed);
  const maxAttempts = values["max-attempts"] === undefined ? undefined : checkFlag("max-attempts", intFlag(1, 100), values["max-attempts"]);
  const timeoutMs = values["timeout-ms"] === undefined ? undefined : checkFlag("timeout-ms", intFlag(1), values["timeout-ms"]);
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const dryRun = values["dry-run"] === true;
  const batchPollSeconds =
    values["batch-poll-seconds"] === undefined ? undefined : checkFlag("batch-poll-seconds", z.coerce.number({ message: "expected seconds, e.g. --batch-poll-seconds 30" }).positive(), values["batch-poll-seconds"]);
  if (batchPollSeconds !== undefined && !values.batch) throw new UsageError("--batch-poll-seconds needs --batch");
  const maxCostUsd = values["max-cost"] === undefined ? undefined : checkFlag("max-cost", z.coerce.number({ message: "expected an amount in USD, e.g. --max-cost 5" }).positive(), values["max-cost"]);
  const baseURLs = (values["base-url"] ?? []).map((u) => checkFlag("base-url", z.url({ message: "expected an http(s) URL" }), u));
  let apiKey: string | undefined;
  if (values["api-key-env"] !== undefined) {
    apiKey = io.env[values["api-key-env"]];
    if (!apiKey) throw new UsageError(`--api-key-env: environment variable ${values["api-key-env"]} is not set`);
  }
  const judgeBaseURLs = (values["judge-base-url"] ?? []).map((u) => checkFlag("judge-base-url", z.url({ message: "expected an http(s) URL" }), u));
  let judgeApiKey: string | undefined;
  if (values["judge-api-key-env"] !== undefined) {
    judgeApiKey = io.env[values["judge-api-key-env"]];
    if (!judgeApiKey) throw new UsageError(`--judge-api-key-env: environment variable ${values["judge-api-key-env"]} is not set`);
  }

  let registry = registryOverride ?? createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
  if (values.plugin?.length) registry = registry.extend(await loadPluginPackages(values.plugin, io.cwd));

  const skipUnsupported = values["skip-unsupported"] === true;
  const loaded = await loadTaskSpecs(configPaths.map((p) => resolve(io.cwd, p)), {
    dialects: dialectsOf(registry),
    tasks: listFlag(values.tasks),
    languages: listFlag(values.langs),
    ...(values.suite !== undefined ? { suite: values.suite } : {}),
    ...(numFewshot !== undefined ? { numFewshot } : {}),
    seed,
    ...(values.reasoning ? { reasoning: true } : {}),
    ...baseModelLoadOptions(values),
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

  const display = values.quiet ? undefined : createProgressReporter({ stream: io.stderr, stats: runStats });
  const log = (m: string): void => {
    if (display) display.log(m);
    else io.stderr.write(`${m}\n`);
  };
  const controller = new AbortController();
  // Every in-flight request listens on this one signal.
  setMaxListeners(0, controller.signal);
  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(130);
    log("\ninterrupted: stopping the requests in flight and saving (Ctrl-C again to quit at once)");
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const report = await evaluate({
      tasks,
      model: modelSpec,
      baseURL: baseURLs,
      ...(apiKey ? { apiKey } : {}),
      ...(values.out !== undefined ? { out: values.out } : {}),
      ...(limit !== undefined ? { limit } : {}),
      seed,
      concurrency,
      ...(shard ? { shard } : {}),
      ...(values["model-revision"] ? { modelRevision: values["model-revision"] } : {}),
      cache: values["no-cache"] ? false : defaultCachePath(io.env),
      registry,
      cwd: io.cwd,
      baseDir,
      maxAttempts,
      timeoutMs,
      signal: controller.signal,
      progress: display ?? runStats,
      log,
      recordedOptions: { configs: configPaths },
      ...(values.batch ? { batch: batchPollSeconds !== undefined ? { pollSeconds: batchPollSeconds } : {} } : {}),
      judge: {
        judgeModel: values["judge-model"],
        judgeBaseURLs,
        ...(judgeApiKey ? { judgeApiKey } : {}),
        ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
      },
      ...(dryRun || maxCostUsd !== undefined || values.prices !== undefined
        ? {
            cost: {
              prices: await loadPrices(values.prices === undefined ? undefined : resolve(io.cwd, values.prices)),
              dryRun,
              ...(values.batch ? { batch: true } : {}),
              ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
              onEstimate: (e: RunEstimate) => {
                if (dryRun || values.quiet) return;
                const spent = e.spentUsd ? `; spent already ${formatUsd(e.spentUsd)}` : "";
                log(`estimated cost of what this run sends: ${e.costUsd === undefined ? "unknown (no price)" : formatUsd(e.costUsd)}${spent}${maxCostUsd !== undefined ? ` (--max-cost ${maxCostUsd} USD)` : ""}`);
              },
              onBudgetExceeded: (message: string) => {
                log(message);
                controller.abort();
              },
            },
          }
        : {}),
      onStoreOpened: (dir, resumed) => {
        if (!values.quiet) log(`${resumed ? "resuming" : "writing"} run store ${dir}`);
      },
    });
    const { outDir } = report;
    display?.close();
    if (dryRun) {
      io.stdout.write(`${formatEstimate(report.estimate!)}\n`);
      return 0;
    }
    const session = runStats.session(report.aborted);
    await appendRunSession(outDir, session);
    if (!values.quiet) log(`${formatRunSummary(session, io.stderr.isTTY ? (io.stderr.columns ?? 80) - 1 : undefined)}\n  saved to ${join(outDir, "run-stats.json")}`);
    if (report.aborted) {
      log(`stopped; run the same command again to continue (${outDir})`);
      return 130;
    }
    const errors = report.tasks.reduce((a, t) => a + t.errors, 0);
    // Judge answers come through the same cache.
    const fromCache = [...report.answering, ...(report.judging ?? [])].reduce((a, t) => a + t.fromCache, 0);
    if (fromCache > 0 && !values.quiet) log(`${fromCache} answer(s) came from the request cache (${defaultCachePath(io.env)}; --no-cache to ask the server again)`);
    const total = typeof report.results?.total === "number" ? report.results.total : undefined;
    io.stdout.write(`${formatResultsTable(report.tasks, total)}\n`);
    if (!values.quiet) log(`results: ${join(outDir, "results.json")}`);
    const ultraeval = await writeRunUltraEvalOutputs(outDir);
    if (ultraeval && !values.quiet) log(`UltraEval outputs (final_metrics.json, instance.jsonl per task, _all_results.json): ${ultraeval.dir}`);
    if (!values["no-report"]) await writeRunReport(outDir, log, values.quiet === true);
    const failed = report.tasks.filter((t) => t.failure);
    for (const t of failed) log(`task ${t.key} could not be scored: ${t.failure}`);
    const judgeErrors = report.judging?.reduce((a, t) => a + t.errors, 0) ?? 0;
    if (judgeErrors > 0) {
      log(`${judgeErrors} sample(s) lack a judgement (a judge call failed or its reply did not parse; see their judge records); run the same command again to retry failed judge calls`);
    }
    if (errors > judgeErrors) {
      log(`${errors - judgeErrors} request(s) failed for good and were scored as empty answers; run the same command again to retry them`);
      return 1;
    }
    return failed.length > 0 || judgeErrors > 0 ? 1 : 0;
  } finally {
    display?.close();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
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

