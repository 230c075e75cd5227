/**
 * One option table per command line: the table is what `node:util` parseArgs is given, and the same
 * table renders the command's help (usage, arguments, flags with their defaults), fitted to a width.
 * Shared by every package with a command line (runner, metrics' `score`, spatial, the dev server), so
 * a flag can never be accepted without being documented.
 */

/** One flag of a command. */
export interface CliFlag {
  readonly type: "string" | "boolean";
  /** A one-letter alias (`-m`). */
  readonly short?: string;
  /** The flag may be given several times; its values are collected in order. */
  readonly multiple?: boolean;
  /** The value's placeholder in help (`N`, `FILE`); string flags only. Default `VALUE`. */
  readonly value?: string;
  /** What applies when the flag is absent, as shown in help ("8", "the server's"). */
  readonly default?: string;
  /** The command refuses to run without it (shown in usage without brackets). */
  readonly required?: boolean;
  /** One line (wrapped to the width when printed). */
  readonly description: string;
}

export type CliFlags = Readonly<Record<string, CliFlag>>;

export interface CliPositional {
  /** As shown in usage: `RUN`, `<config>...`, `[LABELS]`. */
  readonly name: string;
  readonly description: string;
}

/** Everything the help of one command (or subcommand) shows. */
export interface CliCommandSpec {
  /** The words that invoke it: `yardstick run`, `yardstick cache info`. */
  readonly command: string;
  /** One line: what the command does. */
  readonly summary: string;
  readonly positionals?: readonly CliPositional[];
  readonly flags: CliFlags;
  /** Usage lines in place of the one generated from positionals and flags (without `usage: `). */
  readonly usage?: readonly string[];
  /** Paragraphs printed after the flags. */
  readonly notes?: readonly string[];
}

/** The parseArgs options of a flag table, typed so parseArgs' values keep each flag's type. */
export type ParseArgsOptionsOf<F extends CliFlags> = {
  -readonly [K in keyof F]: {
    type: F[K]["type"];
    multiple: F[K]["multiple"] extends true ? true : false;
    short?: string;
  };
};

/** Declares a flag table, keeping its literal types (so parseArgs' values are typed per flag). */
export function defineFlags<const F extends CliFlags>(flags: F): F {
  return flags;
}

export function parseArgsOptions<F extends CliFlags>(flags: F): ParseArgsOptionsOf<F> {
  const options: Record<string, { type: "string" | "boolean"; multiple: boolean; short?: string }> = {};
  for (const [name, flag] of Object.entries(flags)) {
    options[name] = { type: flag.type, multiple: flag.multiple === true, ...(flag.short !== undefined ? { short: flag.short } : {}) };
  }
  return options as ParseArgsOptionsOf<F>;
}

/** The width help is fitted to: the terminal's columns, or 80 when the stream is not a terminal. */
export function helpWidth(stream?: { isTTY?: boolean; columns?: number }): number {
  const columns = stream?.isTTY === true ? stream.columns : undefined;
  return typeof columns === "number" && columns > 0 ? columns : 80;
}

/** Narrower than this, help is still produced but may not fit (a word is never split below it). */
const MIN_WIDTH = 30;

/** The help of one command: usage, summary, arguments, an aligned flag table, notes. */
export function formatCommandHelp(spec: CliCommandSpec, width = 80): string {
  const w = Math.max(MIN_WIDTH, width);
  const out = usageLines(spec, w);
  out.push("", ...wrapText(spec.summary, w, ""));
  if (spec.positionals?.length) {
    out.push("", "arguments:", ...table(spec.positionals.map((p) => [p.name, p.description]), w));
  }
  const rows = Object.entries(spec.flags).map(([name, flag]) => [flagLabel(name, flag), flagDescription(flag)] as [string, string]);
  rows.push(["-h, --help", "show this help"]);
  out.push("", "options:", ...table(rows, w));
  for (const note of spec.notes ?? []) out.push("", ...wrapText(note, w, ""));
  return out.join("\n");
}

/** A command's usage lines alone: what a usage error shows under its message (the full help scrolls it away). */
export function formatCommandUsage(spec: CliCommandSpec, width = 80): string {
  return usageLines(spec, Math.max(MIN_WIDTH, width)).join("\n");
}

function usageLines(spec: CliCommandSpec, w: number): string[] {
  const out: string[] = [];
  const usages = spec.usage ?? [generatedUsage(spec)];
  usages.forEach((line, i) => {
    const lead = i === 0 ? "usage: " : "       ";
    const tokens = usageTokens(line);
    // Continuation lines start under the first argument, after the command's own words.
    let words = line.startsWith(`${spec.command} `) ? spec.command.split(" ").length : 2;
    if (/^[a-z][a-z-]*$/.test(tokens[words] ?? "")) words++; // a subcommand: `yardstick cache prune`
    out.push(...wrapTokens(lead, tokens, words, w));
  });
  return out;
}

/** The help of a command with subcommands: each subcommand's help in turn. */
export function formatCommandsHelp(specs: readonly CliCommandSpec[], width = 80): string {
  return specs.map((s) => formatCommandHelp(s, width)).join("\n\n");
}

/** Two aligned columns (name, description), the descriptions wrapped to the width. */
export function formatTable(rows: readonly (readonly [string, string])[], width = 80): string {
  return table(rows, Math.max(MIN_WIDTH, width)).join("\n");
}

/** A paragraph word-wrapped to the width. */
export function formatParagraph(text: string, width = 80): string {
  return wrapText(text, Math.max(MIN_WIDTH, width), "").join("\n");
}

