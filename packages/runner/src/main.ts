import { type CliCommandSpec, closestName, formatCommandsHelp, formatCommandUsage, formatParagraph, formatTable, helpWidth } from "@yardstick/core";
import { UsageError } from "./args.js";
import type { CliIO } from "./io.js";
import { exitCodeOf, printError } from "./report-error.js";

type Command = (argv: string[], io: CliIO) => Promise<number>;

interface CommandEntry {
  /** The arguments shown beside the name in the command list. */
  args: string;
  /** One line for the command list. */
  summary: string;
  load: () => Promise<Command>;
  /** The option tables the command parses with and renders its help from. */
  help: () => Promise<readonly CliCommandSpec[]>;
  /** The command answers --help itself (its subcommands have their own help). */
  ownHelp?: true;
}

/** Every command: what `yardstick --help` lists and what `yardstick CMD --help` prints. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  run: {
    args: "<config...>",
    summary: "evaluate tasks against a model and write a run store",
    load: async () => (await import("./run-command.js")).runCommand,
    help: async () => (await import("./run-command.js")).RUN_HELP,
  },
  validate: {
    args: "<config...>",
    summary: "check config files without running them",
    load: async () => (await import("./validate-command.js")).validateCommand,
    help: async () => (await import("./validate-command.js")).VALIDATE_HELP,
  },
  ls: {
    args: "<config...> | KIND...",
    summary: "list the tasks of configs and whether each runs here, or the metrics, providers, ... with what each needs",
    load: async () => (await import("./ls-command.js")).lsCommand,
    help: async () => (await import("./ls-command.js")).LS_HELP,
  },
  score: {
    args: "--pred F --ref F",
    summary: "score prediction/reference files with a metric (like sacrebleu's CLI)",
    load: async () => (await import("./score-command.js")).scoreCommand,
    help: async () => (await import("@yardstick/metrics")).SCORE_HELP,
    ownHelp: true,
  },
  prompts: {
    args: "<config...>",
    summary: "print the requests a run would send, as JSON lines (no model needed)",
    load: async () => (await import("./prompts-command.js")).promptsCommand,
    help: async () => (await import("./prompts-command.js")).PROMPTS_HELP,
  },
  "score-run": {
    args: "RUN",
    summary: "re-score a stored run (no request sent), with its own or other metrics",
    load: async () => (await import("./score-run-command.js")).scoreRunCommand,
    help: async () => (await import("./score-run-command.js")).SCORE_RUN_HELP,
  },
  export: {
    args: "RUN --out DIR",
    summary: "write a scored run in another harness's output layout (UltraEval)",
    load: async () => (await import("./export-command.js")).exportCommand,
    help: async () => (await import("./export-command.js")).EXPORT_HELP,
  },
  merge: {
    args: "SHARD... --out DIR",
    summary: "join the shard stores of one run and score them",
    load: async () => (await import("./merge-command.js")).mergeCommand,
    help: async () => (await import("./merge-command.js")).MERGE_HELP,
  },
  compare: {
    args: "A B",
    summary: "paired comparison of two run stores",
    load: async () => (await import("./compare-command.js")).compareCommand,
    help: async () => (await import("./compare-command.js")).COMPARE_HELP,
  },
  agreement: {
    args: "RUN [LABELS]",
    summary: "judge–human agreement: kappa, Krippendorff's alpha, confusion, disagreements",
    load: async () => (await import("./agreement-command.js")).agreementCommand,
    help: async () => (await import("./agreement-command.js")).AGREEMENT_HELP,
  },
  spatial: {
    args: "SUBCOMMAND",
    summary: "generate, describe and audit the spatial-reasoning benchmark",
    load: async () => (await import("./spatial-command.js")).spatialCommand,
    help: async () => (await import("@yardstick/spatial")).SPATIAL_HELP,
    ownHelp: true,
  },
  "dev-server": {
    args: "",
    summary: "start the local OpenAI-compatible server used by tests and the demo",
    load: async () => (await import("./dev-server-command.js")).devServerCommand,
    help: async () => (await import("./dev-server-command.js")).devServerHelp(),
    ownHelp: true,
  },
  cache: {
    args: "info|clear|prune",
    summary: "show or trim the shared request cache",
    load: async () => (await import("./cache-command.js")).cacheCommand,
    help: async () => (await import("./cache-command.js")).CACHE_HELP,
  },
  report: {
    args: "RUN...",
    summary: "write the self-contained HTML report of run stores",
    load: async () => (await import("./report-command.js")).reportCommand,
    help: async () => (await import("./report-command.js")).REPORT_HELP,
  },
  view: {
    args: "RUN...",
    summary: "serve the HTML report on 127.0.0.1",
    load: async () => (await import("./view-command.js")).viewCommand,
    help: async () => (await import("./view-command.js")).VIEW_HELP,
  },
  show: {
    args: "RUN --task T",
    summary: "print one sample: prompt, answer, extracted answer, gold, scores",
    load: async () => (await import("./show-command.js")).showCommand,
    help: async () => (await import("./show-command.js")).SHOW_HELP,
  },
  schema: {
    args: "DIALECT",
    summary: "print the JSON Schema of a config dialect (seahelm, ultraeval)",
    load: async () => (await import("./schema-command.js")).schemaCommand,
    help: async () => (await import("./schema-command.js")).SCHEMA_HELP,
  },
  label: {
    args: "SUBCOMMAND",
    summary: "the labeling web app for human feedback (Quest task format)",
    load: async () => (await import("./label-command.js")).labelCommand,
    help: async () => (await import("./label-command.js")).LABEL_HELP,
  },
};

/** `yardstick --help`: the commands, one line each, fitted to the width. */
export function mainHelp(width = 80): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => [`${name} ${c.args}`.trim(), c.summary] as const);
  return [
    "yardstick — evaluate large language models",
    "",
    "usage: yardstick <command> [options]",
    "",
    "commands:",
    formatTable(rows, width),
    "",
    formatParagraph('run "yardstick <command> --help" (or "yardstick help <command>") for its arguments and flags; "yardstick --version" prints the version.', width),
  ].join("\n");
}

