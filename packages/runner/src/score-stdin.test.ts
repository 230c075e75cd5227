import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const cli = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin", "yardstick.js");

describe("yardstick score as a process", () => {
  it("reads the predictions piped to standard input, like `cat sys | sacrebleu ref`", () => {
    const dir = mkdtempSync(join(tmpdir(), "ys-score-stdin-"));
    const ref = join(dir, "ref.txt");
    writeFileSync(ref, "The dog bit the man.\nIt was not unexpected.\nThe man bit him first.\n");
    const sys = "The dog bit the man.\nIt wasn't surprising.\nThe man had just bitten him.\n";
    const piped = spawnSync(process.execPath, [cli, "score", "-m", "bleu", "-r", ref, "-f", "text"], { input: sys, encoding: "utf8" });
    expect(piped.stderr).toBe("");
    expect(piped.status).toBe(0);
    const metricsPkg = createRequire(import.meta.url).resolve("@yardstick/metrics").replace(/dist\/index\.js$/, "package.json");
    const version = (JSON.parse(readFileSync(metricsPkg, "utf8")) as { version: string }).version;
    expect(piped.stdout).toMatch(new RegExp(`^BLEU\\|nrefs:1\\|case:mixed\\|eff:no\\|tok:13a\\|smooth:exp\\|version:${version.replaceAll(".", "\\.")} = \\d+\\.\\d `));
    const dash = spawnSync(process.execPath, [cli, "score", "-m", "bleu", "-r", ref, "-b", "-w", "3", "--pred", "-"], { input: sys, encoding: "utf8" });
    expect(dash.status).toBe(0);
    expect(dash.stdout).toMatch(/^\d+\.\d{3}\n$/);
    expect(piped.stdout).toContain(` = ${Number(dash.stdout).toFixed(1)} `);
    const short = spawnSync(process.execPath, [cli, "score", "-m", "bleu", "-r", ref], { input: "one line\n", encoding: "utf8" });
    expect(short.status).toBe(2);
    expect(short.stdout).toBe("");
    expect(short.stderr).toMatch(/^yardstick score: line counts differ: standard input has 1 lines but .*ref\.txt has 3\n$/);
  });
});