/**
 * The message of a parseArgs error, without Node's hint about `--`, naming the flag meant when an
 * unknown one is close to one of `flags`: `Unknown option '--concurency' (did you mean --concurrency?)`.
 */
export function parseArgsErrorMessage(err: unknown, flags: CliFlags): string {
  const message = err instanceof Error ? err.message.replace(/\. To specify.*$/s, "") : String(err);
  const unknown = /^Unknown option '--([^']+)'$/.exec(message)?.[1];
  const near = unknown === undefined ? undefined : closestName(unknown, Object.keys(flags));
  return near === undefined ? message : `${message} (did you mean --${near}?)`;
}

/** The closest of `names` to a mistyped one (edit distance at most 2, and less than its length), if any. */
export function closestName(typed: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(3, typed.length);
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

function flagLabel(name: string, flag: CliFlag): string {
  const long = `--${name}${flag.type === "string" ? ` ${flag.value ?? "VALUE"}` : ""}`;
  return flag.short === undefined ? long : `-${flag.short}, ${long}`;
}

/** Joins words that a line break should not part (a short default stays on one line); wrapText turns it back into a space. */
const KEEP = "\u0000";

function flagDescription(flag: CliFlag): string {
  const shown = flag.default === undefined ? undefined : `default: ${flag.default}`;
  const extras = [flag.multiple ? "repeatable" : undefined, flag.required ? "required" : undefined, shown !== undefined && shown.length <= 24 ? shown.replaceAll(" ", KEEP) : shown].filter(
    (x) => x !== undefined,
  );
  return extras.length === 0 ? flag.description : `${flag.description} (${extras.join("; ")})`;
}

/** `yardstick ls <config>... [--tasks a,b] [--plugin PACKAGE ...] [--json]` from the table. */
function generatedUsage(spec: CliCommandSpec): string {
  const parts = [spec.command, ...(spec.positionals ?? []).map((p) => p.name)];
  for (const [name, flag] of Object.entries(spec.flags)) {
    const word = `--${name}${flag.type === "string" ? ` ${flag.value ?? "VALUE"}` : ""}${flag.multiple ? " ..." : ""}`;
    parts.push(flag.required ? word : `[${word}]`);
  }
  return parts.join(" ");
}

/** Splits a usage line into the pieces a line break may fall between: `[--x N ...]` stays whole. */
function usageTokens(line: string): string[] {
  const tokens: string[] = [];
  const push = (token: string): void => {
    // A required flag keeps its value: `--out DIR` is not parted either.
    const last = tokens[tokens.length - 1];
    if (last !== undefined && /^--?[\w-]+$/.test(last) && /^[^-[<]/.test(token)) tokens[tokens.length - 1] = `${last} ${token}`;
    else tokens.push(token);
  };
  let depth = 0;
  let current = "";
  for (const ch of line) {
    if (ch === " " && depth === 0) {
      if (current !== "") push(current);
      current = "";
      continue;
    }
    if (ch === "[") depth++;
    if (ch === "]") depth = Math.max(0, depth - 1);
    current += ch;
  }
  if (current !== "") push(current);
  return tokens;
}

/** Lays tokens on lines after `lead`; continuation lines are indented under the command's first argument. */
function wrapTokens(lead: string, tokens: readonly string[], words: number, width: number): string[] {
  const head = tokens.slice(0, words).join(" ");
  let indent = " ".repeat(lead.length + head.length + 1);
  if (indent.length > width / 2) indent = " ".repeat(lead.length + 2);
  const lines: string[] = [];
  let line = lead + head;
  for (const token of tokens.slice(words)) {
    if (line.length + 1 + token.length <= width) line += ` ${token}`;
    else {
      lines.push(line);
      line = indent + token;
    }
  }
  lines.push(line);
  return lines.flatMap((l) => (l.length <= width ? [l] : wrapText(l.trimStart(), width, indent)));
}

/** Word-wraps text to the width, each line prefixed by `indent`; a word too long for a line is split. */
function wrapText(text: string, width: number, indent: string): string[] {
  const room = Math.max(1, width - indent.length);
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((x) => x !== "")) {
    for (const piece of chunks(word, room)) {
      if (line === "") line = piece;
      else if (line.length + 1 + piece.length <= room) line += ` ${piece}`;
      else {
        lines.push(indent + line);
        line = piece;
      }
    }
  }
  if (line !== "" || lines.length === 0) lines.push(indent + line);
  return lines.map((l) => l.replaceAll(KEEP, " "));
}

function chunks(word: string, size: number): string[] {
  if (word.length <= size) return [word];
  const out: string[] = [];
  for (let i = 0; i < word.length; i += size) out.push(word.slice(i, i + size));
  return out;
}

/**
 * Rows of `  NAME  description`: names padded to a common column (at most 40% of the width); a name
 * longer than that sits on its own line with its description below, at the description column.
 */
function table(rows: readonly (readonly [string, string])[], width: number): string[] {
  const cap = Math.floor(width * 0.4);
  const nameWidth = Math.min(cap, Math.max(0, ...rows.map(([name]) => name.length).filter((n) => n <= cap)));
  const indent = " ".repeat(2 + nameWidth + 2);
  const out: string[] = [];
  for (const [name, description] of rows) {
    const desc = wrapText(description, width, indent);
    if (name.length <= nameWidth) {
      out.push(`  ${name.padEnd(nameWidth)}  ${desc[0]!.slice(indent.length)}`.trimEnd(), ...desc.slice(1));
    } else {
      out.push(...wrapText(name, width, "  "), ...desc);
    }
  }
  return out;
}
