#!/usr/bin/env node
// The offline demo: evaluates the quickstart task with the two baseline models and, over HTTP, with
// a local OpenAI-compatible dev server, writing a run store per model and printing the tables.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "@yardstick/runner";
import { startDevServer } from "@yardstick/testing";
import { sentimentPolicy } from "./sentiment-policy.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const tasks = join(here, "tasks");
const outRoot = process.env.YARDSTICK_DEMO_OUT ?? join(here, "runs");
const env = { ...process.env, YARDSTICK_CACHE_DIR: process.env.YARDSTICK_CACHE_DIR ?? mkdtempSync(join(tmpdir(), "yardstick-demo-cache-")) };
const io = { stdout: process.stdout, stderr: process.stderr, env, cwd: process.cwd() };

/** A failed step: yardstick has printed why; the demo stops with its exit code. */
class StepFailed extends Error {
  constructor(title, code) {
    super(`${title}: yardstick run exited with ${code}`);
    this.code = code;
  }
}

async function run(title, args) {
  process.stdout.write(`\n== ${title} ==\n`);
  const code = await main(["run", tasks, ...args, "--quiet"], io);
  if (code !== 0) throw new StepFailed(title, code);
}

// The demo writes its run stores afresh each time: one left by an earlier yardstick (whose task
// fingerprint differs) would otherwise refuse the run. Only folders holding a run store are removed.
for (const name of ["random", "majority", "lexicon"]) {
  const dir = join(outRoot, name);
  if (existsSync(join(dir, "run.json"))) rmSync(dir, { recursive: true, force: true });
}

const server = await startDevServer({ port: 0, policy: sentimentPolicy, models: ["lexicon-sentiment"] });
try {
  await run("baseline:random", ["--model", "baseline:random", "--out", join(outRoot, "random")]);
  await run("baseline:majority", ["--model", "baseline:majority", "--out", join(outRoot, "majority")]);
  await run(`lexicon model over HTTP (${server.url})`, [
    "--model",
    "openai-compatible:lexicon-sentiment",
    "--base-url",
    `${server.url}/v1`,
    "--out",
    join(outRoot, "lexicon"),
  ]);
  process.stdout.write(`\nrun stores: ${outRoot}/{random,majority,lexicon} (run.json, responses.jsonl, results.json)\n`);
  process.stdout.write(`compare two runs: npx yardstick compare ${join(outRoot, "random")} ${join(outRoot, "lexicon")}\n`);
} catch (err) {
  if (!(err instanceof StepFailed)) throw err;
  process.stderr.write(`demo stopped: ${err.message}\n`);
  process.exitCode = err.code;
} finally {
  await server.close();
}
