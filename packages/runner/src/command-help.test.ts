import type { CliCommandSpec, CliFlag } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { type CapturedIO, captureIO } from "./__fixtures__/make-task.js";
import { COMMANDS, main } from "./main.js";

/** A captured IO whose stdout says it is a terminal of `columns` columns. */
function terminal(columns: number): CapturedIO {
  const io = captureIO();
  Object.assign(io.stdout, { isTTY: true, columns });
  return io;
}

/** The lines of a flag's row: its label line and the wrapped description lines under it. */
function flagRow(lines: readonly string[], name: string, flag: CliFlag): string | undefined {
  const label = flag.short === undefined ? `--${name}` : `-${flag.short}, --${name}`;
  const start = lines.findIndex((l) => l.startsWith(`  ${label} `) || l === `  ${label}`);
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && lines[end]!.startsWith("   ") && !/^ {2}-/.test(lines[end]!)) end++;
  return lines.slice(start, end).join(" ").replace(/\s+/g, " ");
}

describe("every command's help comes from the option table its parser uses", () => {
  const names = Object.keys(COMMANDS);

  it("covers the commands users know", () => {
    for (const name of ["run", "validate", "ls", "score", "score-run", "merge", "compare", "spatial", "dev-server", "cache", "report", "view", "show", "schema", "label", "agreement"]) {
      expect(names).toContain(name);
    }
  });

  it.each(names)("yardstick help %s lists every flag, with its default, within 60 columns", async (name) => {
    const io = terminal(60);
    expect(await main(["help", name], io), io.err()).toBe(0);
    const text = io.out();
    const lines = text.split("\n");
    for (const line of lines) expect(line.length, `${name}: "${line}"`).toBeLessThanOrEqual(60);
    const specs: readonly CliCommandSpec[] = await COMMANDS[name]!.help();
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) {
      expect(text).toContain(spec.command === "" ? "usage: " : `usage: ${spec.command}`);
      // Each subcommand's section holds its own flag rows.
      const at = spec.command === "" ? 0 : lines.findIndex((l) => l.startsWith(`usage: ${spec.command}`));
      const next = lines.findIndex((l, i) => i > at && l.startsWith("usage: "));
      const section = lines.slice(at, next < 0 ? undefined : next);
      for (const [flagName, flag] of Object.entries(spec.flags)) {
        const row = flagRow(section, flagName, flag);
        expect(row, `${name}: --${flagName} is not in the help`).toBeDefined();
        if (flag.default !== undefined) expect(row, `${name}: --${flagName}`).toContain(`default: ${flag.default})`);
      }
    }
  });

  it("yardstick --help lists every command in one line each at 80 columns, and fits 60", async () => {
    const wide = captureIO();
    expect(await main(["--help"], wide)).toBe(0);
    for (const [name, entry] of Object.entries(COMMANDS)) {
      expect(wide.out()).toMatch(new RegExp(`\\n  ${name.replace("-", "\\-")}( [^\\n]*)?  +${entry.summary.split(" ")[0]}`));
    }
    const narrow = terminal(60);
    expect(await main(["--help"], narrow)).toBe(0);
    for (const line of narrow.out().split("\n")) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("a subcommand's --help prints that subcommand's help alone", async () => {
    const io = captureIO();
    expect(await main(["label", "import", "--help"], io)).toBe(0);
    expect(io.out()).toMatch(/^usage: yardstick label import RUN \[RUN2\] --task TASK\.json/);
    expect(io.out()).toContain("--run-task KEY");
    expect(io.out()).not.toContain("usage: yardstick label serve");
    const all = captureIO();
    expect(await main(["help", "label"], all)).toBe(0);
    expect(all.out()).toContain("usage: yardstick label serve");
    expect(all.out()).toContain("usage: yardstick label to-run");
  });

  it("a usage error prints the message, then the command's usage lines, not its whole help; a mistyped flag names the one meant", async () => {
    const io = captureIO();
    expect(await main(["ls", "--jsn"], io)).toBe(2);
    expect(io.err()).toMatch(/^error: Unknown option '--jsn' \(did you mean --json\?\)\nusage: yardstick ls /);
    expect(io.err()).toContain("--json");
    expect(io.err()).toMatch(/\(every option: yardstick ls --help\)\n$/);
    // `run` has some fifty options: its full help would scroll the message off the screen.
    const run = captureIO();
    expect(await main(["run", "tasks/", "--model", "baseline:majority", "--limit", "0"], run)).toBe(2);
    expect(run.err()).toMatch(/^error: --limit: expected an integer >= 1 \(got "0"\)\nusage: yardstick run /);
    expect(run.err()).not.toContain("options:");
    expect(run.err().split("\n").length).toBeLessThan(20);
    const sub = captureIO();
    expect(await main(["label", "serve", "--bogus"], sub)).toBe(2);
    expect(sub.err()).toContain("(every option: yardstick label serve --help)");
    expect(sub.err()).not.toContain("usage: yardstick label to-run");
  });
});
