/**
 * `yardstick score`: scores a prediction file against one or more reference files (one segment
 * per line) with any text-pair metric and prints the corpus result as JSON, like sacrebleu's
 * `-f json`. Returns the exit code instead of exiting so the runner can embed it.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { type CliCommandSpec, defineFlags, formatCommandsHelp, helpWidth, type MetricInput, type MetricV1, parseArgsErrorMessage, parseArgsOptions, YardstickError } from "@yardstick/core";

export interface ScoreCliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
}

/** The flags of `yardstick score`: parsed with node:util parseArgs, and its help. */
const SCORE_FLAGS = defineFlags({
  metric: { type: "string", short: "m", value: "ID", required: true, description: "the metric (a text-pair metric; see --list)" },
  option: {
    type: "string",
    short: "o",
    multiple: true,
    value: "key=value",
    description: "a metric option; the value is parsed as JSON when possible (numbers, true/false, lists), else kept as text",
  },
  pred: { type: "string", short: "p", value: "FILE", required: true, description: "the predictions, one segment per line" },
  ref: { type: "string", short: "r", multiple: true, value: "FILE", required: true, description: "a reference file; several give several references per segment" },
  main: { type: "string", value: "KEY", default: "the metric's headline score", description: 'which of the metric\'s outputs is reported as "score"' },
  "per-sample": { type: "boolean", description: "also print each line's scores" },
  list: { type: "boolean", description: "list the text-pair metrics and exit" },
});

export const SCORE_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick score",
    usage: ["yardstick score --metric ID [--option key=value ...] --pred FILE --ref FILE [--ref FILE ...] [--main KEY] [--per-sample]", "yardstick score --list"],
    summary:
      "Scores FILE line by line (one segment per line) against the reference file(s) and prints the corpus score and its parts as JSON, like sacrebleu's -f json.",
    flags: SCORE_FLAGS,
  },
];

const scoreHelp = (stream: ScoreCliIo["stdout"]): string => `${formatCommandsHelp(SCORE_HELP, helpWidth(stream))}\n`;

/** A problem with the command line or the input files: reported with exit code 2. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = false,
  ) {
    super(message);
  }
}

interface ScoreArgs {
  list: boolean;
  help: boolean;
  perSample: boolean;
  main: string | undefined;
  metric: string | undefined;
  options: Record<string, unknown>;
  pred: string | undefined;
  refs: string[];
}

function parseOptionPairs(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--option expects key=value, got "${pair}"`, true);
    const key = pair.slice(0, eq).trim();
    const raw = pair.slice(eq + 1);
    if (Object.hasOwn(out, key)) throw new UsageError(`--option ${key} given twice`);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // not JSON: keep the text (e.g. tokenize=13a)
    }
    out[key] = value;
  }
  return out;
}

function parseScoreArgs(argv: readonly string[]): ScoreArgs {
  const args = argv[0] === "score" ? argv.slice(1) : [...argv];
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: { ...parseArgsOptions(SCORE_FLAGS), help: { type: "boolean", short: "h" } },
    });
  } catch (e) {
    throw new UsageError(parseArgsErrorMessage(e, SCORE_FLAGS), true);
  }
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>;
  return {
    list: v.list === true,
    help: v.help === true,
    perSample: v["per-sample"] === true,
    main: v.main as string | undefined,
    metric: v.metric as string | undefined,
    options: parseOptionPairs((v.option as string[] | undefined) ?? []),
    pred: v.pred as string | undefined,
    refs: (v.ref as string[] | undefined) ?? [],
  };
}

/** One segment per line; a final newline does not start an extra segment. `\r` is kept (sacrebleu reads with newline="\n"). */
async function readSegments(path: string, what: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${what} file ${path}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (e as Error).message}`);
  }
  if (text === "") throw new UsageError(`${what} file ${path} is empty`);
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function listMetrics(metrics: Record<string, MetricV1>): string {
  const rows = Object.entries(metrics)
    .filter(([, m]) => m.textPairs === true)
    .sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(0, ...rows.map(([id]) => id.length));
  return rows.map(([id, m]) => `${id.padEnd(width)}  ${m.description ?? ""}`.trimEnd()).join("\n") + "\n";
}

async function score(args: ScoreArgs, io: ScoreCliIo, metrics: Record<string, MetricV1>): Promise<void> {
  if (args.metric === undefined) throw new UsageError("--metric is required (see --list)", true);
  const metric = metrics[args.metric];
  if (metric === undefined) {
    const ids = Object.keys(metrics).filter((id) => metrics[id]!.textPairs === true).sort();
    throw new UsageError(`unknown metric "${args.metric}"; text-pair metrics: ${ids.join(", ") || "(none)"}`);
  }
  if (metric.textPairs !== true) throw new UsageError(`metric "${args.metric}" cannot score plain text pairs`);
  if (args.pred === undefined) throw new UsageError("--pred FILE is required", true);
  if (args.refs.length === 0) throw new UsageError("at least one --ref FILE is required", true);

  const preds = await readSegments(args.pred, "prediction");
  const refs: string[][] = [];
  for (const path of args.refs) {
    const lines = await readSegments(path, "reference");
    if (lines.length !== preds.length) {
      throw new UsageError(`line counts differ: ${args.pred} has ${preds.length} lines but ${path} has ${lines.length}`);
    }
    refs.push(lines);
  }
  const inputs: MetricInput[] = preds.map((prediction, i) => ({
    sampleId: String(i + 1),
    prediction,
    reference: refs.length === 1 ? refs[0]![i]! : refs.map((r) => r[i]!),
  }));
  const result = await metric.compute(inputs, args.options);
  const summary = result.details?.summary;
  const main = args.main ?? headlineKey(result.scores);
  if (args.main !== undefined && !(args.main in result.scores)) {
    throw new UsageError(`--main ${args.main}: metric "${metric.id}" reports ${Object.keys(result.scores).join(", ")}`);
  }
  const out: Record<string, unknown> =
    summary !== null && typeof summary === "object" && args.main === undefined
      ? { ...(summary as Record<string, unknown>) }
      : { name: metric.id, score_key: main ?? null, score: main === undefined ? null : result.scores[main], scores: result.scores };
  if (args.perSample) out.per_sample = result.perSample.map((s) => ({ line: Number(s.sampleId), ...s.scores }));
  io.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
}

/**
 * The value reported as "score" when the metric gives no summary of its own: an explicit `score`,
 * else the normalized value SEA-HELM aggregates (`normalized_*`), else a key that is not a count,
 * else the first key.
 */
function headlineKey(scores: Record<string, number>): string | undefined {
  const keys = Object.keys(scores);
  return (
    keys.find((k) => k === "score") ??
    keys.find((k) => k.startsWith("normalized_")) ??
    keys.find((k) => !/(^|_)(count|n)$/.test(k)) ??
    keys[0]
  );
}

export async function runScoreCli(argv: readonly string[], io: ScoreCliIo, metrics: Record<string, MetricV1>): Promise<number> {
  try {
    const args = parseScoreArgs(argv);
    if (args.help) {
      io.stdout.write(scoreHelp(io.stdout));
      return 0;
    }
    if (args.list) {
      io.stdout.write(listMetrics(metrics));
      return 0;
    }
    await score(args, io, metrics);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`yardstick score: ${e.message}\n${e.showUsage ? scoreHelp(io.stderr) : ""}`);
      return 2;
    }
    if (YardstickError.isInstance(e)) {
      io.stderr.write(`yardstick score: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`yardstick score: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}
