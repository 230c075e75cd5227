#!/usr/bin/env node
// The spatial example: generate a small seeded benchmark (SEA-HELM layout, text + image variants),
// audit it, score the answer checker and a constant baseline locally, then, when the runner is built,
// evaluate it with `yardstick run` against the dev server's `spatial-solver` policy and a baseline.
// Usage: node examples/spatial/run.mjs [--out DIR] [--shapes N] [--count M] [--seed S]
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SPATIAL_CLI = join(ROOT, "packages/spatial/dist/cli.js");
const RUNNER_CLI = join(ROOT, "packages/runner/dist/bin/yardstick.js");

/** Runs a node script and collects its output; rejects with the stderr on a non-zero exit. */
export function runNode(args, { timeoutMs = 120_000 } = {}) {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) res({ stdout, stderr });
      else rej(new Error(`node ${args.join(" ")} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

/** Starts `yardstick dev-server` with a policy and resolves with its URL (its first stdout line) and a stop(). */
export function startDevServer(policy) {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [RUNNER_CLI, "dev-server", "--policy", policy, "--port", "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let buffered = "";
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", (d) => {
      buffered += d;
      const url = buffered.match(/https?:\/\/[^\s]+/)?.[0];
      if (url) res({ url, stop: () => child.kill("SIGTERM") });
    });
    child.on("close", (code) => rej(new Error(`dev-server exited with ${code} before printing its URL: ${stderr.trim()}`)));
  });
}

/** Scores every text row with the package's own solver and a constant baseline, without a server. */
export async function scoreLocally(dir) {
  const spatial = await import(join(ROOT, "packages/spatial/dist/index.js"));
  const constant = { existence: "Yes", existence_tracking: "Yes", count: "1", transitivity: "Left", coordinate: "Above Left", shuffle_tracking: "large red square" };
  const inputs = { solver: [], baseline: [] };
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(dir, file), "utf8").trim().split("\n")) {
      const row = JSON.parse(line);
      const sample = { id: row.id, prompts: row.prompts, label: row.label, metadata: row.metadata, raw: row };
      const prompt = spatial.buildPromptText(row.metadata.task, row.prompts[0].description, row.prompts[0].question);
      const solved = spatial.solveSpatialPrompt(prompt) ?? "";
      const guess = `Answer: ${constant[row.metadata.task]}`;
      const strip = (t) => t.replace(/^Answer:\s*/, "");
      inputs.solver.push({ sampleId: row.id, prediction: strip(solved), reference: row.label, rawResponse: solved, sample });
      inputs.baseline.push({ sampleId: row.id, prediction: strip(guess), reference: row.label, rawResponse: guess, sample });
    }
  }
  const out = {};
  for (const [who, list] of Object.entries(inputs)) {
    const byType = (type) => list.filter((i) => (i.sample.metadata.description_type === "image") === type);
    out[who] = {};
    for (const [variant, subset] of [["text", byType(false)], ["image", byType(true)]]) {
      if (subset.length === 0) continue;
      const lenient = await spatial.spatialMetrics["spatial-lenient"].compute(subset, {});
      const strict = await spatial.spatialMetrics["spatial-strict"].compute(subset, {});
      out[who][variant] = { samples: subset.length, lenient: lenient.scores.lenient_accuracy, strict: strict.scores.strict_accuracy };
    }
  }
  return out;
}

/** `yardstick run` against the dev server; returns undefined (and says so) when the runner is not built. */
export async function evaluateWithRunner(dir, log = console.log) {
  if (!existsSync(RUNNER_CLI)) {
    log(`SKIPPED the yardstick run part: ${RUNNER_CLI} does not exist yet (build packages/runner)`);
    return undefined;
  }
  // A runner built before the dev-server command was wired prints nothing for it: say so instead of hanging.
  const help = await runNode([RUNNER_CLI, "dev-server", "--help"]).catch((err) => ({ stdout: "", stderr: String(err) }));
  if (!help.stdout.includes("--policy")) {
    log(`SKIPPED the yardstick run part: ${RUNNER_CLI} has no dev-server command yet (\`dev-server --help\` does not list --policy)`);
    return undefined;
  }
  const results = {};
  for (const [name, policy] of [["spatial-solver", "spatial-solver"], ["baseline", "fixed:Answer: Yes"]]) {
    const server = await startDevServer(policy);
    try {
      const out = mkdtempSync(join(tmpdir(), `spatial-run-${name}-`));
      // The dev server prints its root URL; the OpenAI-compatible API lives under /v1.
      const baseUrl = server.url.replace(/\/+$/, "").replace(/(?<!\/v1)$/, "/v1");
      const { stdout } = await runNode([RUNNER_CLI, "run", dir, "--model", `openai-compatible:${name}`, "--base-url", baseUrl, "--out", out]);
      const resultsFile = join(out, "results.json");
      results[name] = { out, stdout, results: existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, "utf8")) : undefined };
      log(`--- yardstick run (${name}) ---\n${stdout}`);
    } finally {
      server.stop();
    }
  }
  return results;
}

export async function main(argv = process.argv.slice(2), log = console.log) {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: "string" },
      shapes: { type: "string", default: "3" },
      count: { type: "string", default: "20" },
      seed: { type: "string", default: "42" },
      "no-runner": { type: "boolean", default: false },
    },
  });
  const dir = values.out ?? mkdtempSync(join(tmpdir(), "spatial-example-"));
  const gen = await runNode([SPATIAL_CLI, "generate", "--shapes", values.shapes, "--count", values.count, "--seed", values.seed, "--out", dir, "--format", "seahelm", "--images"]);
  log(`generated: ${gen.stdout.trim()}`);
  const audit = await runNode([SPATIAL_CLI, "audit", dir]);
  log(audit.stdout.trim());
  const local = await scoreLocally(dir);
  log(`local scores (solver vs constant baseline): ${JSON.stringify(local, null, 2)}`);
  const runner = values["no-runner"] ? undefined : await evaluateWithRunner(dir, log);
  return { dir, local, runner };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
