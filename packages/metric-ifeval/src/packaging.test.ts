import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });

describe("@yardstick/metric-ifeval as its own package", () => {
  it("packs, installs into a fresh project beside @yardstick/core only, and scores", () => {
    const dir = mkdtempSync(join(tmpdir(), "ifeval-pack-"));
    npm(["pack", "-w", "packages/core", "-w", "packages/metric-ifeval", "--pack-destination", dir], root);
    const tarballs = readdirSync(dir).filter((f) => f.endsWith(".tgz"));
    expect(tarballs.sort()).toEqual(["yardstick-core-0.1.0.tgz", "yardstick-metric-ifeval-0.1.0.tgz"]);
    const project = join(dir, "project");
    execFileSync("mkdir", [project]);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({
        name: "uses-ifeval",
        private: true,
        type: "module",
        dependencies: {
          "@yardstick/core": `file:../yardstick-core-0.1.0.tgz`,
          "@yardstick/metric-ifeval": `file:../yardstick-metric-ifeval-0.1.0.tgz`,
        },
      }),
    );
    npm(["install", "--offline"], project);
    writeFileSync(
      join(project, "check.mjs"),
      `import plugins from "@yardstick/metric-ifeval";
const metric = plugins.metrics.ifeval;
const row = { id: "r1", prompts: [{ text: "Introduce yourself. Start with the word 'hello'." }], metadata: { language: "en", subcategory: "startend:first_word" }, kwargs: [{ first_word: "hello" }] };
const result = await metric.compute(
  [{ sampleId: "r1", prediction: "Hello! I am a language model, and I am happy to answer your questions about the weather and the news.", reference: "", sample: { id: "r1", prompts: row.prompts, metadata: row.metadata, raw: row } }],
  {},
  { task: { language: "en" } },
);
console.log(JSON.stringify(result.scores));
`,
    );
    const out = execFileSync(process.execPath, ["check.mjs"], { cwd: project, encoding: "utf8" });
    const scores = JSON.parse(out);
    expect(scores.overall_lang_normalized_acc).toBe(100);
  }, 120_000);
});
