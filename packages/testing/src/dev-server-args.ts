import { type CliCommandSpec, ConfigError, closestName, defineFlags, formatCommandHelp, helpWidth, YardstickError } from "@yardstick/core";
import { type DevServer, startDevServer } from "./dev-server.js";
import type { DevServerBatch, DevServerFaults, DevServerOptions } from "./dev-server-options.js";
import { parseDevServerOptions } from "./dev-server-options.js";
import type { DevServerPolicy, DevServerPolicyFunction } from "./dev-server-policy.js";

/** The dev server's flags: the parser below accepts exactly these, and its help lists them. */
const DEV_SERVER_FLAGS = defineFlags({
  port: { type: "string", value: "N", default: "0, a free port", description: "port to listen on" },
  host: { type: "string", value: "HOST", default: "127.0.0.1", description: "address to bind" },
  policy: { type: "string", value: "P", default: "echo", description: "echo | fixed:TEXT | file:PATH | a named policy" },
  "latency-ms": { type: "string", value: "N|MIN:MAX", default: "0", description: "time from a request's arrival to its answer: fixed, or seeded uniform in [MIN, MAX]" },
  "fail-rate-429": { type: "string", value: "R", default: "0", description: "share of requests answered 429 with Retry-After (0..1)" },
  "fail-rate-500": { type: "string", value: "R", default: "0", description: "share of requests answered 500" },
  "fail-rate-529": { type: "string", value: "R", default: "0", description: "share of requests answered 529 (overloaded) with Retry-After" },
  "fail-rate-reset": { type: "string", value: "R", default: "0", description: "share of requests whose connection is reset" },
  "fail-rate-malformed": { type: "string", value: "R", default: "0", description: "share of requests answered with a truncated JSON body" },
  "fail-rate-hang": { type: "string", value: "R", default: "0", description: "share of requests never answered" },
  "retry-after": { type: "string", value: "S", default: "1", description: "Retry-After seconds sent with injected 429s and 529s" },
  "batch-delay-ms": { type: "string", value: "N", default: "0", description: "time a batch stays in progress before it ends" },
  "batch-fail-rate": { type: "string", value: "R", default: "0", description: "share of a batch's requests that fail (0..1)" },
  "batch-expire-rate": { type: "string", value: "R", default: "0, never expires", description: "share of a batch's requests left unfinished when it expires (0..1)" },
  "batch-max-requests": { type: "string", value: "N", default: "OpenAI 50000, Anthropic 100000", description: "requests allowed in one batch" },
  seed: { type: "string", value: "N", default: "0", description: "seed of the fault and latency draws" },
  model: { type: "string", multiple: true, value: "ID", default: "yardstick-dev", description: "a model id listed by /v1/models" },
  root: { type: "string", value: "ROOT", default: "derived from the policy", description: 'the checkpoint /v1/models reports as "root"' },
  "max-model-len": { type: "string", value: "N", default: "32768", description: 'the context length /v1/models reports as "max_model_len"' },
  "api-key": { type: "string", value: "KEY", description: "require KEY as x-api-key on POST /v1/messages (a test key, not a real one)" },
});

export const DEV_SERVER_HELP: CliCommandSpec = {
  command: "yardstick-dev-server",
  summary:
    "A local OpenAI-compatible server (GET /v1/models, POST /v1/chat/completions, POST /v1/completions, GET /stats) that also speaks Anthropic's Messages API (POST /v1/messages), and both batch APIs (OpenAI /v1/files + /v1/batches, Anthropic /v1/messages/batches). Prints its URL on one line, then runs until SIGINT or SIGTERM.",
  flags: DEV_SERVER_FLAGS,
};

/** The help at 80 columns. */
export const DEV_SERVER_USAGE = formatCommandHelp(DEV_SERVER_HELP);

export interface DevServerCliArgs {
  options: DevServerOptions;
  help: boolean;
}

const FAULT_FLAGS: Record<string, keyof DevServerFaults> = {
  "--fail-rate-429": "rate429",
  "--fail-rate-500": "rate500",
  "--fail-rate-529": "rate529",
  "--fail-rate-reset": "rateReset",
  "--fail-rate-malformed": "rateMalformed",
  "--fail-rate-hang": "rateHang",
  "--retry-after": "retryAfterSeconds",
};

const BATCH_FLAGS: Record<string, keyof DevServerBatch> = {
  "--batch-delay-ms": "processingMs",
  "--batch-fail-rate": "failRate",
  "--batch-expire-rate": "expireRate",
  "--batch-max-requests": "maxRequests",
};

const VALUE_FLAGS = new Set(Object.keys(DEV_SERVER_FLAGS).map((name) => `--${name}`));

/**
 * Parses the dev server's flags (`--flag value` or `--flag=value`). `policies` adds named function
 * policies that `--policy NAME` may select. Bad flags raise a `ConfigError` naming the flag.
 */
