import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "./main.js";

// The READMEs' commands and flag lists are written by hand; this keeps them true to the option
// tables: every `yardstick CMD ... --flag` written in a README is a flag of CMD (or of one of its
// subcommands), and every other `--flag` in a sentence about yardstick is a flag of some command.

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

function readmes(): string[] {
  const files = [join(repoRoot, "README.md")];
  for (const dir of ["packages", "examples"]) {
    for (const name of readdirSync(join(repoRoot, dir))) files.push(join(repoRoot, dir, name, "README.md"));
  }
  return files.filter((f) => {
    try {
      readFileSync(f);
      return true;
    } catch {
      return false;
    }
  });
}

async function flagsByCommand(): Promise<Map<string, Set<string>>> {
  const byCommand = new Map<string, Set<string>>();
  for (const [name, entry] of Object.entries(COMMANDS)) {
    const flags = new Set(["help"]);
    for (const spec of await entry.help()) for (const flag of Object.keys(spec.flags)) flags.add(flag);
    byCommand.set(name, flags);
  }
  return byCommand;
}

/** Flags of other programs that READMEs name in sentences (vLLM's, a bench script's, an example script's). */
const OTHER_PROGRAMS_FLAGS = new Set(["served-model-name", "chat-template", "separate", "serve"]);

/** Commands of other programs whose flags a README shows beside yardstick's. */
const FOREIGN = /\b(vllm|python3?|pip|npm|npx (?!yardstick)|node|docker|kubectl|sbatch|sacrebleu|git|apt-get|curl|huggingface-cli|lm_eval|promptfoo|unshare)\b/;

interface Mention {
  file: string;
  line: number;
  command: string | undefined;
  flag: string;
}

function mentions(file: string, text = readFileSync(file, "utf8")): Mention[] {
  const found: Mention[] = [];
  const lines = text.split("\n");
  // A command continued over several lines (trailing backslash) keeps its command name.
  let continued: string | undefined;
  lines.forEach((text, i) => {
    // Each flag belongs to the nearest `yardstick CMD` before it on its line, else to the command
    // continued from the line above (trailing backslash), else to no command in particular.
    const invocations = [...text.matchAll(/\byardstick ([a-z][a-z-]*)/g)].filter((m) => COMMANDS[m[1]!] !== undefined);
    const start = continued;
    let last = start;
    for (const m of text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)) {
      const before = invocations.filter((c) => c.index < m.index).pop();
      const command = before?.[1] ?? start;
      if (command === undefined && (FOREIGN.test(text) || !/yardstick|`--/.test(text))) continue;
      if (command === undefined && OTHER_PROGRAMS_FLAGS.has(m[1]!)) continue;
      found.push({ file, line: i + 1, command, flag: m[1]! });
    }
    if (invocations.length > 0) last = invocations[invocations.length - 1]![1];
    continued = text.trimEnd().endsWith("\\") ? last : undefined;
  });
  return found;
}

describe("flags named in the READMEs", () => {
  it("are attributed to the command they are given to", () => {
    const text = ["`yardstick view RUN` or `yardstick show RUN --task t`", "npx yardstick run x \\", "  --limit 3", "vllm serve m --port 8000", "use `--seed N`"].join("\n");
    expect(mentions("x.md", text).map((m) => `${m.line} ${m.command} ${m.flag}`)).toEqual(["1 show task", "3 run limit", "5 undefined seed"]);
  });

  it("exist in the option table of the command they are given to", async () => {
    const byCommand = await flagsByCommand();
    const everyFlag = new Set([...byCommand.values()].flatMap((s) => [...s]));
    const wrong: string[] = [];
    let checked = 0;
    for (const file of readmes()) {
      for (const m of mentions(file)) {
        checked++;
        const known = m.command === undefined ? everyFlag : byCommand.get(m.command)!;
        if (!known.has(m.flag)) wrong.push(`${m.file.slice(repoRoot.length + 1)}:${m.line}: --${m.flag}${m.command ? ` (yardstick ${m.command})` : ""}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(wrong, `flags the READMEs name that no option table has:\n${wrong.join("\n")}`).toEqual([]);
  });
});
