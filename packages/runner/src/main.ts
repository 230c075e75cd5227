import { YardstickError } from "@yardstick/core";
import { UsageError } from "./args.js";
import type { CliIO } from "./io.js";
import { printError } from "./report-error.js";

export const USAGE = `yardstick — evaluate large language models

usage: yardstick <command> [options]

commands:
  run <config...>      evaluate tasks against a model and write a run store
  validate <config...> check config files without running them
  ls <config...>       list the tasks of configs and whether each runs here
  score                score prediction/reference files with a metric (like sacrebleu's CLI)
  score-run RUN        re-score a stored run (no request sent), with its own or other metrics
  export RUN --format ultraeval --out DIR   write a scored run in UltraEval's output layout
  merge SHARD... --out DIR   join the shard stores of one run and score them
  compare A B          paired comparison of two run stores
  agreement RUN [LABELS]   judge–human agreement: kappa, Krippendorff's alpha, confusion, disagreements
  spatial              generate, describe and audit the spatial-reasoning benchmark
  dev-server           start the local OpenAI-compatible server used by tests and the demo
  cache info|clear|prune   show or trim the shared request cache
  report RUN... [--out FILE]   write the self-contained HTML report of run stores
  view RUN... [--port N]       serve the HTML report on 127.0.0.1
  show RUN --task T [--sample ID]   print one sample: prompt, answer, extracted answer, gold, scores
  schema DIALECT       print the JSON Schema of a config dialect (seahelm, ultraeval)
  label serve|add-labeler      the labeling web app for human feedback (Quest task format)

run "yardstick <command> --help" for a command's options.`;

type Command = (argv: string[], io: CliIO) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  run: async () => (await import("./run-command.js")).runCommand,
  validate: async () => (await import("./validate-command.js")).validateCommand,
  ls: async () => (await import("./ls-command.js")).lsCommand,
  score: async () => (await import("./score-command.js")).scoreCommand,
  compare: async () => (await import("./compare-command.js")).compareCommand,
  agreement: async () => (await import("./agreement-command.js")).agreementCommand,
  "score-run": async () => (await import("./score-run-command.js")).scoreRunCommand,
  export: async () => (await import("./export-command.js")).exportCommand,
  merge: async () => (await import("./merge-command.js")).mergeCommand,
  spatial: async () => (await import("./spatial-command.js")).spatialCommand,
  "dev-server": async () => (await import("./dev-server-command.js")).devServerCommand,
  cache: async () => (await import("./cache-command.js")).cacheCommand,
  report: async () => (await import("./report-command.js")).reportCommand,
  view: async () => (await import("./view-command.js")).viewCommand,
  show: async () => (await import("./show-command.js")).showCommand,
  schema: async () => (await import("./schema-command.js")).schemaCommand,
  label: async () => (await import("./label-command.js")).labelCommand,
};

const usages: Record<string, () => Promise<string>> = {
  run: async () => (await import("./run-command.js")).RUN_USAGE,
  validate: async () => (await import("./validate-command.js")).VALIDATE_USAGE,
  ls: async () => (await import("./ls-command.js")).LS_USAGE,
  cache: async () => (await import("./cache-command.js")).CACHE_USAGE,
  report: async () => (await import("./report-command.js")).REPORT_USAGE,
  view: async () => (await import("./view-command.js")).VIEW_USAGE,
  show: async () => (await import("./show-command.js")).SHOW_USAGE,
  schema: async () => (await import("./schema-command.js")).SCHEMA_USAGE,
  compare: async () => (await import("./compare-command.js")).COMPARE_USAGE,
  agreement: async () => (await import("./agreement-command.js")).AGREEMENT_USAGE,
  "score-run": async () => (await import("./score-run-command.js")).SCORE_RUN_USAGE,
  export: async () => (await import("./export-command.js")).EXPORT_USAGE,
  merge: async () => (await import("./merge-command.js")).MERGE_USAGE,
  label: async () => (await import("./label-command.js")).LABEL_USAGE,
};

/** Runs one CLI invocation and returns the exit code. Never throws and never prints a stack trace for bad input. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [first, ...args] = argv;
  // `yardstick help CMD` is `yardstick CMD --help`.
  const [name, rest] = first === "help" && args[0] !== undefined ? [args[0], ["--help"]] : [first, args];
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    const { packageVersions } = await import("./versions.js");
    io.stdout.write(`${packageVersions()["@yardstick/runner"] ?? "unknown"}\n`);
    return 0;
  }
  const load = commands[name];
  if (!load) {
    const near = closest(name, Object.keys(commands));
    io.stderr.write(`error: unknown command "${name}"${near ? ` (did you mean "${near}"?)` : ""}; commands: ${Object.keys(commands).join(", ")}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    const usage = usages[name];
    // Commands with subcommands of their own (spatial, score, dev-server) print their own help.
    if (usage) {
      io.stdout.write(`${await usage()}\n`);
      return 0;
    }
  }
  try {
    return await (await load())(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`error: ${err.message}\n`);
      const usage = usages[name];
      if (usage) io.stderr.write(`${await usage()}\n`);
      return 2;
    }
    printError(err, io.stderr);
    return YardstickError.isInstance(err) ? 1 : 70;
  }
}

/** The command nearest to a mistyped one (edit distance at most 2), if any. */
function closest(typed: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of names) {
    const d = editDistance(typed, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
