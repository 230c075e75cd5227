import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { ConfigError, DataLoadError, YardstickError } from "@yardstick/core";
import { auditDirectory, formatAuditReport } from "./audit.js";
import { TASK_NAMES, type TaskName } from "./constants.js";
import { describeCanvas } from "./describe.js";
import { canvasShapes, parseOriginalFile } from "./original-format.js";
import { type OutputFormat, writeDataset } from "./write-dataset.js";

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const USAGE = `usage:
  yardstick spatial generate --shapes N --count M --out DIR [--seed S (default 0)]
                             [--format original|seahelm|ultraeval] [--mode fixed|compat] [--images]
                             [--tasks existence,count,...] [--inline-images] [--few-shot] [--workers N]
  yardstick spatial describe FILE... [--mode compat|fixed (default compat: the original files)]
  yardstick spatial audit DIR [--json]
`;

/** Bad flags: exit code 2. */
class UsageError extends ConfigError {}

function intFlag(name: string, value: string | undefined, min: number): number {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, got "${value}"`);
  const n = Number(value);
  if (n < min) throw new UsageError(`--${name} must be at least ${min}, got ${n}`);
  return n;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got "${value}"`);
  return value as T;
}

async function generate(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      shapes: { type: "string" },
      count: { type: "string" },
      seed: { type: "string" },
      out: { type: "string" },
      format: { type: "string" },
      mode: { type: "string" },
      images: { type: "boolean", default: false },
      "inline-images": { type: "boolean", default: false },
      tasks: { type: "string" },
      workers: { type: "string" },
      "few-shot": { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const shapes = intFlag("shapes", values.shapes, 1);
  const count = intFlag("count", values.count, 1);
  if (values.out === undefined) throw new UsageError("--out is required");
  const seed = values.seed ?? "0";
  const format = oneOf<OutputFormat>("format", values.format, ["original", "seahelm", "ultraeval"], "original");
  const mode = oneOf("mode", values.mode, ["fixed", "compat"] as const, "fixed");
  const workers = values.workers === undefined ? undefined : intFlag("workers", values.workers, 1);
  let tasks: TaskName[] | undefined;
  if (values.tasks !== undefined) {
    tasks = values.tasks.split(",").map((t) => t.trim()) as TaskName[];
    for (const t of tasks) if (!(TASK_NAMES as readonly string[]).includes(t)) throw new UsageError(`unknown task "${t}"; expected one of ${TASK_NAMES.join(", ")}`);
    // A task asked for by name that cannot be built from this many shapes would silently give no questions.
    const minShapes: Partial<Record<TaskName, number>> = { transitivity: 3, shuffle_tracking: mode === "compat" ? 3 : 2 };
    for (const t of tasks) {
      const min = minShapes[t];
      if (min !== undefined && shapes < min) {
        throw new UsageError(`task ${t} needs at least ${min} shapes${t === "shuffle_tracking" && mode === "compat" ? " in compat mode" : ""}, got --shapes ${shapes}`);
      }
    }
  }
  const summary = await writeDataset(values.out, {
    shapes,
    count,
    seed,
    mode,
    format,
    images: values.images,
    inlineImages: values["inline-images"],
    ...(tasks ? { tasks } : {}),
    ...(workers ? { workers } : {}),
    fewshot: values["few-shot"],
  });
  io.stdout.write(`${JSON.stringify(summary)}\n`);
  return 0;
}

async function describe(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { mode: { type: "string" } }, strict: true, allowPositionals: true });
  // The original files are compat-mode text; `--mode fixed` describes files this port wrote in fixed mode.
  const mode = oneOf("mode", values.mode, ["fixed", "compat"] as const, "compat");
  if (positionals.length === 0) throw new UsageError("describe needs at least one FILE");
  for (const file of positionals) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (err) {
      throw new YardstickError(`${file}: cannot read: ${(err as Error).message}`, { cause: err });
    }
    const shapes = canvasShapes(parseOriginalFile(text, file));
    let d: ReturnType<typeof describeCanvas>;
    try {
      d = describeCanvas(shapes, mode);
    } catch (err) {
      throw new DataLoadError(`cannot describe the canvas: ${(err as Error).message}`, { file, cause: err });
    }
    io.stdout.write(`${JSON.stringify({ file, full: d.full, partial: d.partial, coordinates: d.coordinates, coordinate: d.coordinate })}\n`);
  }
  return 0;
}

async function audit(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { json: { type: "boolean", default: false } }, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError("audit needs exactly one DIR");
  const report = await auditDirectory(positionals[0]!);
  io.stdout.write(values.json ? `${JSON.stringify(report)}\n` : formatAuditReport(report));
  return 0;
}

/** `yardstick spatial ...`; returns the exit code. Bad input prints one message, never a stack trace. */
export async function runSpatialCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "generate":
        return await generate(rest, io);
      case "describe":
        return await describe(rest, io);
      case "audit":
        return await audit(rest, io);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        (command === undefined ? io.stderr : io.stdout).write(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    const usage = err instanceof UsageError || (err as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") === true;
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`yardstick spatial: ${message}\n${usage ? USAGE : ""}`);
    return usage ? 2 : 1;
  }
}
