/**
 * `yardstick score`: scores predictions (a file, or standard input) against one or more reference
 * files (one segment per line) with any text-pair metric, following sacrebleu's command line where
 * it applies: JSON by default (`-f text` for sacrebleu's one-line form), `-b` for the score alone,
 * `-w` for its decimals, `--confidence` for a bootstrap interval, and a signature naming the
 * settings and the real version. Returns the exit code instead of exiting so the runner can embed it.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { type CliCommandSpec, defineFlags, formatCommandsHelp, helpWidth, type MetricInput, type MetricV1, parseArgsErrorMessage, parseArgsOptions, YardstickError } from "@yardstick/core";
import { bleuSegmentStatistics } from "../text/bleu-metric.js";
import { chrfSegmentStatistics } from "../text/chrf-metric.js";
import { formatFixed } from "../text/format.js";
import type { SegmentStatistics } from "../text/segment-statistics.js";
import { bootstrapEstimate, type BootstrapEstimate, resampledCorpusScores, resampledMeanScores } from "./confidence.js";
import { metricsPackageVersion } from "./package-version.js";

export interface ScoreCliIo {
  stdout: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(chunk: string): unknown; isTTY?: boolean; columns?: number };
  /** Where predictions are read from when `--pred` is `-` or absent; default process.stdin. */
  stdin?: AsyncIterable<string | Uint8Array> & { isTTY?: boolean };
}

/** sacrebleu's defaults: `--width` 1, `--confidence-n` 2000 (its command line), seed 12345 (its SACREBLEU_SEED default). */
const DEFAULT_WIDTH = 1;
const DEFAULT_RESAMPLES = 2000;
const DEFAULT_SEED = 12345;
const STDIN = "-";

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
  pred: { type: "string", short: "p", value: "FILE", default: "standard input", description: 'the predictions, one segment per line; "-" reads standard input' },
  ref: { type: "string", short: "r", multiple: true, value: "FILE", required: true, description: "a reference file; several give several references per segment" },
  main: { type: "string", value: "KEY", default: "the metric's headline score", description: 'which of the metric\'s outputs is reported as "score"' },
  "per-sample": { type: "boolean", description: "also print each line's scores (JSON only)" },
  format: { type: "string", short: "f", value: "json|text", default: "json", description: 'json, or text: sacrebleu\'s one line "NAME|signature = score ..."' },
  "score-only": { type: "boolean", short: "b", description: "print only the score (with its interval when --confidence is given)" },
  width: {
    type: "string",
    short: "w",
    value: "N",
    default: String(DEFAULT_WIDTH),
    description: 'decimals of the printed score; in JSON, "score" is rounded only when -w is given',
  },
  confidence: { type: "boolean", description: "add a bootstrap 95% interval, printed as (μ = mean ± half-width) like sacrebleu" },
  "confidence-n": { type: "string", value: "N", default: String(DEFAULT_RESAMPLES), description: "bootstrap resamples for --confidence" },
  seed: { type: "string", value: "N", default: String(DEFAULT_SEED), description: "seed of the bootstrap resampling" },
  list: { type: "boolean", description: "list the text-pair metrics and exit" },
});

export const SCORE_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick score",
    usage: [
      "yardstick score --metric ID [--option key=value ...] [--pred FILE|-] --ref FILE [--ref FILE ...] [--main KEY] [--per-sample] [-f json|text] [-b] [-w N] [--confidence [--confidence-n N] [--seed N]]",
      "yardstick score --list",
    ],
    summary:
      "Scores the predictions line by line (one segment per line) against the reference file(s) and prints the corpus score, its parts and a sacrebleu-style signature as JSON, like sacrebleu's default -f json.",
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
  format: "json" | "text";
  scoreOnly: boolean;
  /** Undefined when -w was not given (JSON then keeps the score's full precision). */
  width: number | undefined;
  confidence: boolean;
  resamples: number;
  seed: number;
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
    format: parseFormat(v.format as string | undefined),
    scoreOnly: v["score-only"] === true,
    width: v.width === undefined ? undefined : parseInteger("--width", v.width as string, 0, 20),
    confidence: v.confidence === true,
    resamples: v["confidence-n"] === undefined ? DEFAULT_RESAMPLES : parseInteger("--confidence-n", v["confidence-n"] as string, 2, 1_000_000),
    seed: v.seed === undefined ? DEFAULT_SEED : parseInteger("--seed", v.seed as string, 0, 2 ** 32 - 1),
  };
}

