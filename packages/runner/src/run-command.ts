import { setMaxListeners } from "node:events";
import { PassThrough } from "node:stream";
import { join, resolve } from "node:path";
import { type CliCommandSpec, ConfigError, defineFlags, type GenerationParams, type Registry } from "@yardstick/core";
import { type RunEstimate, appendRunSession, createProgressReporter, createRunStats, formatRunSummary, formatUsd, parseShard } from "@yardstick/engine";
import { z } from "zod";
import { UsageError, checkFlag, intFlag, listFlag, parseFlags, requireConfigPaths } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, dialectsOf, loadPluginPackages } from "./builtins.js";
import type { CliIO } from "./io.js";
import { evaluate } from "./evaluate.js";
import { loadNamedMetricPackages } from "./metric-packages.js";
import { formatResultsTable, notComputedLines } from "./table.js";
import { recordTaskRetries } from "./task-retries.js";
import { withScoringUrls } from "./scoring-settings.js";
import { tuningHeapByPhase } from "./heap-tuning.js";
import { checkTasksRunnable, findUnrunnable, loadTaskSpecs } from "./tasks.js";
import { cacheRoot, defaultCachePath } from "./cache-paths.js";
import { formatEstimate, loadPrices } from "./cost.js";
import { writeRunUltraEvalOutputs } from "./ultraeval-outputs.js";
import { type RepeatedRun, repeatRuns, runsTask } from "./repeat-runs.js";
import { BASE_MODEL_FLAGS, baseModelLoadOptions } from "./base-model-flags.js";

const RUN_FLAGS = defineFlags({
  model: {
    type: "string",
    value: "PROVIDER:MODEL",
    required: true,
    description: "the model to evaluate: openai-compatible:<id> (alias openai:), anthropic:<id>, baseline:random, baseline:majority, or <provider>:<id> of a plugin",
  },
  "base-url": { type: "string", multiple: true, value: "URL", description: "the server's OpenAI-compatible base URL, ending in /v1; several share the requests by latency and load, one that fails is set aside until it answers again" },
  "api-key-env": { type: "string", value: "NAME", default: "no key", description: "the environment variable holding the API key (sent only in the auth header)" },
  tasks: { type: "string", value: "a,b", default: "every task", description: "only these tasks or aggregation groups" },
  langs: { type: "string", value: "x,y", default: "every language", description: "only these languages" },
  suite: { type: "string", value: "NAME", description: "only the tasks of a named suite (SEA-HELM's task_config.yaml), in its order" },
  "num-fewshot": { type: "string", value: "N", default: "each config's count", description: "few-shot examples per prompt" },
  reasoning: { type: "boolean", description: "the model thinks before it answers: SEA-HELM's max_think_tokens added to every max_tokens" },
  ...BASE_MODEL_FLAGS,
  limit: { type: "string", value: "N", default: "every sample", description: "only the first N samples of each task" },
  out: {
    type: "string",
    value: "DIR",
    default: "runs/<model>-<fingerprint>",
    description: "the run store; the same command again resumes it",
  },
  concurrency: { type: "string", value: "N", default: "16", description: "requests in flight at once" },
  seed: { type: "string", value: "N", default: "1234", description: "seed of the run's draws (UltraEval few-shot examples, intervals, baseline:random); given, also sent as the request seed (SEA-HELM tasks always send it)" },
  "no-cache": { type: "boolean", description: "ask the server again instead of answering from the request cache" },
  plugin: { type: "string", multiple: true, value: "PACKAGE", description: "load a plugin package first" },
  "max-attempts": { type: "string", value: "N", default: "6", description: "attempts per request before it fails for good" },
  "timeout-ms": {
    type: "string",
    value: "N",
    default: "openai-compatible 120000, anthropic 600000",
    description: "time limit of one attempt",
  },
  temperature: { type: "string", value: "X", default: "the config's", description: "sampling temperature for every task (enters the fingerprint)" },
  "top-p": { type: "string", value: "X", default: "the config's", description: "nucleus sampling for every task" },
  "max-tokens": { type: "string", value: "N", default: "the config's", description: "completion token limit for every task" },
  stop: { type: "string", multiple: true, value: "S", default: "the config's", description: "a stop string for every task" },
  "extra-body": { type: "string", value: "JSON", description: "a JSON object merged into every request body (e.g. vLLM's chat_template_kwargs)" },
  "skip-unsupported": { type: "boolean", description: "leave out (and name) the tasks that cannot run here instead of refusing the run" },
  shard: { type: "string", value: "I/N", default: "the whole run", description: "answer only shard I of N (join the shards with yardstick merge)" },
  "model-revision": { type: "string", value: "REV", description: "the model's revision, part of its cache identity" },
  "no-report": { type: "boolean", description: "do not write report.html into the run store" },
  "judge-model": { type: "string", value: "P:M", default: "the judge model the config names", description: "the judge model of judged tasks, built like --model" },
  "judge-base-url": { type: "string", multiple: true, value: "URL", default: "--base-url", description: "the judge model's base URL" },
  "judge-api-key-env": { type: "string", value: "NAME", default: "no key", description: "the environment variable holding the judge's API key" },
  baseline: { type: "string", value: "RUN", description: "a finished run whose answers pairwise judges compare against" },
  "dry-run": { type: "boolean", description: "print the requests, tokens, cost and time a run would spend now, and send nothing" },
  batch: { type: "boolean", description: "send the requests through the provider's batch API (OpenAI Batch, Anthropic Message Batches)" },
  "batch-poll-seconds": { type: "string", value: "S", default: "60", description: "longest wait between polls of a batch (with --batch)" },
  "max-cost": { type: "string", value: "USD", default: "no limit", description: "refuse or stop a run whose spend would cross this" },
  prices: { type: "string", value: "FILE", default: "the built-in prices", description: "a YAML or JSON price file adding to and overriding the built-in prices" },
  quiet: { type: "boolean", description: "no progress display or log lines on stderr (the results table is still printed)" },
  "metricx-url": {
    type: "string",
    value: "URL",
    default: "YARDSTICK_METRICX_URL, else none",
    description: "a MetricX-24 scoring endpoint for translation tasks (JSON protocol: docs/architecture.md); without one they report chrF++ and 'MetricX not computed'",
  },
  "refclipscore-url": {
    type: "string",
    value: "URL",
    default: "YARDSTICK_REFCLIPSCORE_URL, else none",
    description: "a RefCLIPScore scoring endpoint for SEA-HELM's xm3600 captioning (JSON protocol: docs/architecture.md); without one xm3600 cannot run",
  },
  runs: {
    type: "string",
    value: "N",
    default: "one run",
    description:
      "repeat the run N times, run i with seed --seed + i into <out>/runs/<i> (SEA-HELM tasks sit out the runs past their max_n_runs), then report SEA-HELM's bootstrap over the runs (mean ± stderr at every level) in <out>/<model>_scores.yaml; needs --out",
  },
});

