import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script without type declarations
import { evaluateWithRunner, main } from "./run.mjs";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("examples/spatial", () => {
  it("generates a seeded benchmark, audits it and scores the solver far above the baseline", async () => {
    const logs: string[] = [];
    const { dir, local } = await main(["--count", "12", "--seed", "7", "--no-runner"], (line: string) => logs.push(line));
    dirs.push(dir);
    const files = readdirSync(dir);
    expect(files).toContain("config.yaml");
    expect(files).toContain("spatial-existence.jsonl");
    expect(files).toContain("spatial-existence-image.jsonl");
    expect(files.filter((f) => f.endsWith(".jsonl"))).toHaveLength(11);
    expect(readdirSync(join(dir, "images")).filter((f) => f.endsWith(".png"))).toHaveLength(12);
    const row = JSON.parse(readFileSync(join(dir, "spatial-count.jsonl"), "utf8").split("\n")[0]!);
    expect(row.metadata.task).toBe("count");
    expect(logs.join("\n")).toMatch(/audit of .*: \d+ questions, \d+ issues/);
    expect(local.solver.text.strict).toBe(100);
    expect(local.solver.text.lenient).toBe(100);
    expect(local.baseline.text.strict).toBeLessThan(60);
    // The solver reads text only, so on image prompts it can only guess.
    expect(local.solver.image.samples).toBe(12 * 5);
    expect(local.solver.image.strict).toBeLessThan(local.solver.text.strict);
  });

  it("evaluates through `yardstick run` and the dev server", async () => {
    const logs: string[] = [];
    const { dir } = await main(["--count", "4", "--seed", "3", "--no-runner"], () => {});
    dirs.push(dir);
    const results = await evaluateWithRunner(dir, (line: string) => logs.push(line));
    // The test command builds every package first, so the runner must be there.
    expect(results, logs.join("\n")).toBeDefined();
    expect(Object.keys(results)).toEqual(["spatial-solver", "baseline"]);
    for (const r of Object.values(results) as { out: string }[]) dirs.push(r.out);
    const group = (name: string) => results[name].results.en.spatial as Record<string, Record<string, number>>;
    const solver = group("spatial-solver");
    const baseline = group("baseline");
    // The answer checker reads the text perfectly; a constant "Yes" cannot.
    for (const task of ["spatial-existence", "spatial-count", "spatial-transitivity", "spatial-coordinate", "spatial-existence-tracking", "spatial-shuffle-tracking"]) {
      expect(solver[task]!.strict_accuracy, task).toBe(100);
      expect(solver[task]!.lenient_accuracy, task).toBe(100);
    }
    expect(baseline["spatial-count"]!.strict_accuracy).toBeLessThan(100);
    expect(baseline["spatial-shuffle-tracking"]!.strict_accuracy).toBe(0);
    // Image variants: the solver cannot see the picture, so it only guesses.
    expect(solver["spatial-coordinate-image"]!.strict_accuracy).toBeLessThan(100);
  });
});