/**
 * A command's help: each of its (sub)commands' usage, arguments and flags with their defaults; with
 * `sub` naming one of its subcommands (`label serve --help`), that subcommand's alone.
 */
export async function commandHelp(name: string, width = 80, sub?: string): Promise<string | undefined> {
  const specs = await commandSpecs(name, sub);
  return specs && formatCommandsHelp(specs, width);
}

/** What follows a usage error: the command's usage lines and where its full help is. */
async function usageReminder(name: string, width: number, sub?: string): Promise<string | undefined> {
  const specs = await commandSpecs(name, sub);
  if (!specs) return undefined;
  const helpOf = specs.length === 1 ? specs[0]!.command : `yardstick ${name}`;
  return `${specs.map((s) => formatCommandUsage(s, width)).join("\n")}\n(every option: ${helpOf} --help)`;
}

/** The help specs of a command, or of its subcommand `sub` when it has one of that name. */
async function commandSpecs(name: string, sub?: string): Promise<readonly CliCommandSpec[] | undefined> {
  const entry = COMMANDS[name];
  if (entry === undefined) return undefined;
  const specs = await entry.help();
  const one = specs.filter((s) => sub !== undefined && s.command === `yardstick ${name} ${sub}`);
  return one.length > 0 ? one : specs;
}

/** Runs one CLI invocation and returns the exit code. Never throws and never prints a stack trace for bad input. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [first, ...args] = argv;
  // `yardstick help CMD` is `yardstick CMD --help`.
  const [name, rest] = first === "help" && args[0] !== undefined ? [args[0], ["--help"]] : [first, args];
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(`${mainHelp(helpWidth(io.stdout))}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    const { packageVersions } = await import("./versions.js");
    io.stdout.write(`${packageVersions()["@yardstick/runner"] ?? "unknown"}\n`);
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    const near = closestName(name, Object.keys(COMMANDS));
    io.stderr.write(`error: unknown command "${name}"${near ? ` (did you mean "${near}"?)` : ""}; commands: ${Object.keys(COMMANDS).join(", ")}\n`);
    return 2;
  }
  // Commands with subcommands of their own (spatial, score, dev-server) print their own help.
  if (!entry.ownHelp && (rest.includes("--help") || rest.includes("-h"))) {
    io.stdout.write(`${await commandHelp(name, helpWidth(io.stdout), rest[0])}\n`);
    return 0;
  }
  try {
    return await (await entry.load())(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`error: ${err.message}\n`);
      if (!entry.ownHelp) io.stderr.write(`${await usageReminder(name, helpWidth(io.stderr), rest[0])}\n`);
      return 2;
    }
    printError(err, io.stderr);
    return exitCodeOf(err);
  }
}