function parseFormat(raw: string | undefined): "json" | "text" {
  if (raw === undefined || raw === "json" || raw === "text") return raw ?? "json";
  throw new UsageError(`--format expects json or text, got "${raw}"`, true);
}

function parseInteger(flag: string, raw: string, min: number, max: number): number {
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`${flag} expects a whole number from ${min} to ${max}, got "${raw}"`, true);
  return n;
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
  return splitSegments(text);
}

function splitSegments(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The predictions from standard input (decoded once, so a character split across chunks survives). */
async function readStdinSegments(stdin: NonNullable<ScoreCliIo["stdin"]>): Promise<string[]> {
  if (stdin.isTTY === true) throw new UsageError("no --pred FILE given and standard input is a terminal; pipe the predictions in or pass --pred FILE", true);
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") throw new UsageError("standard input (the predictions) is empty");
  return splitSegments(text);
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
  if (args.refs.length === 0) throw new UsageError("at least one --ref FILE is required", true);
  if (args.perSample && (args.scoreOnly || args.format !== "json")) throw new UsageError("--per-sample needs the JSON format (and not -b)", true);

  const fromStdin = args.pred === undefined || args.pred === STDIN;
  const predName = fromStdin ? "standard input" : args.pred!;
  const refs: string[][] = [];
  for (const path of args.refs) refs.push(await readSegments(path, "reference"));
  const preds = fromStdin ? await readStdinSegments(io.stdin ?? process.stdin) : await readSegments(args.pred!, "prediction");
  args.refs.forEach((path, i) => {
    if (refs[i]!.length !== preds.length) {
      throw new UsageError(`line counts differ: ${predName} has ${preds.length} lines but ${path} has ${refs[i]!.length}`);
    }
  });
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
  const useSummary = summary !== null && typeof summary === "object" && args.main === undefined;
  const out: Record<string, unknown> = useSummary
    ? { ...(summary as Record<string, unknown>) }
    : { name: metric.id, score_key: main ?? null, score: main === undefined ? null : result.scores[main], scores: result.scores };
  const value = out.score;
  if (typeof value !== "number") throw new UsageError(`metric "${metric.id}" reports no score to print`);

  const estimate = args.confidence ? bootstrap(metric, inputs, args, result, { key: main, value, fromSummary: useSummary }) : undefined;
  const signature = scoreSignature(useSummary ? (out.signature as string | undefined) : undefined, args.refs.length, estimate && args);
  const width = args.width ?? DEFAULT_WIDTH;
  const shown = `${formatFixed(value, width)}${estimate ? ` (${confidenceText(estimate, width)})` : ""}`;

  if (args.scoreOnly) {
    io.stdout.write(`${shown}\n`);
    return;
  }
  if (args.format === "text") {
    const verbose = typeof out.verbose_score === "string" ? ` ${out.verbose_score}` : "";
    io.stdout.write(`${String(out.name)}|${signature} = ${shown}${verbose}\n`);
    return;
  }
  out.signature = signature;
  if (args.width !== undefined) out.score = Number(formatFixed(value, args.width));
  if (estimate) {
    out.confidence_mean = Number(formatFixed(estimate.mean, width));
    out.confidence_var = Number(formatFixed(estimate.halfWidth, width));
    out.confidence = confidenceText(estimate, width);
  }
  // sacrebleu's JSON also carries each signature field as its own key.
  for (const [key, field] of signatureFields(signature)) if (!(key in out)) out[key] = field;
  if (args.perSample) out.per_sample = result.perSample.map((s) => ({ line: Number(s.sampleId), ...s.scores }));
  io.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
}

const confidenceText = (e: BootstrapEstimate, width: number): string => `μ = ${formatFixed(e.mean, width)} ± ${formatFixed(e.halfWidth, width)}`;

/** Metrics whose corpus score comes from summed segment counts, resampled as sacrebleu does. */
const SEGMENT_STATISTICS: Record<string, (inputs: readonly MetricInput[], options: Record<string, unknown>) => SegmentStatistics> = {
  bleu: bleuSegmentStatistics,
  chrf: (inputs, options) => chrfSegmentStatistics("chrf", inputs, options),
  "chrf++": (inputs, options) => chrfSegmentStatistics("chrf++", inputs, options),
};

/**
 * The bootstrap interval of the reported score: by segment statistics for BLEU and chrF (their
 * headline), else by resampling a per-line score whose mean is the reported score (the headline
 * key first; ROUGE, for one, reports `rouge1` whose lines are `rouge1_fmeasure`).
 */
function bootstrap(
  metric: MetricV1,
  inputs: readonly MetricInput[],
  args: ScoreArgs,
  result: Awaited<ReturnType<MetricV1["compute"]>>,
  reported: { key: string | undefined; value: number; fromSummary: boolean },
): BootstrapEstimate {
  const statistics = reported.fromSummary ? SEGMENT_STATISTICS[metric.id] : undefined;
  if (statistics !== undefined) return bootstrapEstimate(resampledCorpusScores(statistics(inputs, args.options), args.resamples, args.seed));
  const keys = [...new Set([...(reported.key === undefined ? [] : [reported.key]), ...Object.keys(result.perSample[0]?.scores ?? {})])];
  for (const key of keys) {
    const perLine = result.perSample.map((s) => s.scores[key]);
    if (perLine.length !== inputs.length || !perLine.every((x): x is number => typeof x === "number" && Number.isFinite(x))) continue;
    const lineMean = perLine.reduce((a, b) => a + b, 0) / perLine.length;
    if (Math.abs(lineMean - reported.value) <= 1e-9 * Math.max(1, Math.abs(reported.value))) {
      return bootstrapEstimate(resampledMeanScores(perLine, args.resamples, args.seed));
    }
  }
  throw new UsageError(
    `--confidence: the score metric "${metric.id}" reports is not the mean of any of its per-line scores; ` +
      `bootstrap intervals are available for ${Object.keys(SEGMENT_STATISTICS).join(", ")} and for metrics whose score is such a mean`,
  );
}

/**
 * sacrebleu's signature: `nrefs`, then `bs` and `seed` when resampled, then the metric's own
 * settings, then `version` last, here @yardstick/metrics' version from its package.json.
 */
function scoreSignature(metricSignature: string | undefined, nrefs: number, resampling: { resamples: number; seed: number } | undefined): string {
  const fields = metricSignature === undefined ? [["nrefs", String(nrefs)]] : signatureFields(metricSignature).filter(([k]) => k !== "version");
  const head = fields.filter(([k]) => k === "nrefs");
  const rest = fields.filter(([k]) => k !== "nrefs" && k !== "bs" && k !== "seed");
  const bootstrapFields = resampling ? [["bs", String(resampling.resamples)], ["seed", String(resampling.seed)]] : [];
  return [...head, ...bootstrapFields, ...rest, ["version", metricsPackageVersion()]].map(([k, v]) => `${k}:${v}`).join("|");
}

function signatureFields(signature: string): [string, string][] {
  return signature
    .split("|")
    .filter((part) => part.includes(":"))
    .map((part) => [part.slice(0, part.indexOf(":")), part.slice(part.indexOf(":") + 1)]);
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