export const RUN_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick run",
    summary:
      "Evaluates the tasks of the configs against a model: answers every sample into a run store, judges the judged tasks, scores the store, prints the results table and writes results.json and report.html. Stopped or killed, the same command continues where it stopped.",
    positionals: [{ name: "<config-file-or-folder>...", description: "config files, or folders searched for them (each read by its config dialect)" }],
    flags: RUN_FLAGS,
  },
];

export async function runCommand(argv: string[], io: CliIO, registryOverride?: Registry, repeat?: RepeatedRun): Promise<number> {
  // The counters behind the progress display and run-stats.json (kept with --quiet too); the wall time counts from here.
  const runStats = createRunStats();
  const { values, positionals } = parseFlags(argv, RUN_FLAGS);
  const configPaths = requireConfigPaths(positionals, "run");
  const modelSpec = checkFlag("model", z.string({ message: "required, e.g. --model openai-compatible:Qwen/Qwen3-8B" }).min(1), values.model);
  const numFewshot = values["num-fewshot"] === undefined ? undefined : checkFlag("num-fewshot", intFlag(0, 1000), values["num-fewshot"]);
  const limit = values.limit === undefined ? undefined : checkFlag("limit", intFlag(1), values.limit);
  const concurrency = checkFlag("concurrency", intFlag(1, 4096), values.concurrency ?? RUN_FLAGS.concurrency.default);
  const baseSeed = checkFlag("seed", intFlag(0, 2 ** 32 - 1), values.seed ?? RUN_FLAGS.seed.default);
  if (values.runs !== undefined && !repeat) {
    const runs = checkFlag("runs", intFlag(1, 1000), values.runs);
    if (values.out === undefined) throw new UsageError("--runs needs --out DIR: the folder that holds runs/<i>/ and the scores over the runs");
    if (values.shard !== undefined || values["dry-run"]) throw new UsageError("--runs cannot be combined with --shard or --dry-run");
    // Each run's own results table would only repeat what the table over the runs shows.
    const inner: CliIO = { ...io, stdout: new PassThrough().resume() };
    return repeatRuns({ runs, seed: baseSeed, out: values.out, model: modelSpec, io, quiet: values.quiet === true, runOnce: (r) => runCommand(argv, inner, registryOverride, r) });
  }
  // A repeated run always sends its own seed, so the runs differ.
  const seed = repeat?.seed ?? baseSeed;
  const generation = generationOverrides(values, values.seed === undefined && !repeat ? undefined : seed);
  const maxAttempts = values["max-attempts"] === undefined ? undefined : checkFlag("max-attempts", intFlag(1, 100), values["max-attempts"]);
  const timeoutMs = values["timeout-ms"] === undefined ? undefined : checkFlag("timeout-ms", intFlag(1), values["timeout-ms"]);
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  const dryRun = values["dry-run"] === true;
  const batchPollSeconds =
    values["batch-poll-seconds"] === undefined ? undefined : checkFlag("batch-poll-seconds", z.coerce.number({ message: "expected a positive number of seconds, e.g. --batch-poll-seconds 30" }).positive(), values["batch-poll-seconds"]);
  if (batchPollSeconds !== undefined && !values.batch) throw new UsageError("--batch-poll-seconds needs --batch");
  const maxCostUsd = values["max-cost"] === undefined ? undefined : checkFlag("max-cost", z.coerce.number({ message: "expected a positive amount in USD, e.g. --max-cost 5" }).positive(), values["max-cost"]);
  const baseURLs = distinctServers("base-url", (values["base-url"] ?? []).map((u) => checkFlag("base-url", z.url({ message: "expected an http(s) URL" }), u)));
  let apiKey: string | undefined;
  if (values["api-key-env"] !== undefined) {
    apiKey = io.env[values["api-key-env"]];
    if (!apiKey) throw new UsageError(`--api-key-env: environment variable ${values["api-key-env"]} is not set`);
  }
  const judgeBaseURLs = distinctServers("judge-base-url", (values["judge-base-url"] ?? []).map((u) => checkFlag("judge-base-url", z.url({ message: "expected an http(s) URL" }), u)));
  let judgeApiKey: string | undefined;
  if (values["judge-api-key-env"] !== undefined) {
    judgeApiKey = io.env[values["judge-api-key-env"]];
    if (!judgeApiKey) throw new UsageError(`--judge-api-key-env: environment variable ${values["judge-api-key-env"]} is not set`);
  }

  let registry = registryOverride ?? createBuiltinRegistry(withScoringUrls(builtinSettingsFromEnv(io.env, cacheRoot(io.env)), { metricx: values["metricx-url"], refclipscore: values["refclipscore-url"] }));
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
  // Upstream skips a task from run max_n_runs on, except for reasoning models.
  let tasks = repeat && !values.reasoning ? loaded.tasks.filter((t) => runsTask(t, repeat.run)) : loaded.tasks;
  if (repeat && tasks.length === 0) {
    io.stderr.write(`run ${repeat.run}: every selected task reached its max_n_runs; nothing to run\n`);
    return 0;
  }
  if (plugins.length > 0) registry = registry.extend(await loadPluginPackages(plugins, baseDir));
  registry = (await loadNamedMetricPackages(tasks, registry, [io.cwd])).registry;
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
  // Once every answer is stored (scoring, the report), a stop loses nothing: the run's next
  // command scores again from the store without sending a request. So Ctrl-C there quits at once
  // (each derived file is written whole or not at all) after saving this session's statistics.
  let storeDir: string | undefined;
  let answersStored = false;
  let sessionSaved = false;
  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
    if (answersStored && storeDir !== undefined) {
      log(`\ninterrupted while scoring: every answer is stored; run the same command again to score them (no request is sent again): ${storeDir}`);
      setTimeout(() => process.exit(130), 1000).unref();
      const saved = sessionSaved ? Promise.resolve() : appendRunSession(storeDir, runStats.session(true));
      void saved.finally(() => process.exit(130));
      return;
    }
    log("\ninterrupted: stopping the requests in flight and saving (Ctrl-C again to quit at once)");
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const report = await evaluate({
      tasks,
      model: modelSpec,
      baseURL: baseURLs,
      ...(apiKey ? { apiKey } : {}),
      ...(repeat ? { out: repeat.out } : values.out !== undefined ? { out: values.out } : {}),
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
      progress: tuningHeapByPhase(display ?? runStats, (phase) => {
        if (phase === "score") answersStored = true;
      }),
      log,
      skipUnsupported,
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
        storeDir = dir;
        if (!values.quiet) log(`${resumed ? "resuming" : "writing"} run store ${dir}`);
      },
    });
    const { outDir } = report;
    display?.close();
    if (report.aborted && outDir === "") {
      log("stopped before the first request; nothing was written");
      return 130;
    }
    if (dryRun) {
      io.stdout.write(`${formatEstimate(report.estimate!)}\n`);
      return 0;
    }
    const session = runStats.session(report.aborted);
    sessionSaved = true;
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
    const { retries } = await recordTaskRetries(outDir);
    io.stdout.write(`${formatResultsTable(report.tasks, total, retries)}\n`);
    for (const line of notComputedLines(report.tasks)) log(line);
    if (!values.quiet) log(`results: ${join(outDir, "results.json")}`);
    const ultraeval = await writeRunUltraEvalOutputs(outDir);
    if (ultraeval && !values.quiet) log(`UltraEval outputs (final_metrics.json, instance.jsonl per task, _all_results.json): ${ultraeval.dir}`);
    // Loaded here, not with the command: a run with --no-report (or one that stops early) never needs it.
    if (!values["no-report"]) await (await import("./report-command.js")).writeRunReport(outDir, log, values.quiet === true);
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
    checkFlag(flag, z.coerce.number({ message: `expected a number from ${min} to ${max}` }).min(min).max(max), values[flag]);
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

/**
 * The base URLs of a repeatable URL flag, refused when two name one server (a trailing slash or
 * the host's case aside): it would get two lanes of the fleet and be shown twice in the statistics.
 */
function distinctServers(flag: string, urls: string[]): string[] {
  const seen = new Map<string, string>();
  for (const url of urls) {
    const parsed = new URL(url);
    const key = `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, "")}${parsed.search}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new UsageError(`--${flag}: ${url} names the same server as ${earlier}; give each server once`);
    seen.set(key, url);
  }
  return urls;
}
