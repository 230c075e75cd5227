import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { type CliCommandSpec, closestName, defineFlags, formatCommandHelp, helpWidth, parseArgsErrorMessage, parseArgsOptions } from "./cli-options.js";

const flags = defineFlags({
  model: { type: "string", value: "PROVIDER:MODEL", required: true, description: "the model to evaluate" },
  concurrency: { type: "string", value: "N", default: "8", description: "requests in flight at once, across every task of the run and every base URL given" },
  plugin: { type: "string", multiple: true, value: "PACKAGE", description: "load a plugin package" },
  "very-long-flag-name-for-testing": { type: "string", value: "SOMETHING_LONG", description: "a flag whose label is too long for the column" },
  quiet: { type: "boolean", short: "q", description: "print nothing but errors" },
});

const spec: CliCommandSpec = {
  command: "yardstick demo",
  summary: "a demonstration command whose summary is long enough that it wraps on a narrow terminal",
  positionals: [{ name: "<config>...", description: "config files or folders" }],
  flags,
};

describe("option tables", () => {
  it("give parseArgs the flags, with their types and repeats", () => {
    const { values } = parseArgs({ args: ["--model", "a:b", "--plugin", "x", "--plugin", "y", "-q"], options: parseArgsOptions(flags), strict: true });
    expect(values).toEqual({ model: "a:b", plugin: ["x", "y"], quiet: true });
    expect(() => parseArgs({ args: ["--modle", "a"], options: parseArgsOptions(flags), strict: true })).toThrow(/Unknown option '--modle'/);
  });

  it("render usage, arguments and every flag with its default", () => {
    const help = formatCommandHelp(spec, 100);
    expect(help).toMatch(/^usage: yardstick demo <config>\.\.\. --model PROVIDER:MODEL \[--concurrency N\] \[--plugin PACKAGE \.\.\.\]/);
    expect(help).toContain("arguments:\n  <config>...");
    expect(help).toMatch(/--concurrency N +requests in flight at once/);
    expect(help.replace(/\s+/g, " ")).toContain("(default: 8)");
    expect(help).toMatch(/-q, --quiet +print nothing but errors/);
    expect(help).toMatch(/--plugin PACKAGE +load a plugin package \(repeatable\)/);
    expect(help).toMatch(/--model PROVIDER:MODEL +the model to evaluate \(required\)/);
    expect(help).toContain("-h, --help");
  });

  it("fit every line to the width, wrapping descriptions under their column", () => {
    for (const width of [40, 60, 80]) {
      const lines = formatCommandHelp(spec, width).split("\n");
      for (const line of lines) expect(line.length, `${width}: ${line}`).toBeLessThanOrEqual(width);
    }
    const narrow = formatCommandHelp(spec, 60).split("\n");
    const at = narrow.findIndex((l) => l.startsWith("  --concurrency N"));
    const column = narrow[at]!.indexOf("requests");
    expect(narrow[at + 1]!.slice(0, column).trim()).toBe("");
    expect(narrow[at + 1]!.length).toBeGreaterThan(column);
  });

  it("keep a required flag with its value, and a short default, on one line", () => {
    for (const width of [40, 50, 60]) {
      const help = formatCommandHelp(spec, width);
      expect(help, `${width}`).toContain("--model PROVIDER:MODEL");
      expect(help, `${width}`).toContain("(default: 8)");
    }
  });

  it("use the terminal's columns, or 80 without a terminal", () => {
    expect(helpWidth({ isTTY: true, columns: 120 })).toBe(120);
    expect(helpWidth({ isTTY: false, columns: 120 })).toBe(80);
    expect(helpWidth(undefined)).toBe(80);
  });

  it("suggest the name meant by a typo", () => {
    expect(closestName("concurency", Object.keys(flags))).toBe("concurrency");
    expect(closestName("zzz", Object.keys(flags))).toBeUndefined();
    let error: unknown;
    try {
      parseArgs({ args: ["--concurency", "3"], options: parseArgsOptions(flags), strict: true });
    } catch (err) {
      error = err;
    }
    expect(parseArgsErrorMessage(error, flags)).toBe("Unknown option '--concurency' (did you mean --concurrency?)");
  });
});