export function parseDevServerArgs(
  argv: readonly string[],
  policies: Readonly<Record<string, DevServerPolicyFunction>> = {},
): DevServerCliArgs {
  const options: { -readonly [K in keyof DevServerOptions]: DevServerOptions[K] } = {};
  const faults: Record<string, number> = {};
  const batch: Record<string, number> = {};
  const models: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help") {
      help = true;
      continue;
    }
    if (!arg.startsWith("--")) throw flagError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf("=");
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    if (!VALUE_FLAGS.has(flag)) {
      const near = closestName(flag.slice(2), Object.keys(DEV_SERVER_FLAGS));
      throw flagError(`unknown flag ${flag}${near === undefined ? "" : ` (did you mean --${near}?)`}`);
    }
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined) throw flagError(`${flag} needs a value`);
      value = next;
      i++;
    }
    switch (flag) {
      case "--port":
        options.port = integer(flag, value);
        break;
      case "--host":
        options.host = value;
        break;
      case "--seed":
        options.seed = integer(flag, value);
        break;
      case "--latency-ms": {
        const [min, max] = value.split(":");
        options.latencyMs =
          max === undefined ? number(flag, value) : { min: number(flag, min ?? ""), max: number(flag, max) };
        break;
      }
      case "--policy":
        options.policy = parsePolicy(value, policies);
        break;
      case "--model":
        models.push(value);
        break;
      case "--root":
        options.root = value;
        break;
      case "--max-model-len":
        options.maxModelLen = integer(flag, value);
        break;
      case "--api-key":
        options.apiKey = value;
        break;
      default: {
        const batchKey = BATCH_FLAGS[flag];
        if (batchKey !== undefined) {
          batch[batchKey] = batchKey === "maxRequests" ? integer(flag, value) : number(flag, value);
          break;
        }
        const key = FAULT_FLAGS[flag];
        if (key === undefined) throw flagError(`unknown flag ${flag}`);
        faults[key] = number(flag, value);
      }
    }
  }
  if (Object.keys(faults).length > 0) options.faults = faults;
  if (models.length > 0) options.models = models;
  if (Object.keys(batch).length > 0) options.batch = batch;
  // Range checks (rates in 0..1, port range, ...) are the server's own option schema.
  parseDevServerOptions(options);
  return { options, help };
}

function parsePolicy(value: string, policies: Readonly<Record<string, DevServerPolicyFunction>>): DevServerPolicy {
  if (value === "echo") return "echo";
  if (value.startsWith("fixed:")) return { fixed: value.slice("fixed:".length) };
  if (value.startsWith("file:") && value.length > "file:".length) return { file: value.slice("file:".length) };
  const named = Object.hasOwn(policies, value) ? policies[value] : undefined;
  if (named) return named;
  const names = ["echo", "fixed:TEXT", "file:PATH", ...Object.keys(policies).sort()];
  throw flagError(`unknown --policy "${value}"`, names.join(" | "));
}

function number(flag: string, value: string): number {
  const n = value.trim() === "" ? Number.NaN : Number(value);
  if (!Number.isFinite(n)) throw flagError(`${flag} must be a number, got "${value}"`);
  return n;
}

function integer(flag: string, value: string): number {
  const n = number(flag, value);
  if (!Number.isInteger(n)) throw flagError(`${flag} must be an integer, got "${value}"`);
  return n;
}

function flagError(message: string, expected?: string): ConfigError {
  return new ConfigError(message, expected === undefined ? {} : { expected });
}

export interface RunDevServerCliOptions {
  /** Named function policies `--policy NAME` may select (e.g. the runner's "spatial-solver"). */
  policies?: Readonly<Record<string, DevServerPolicyFunction>>;
  stdout?: (line: string) => void;
  stderr?: (line: string) => void;
  /** The words that invoke the server, as its help shows them (default `yardstick-dev-server`). */
  command?: string;
  /** The stream whose width help is fitted to (default process.stdout; 80 columns when not a terminal). */
  terminal?: { isTTY?: boolean; columns?: number };
  /** Stops the server when aborted (besides SIGINT/SIGTERM). */
  signal?: AbortSignal;
}

/**
 * The `yardstick-dev-server` command: returns the exit code (0 after a clean shutdown, 2 for bad
 * flags or options, 1 when the server cannot start).
 */
export async function runDevServerCli(argv: readonly string[], run: RunDevServerCliOptions = {}): Promise<number> {
  const out = run.stdout ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = run.stderr ?? ((line: string) => process.stderr.write(`${line}\n`));
  let args: DevServerCliArgs;
  try {
    args = parseDevServerArgs(argv, run.policies);
  } catch (error) {
    if (!YardstickError.isInstance(error)) throw error;
    err(`yardstick-dev-server: ${error.message} (see --help)`);
    return 2;
  }
  if (args.help) {
    out(formatCommandHelp({ ...DEV_SERVER_HELP, command: run.command ?? DEV_SERVER_HELP.command }, helpWidth(run.terminal ?? process.stdout)));
    return 0;
  }
  let server: DevServer;
  try {
    server = await startDevServer(args.options);
  } catch (error) {
    err(`yardstick-dev-server: cannot start: ${(error as Error).message}`);
    return YardstickError.isInstance(error) ? 2 : 1;
  }
  out(server.url);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      run.signal?.removeEventListener("abort", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    if (run.signal?.aborted) stop();
    else run.signal?.addEventListener("abort", stop);
  });
  await server.close();
  return 0;
}
