#!/usr/bin/env node
// The judged example: a pairwise task (MT-Bench style, two turns, baseline answers in the rows) and a
// criteria task (kalahi style) in SEA-HELM's config shape, plus a task scored with a rubric.yaml (in
// this example's own small dialect, rubric-task-dialect.mjs), answered and judged through the local dev
// server, which plays both the judged model ("gen") and the judge ("judge"). Steps: a dry run of each
// mode (the cost estimate; nothing is sent), the run online, the same run through the dev server's
// OpenAI Batch API (--batch, a fresh request cache so every request really goes into a batch), the
// two runs' scores and judgements compared, the server's /stats per step, and one HTML report of both.
// Usage: node examples/judged/run.mjs [--out DIR]   (default DIR: examples/judged/runs)
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { main as yardstick } from "@yardstick/runner";
import { startDevServer } from "@yardstick/testing";

const here = dirname(fileURLToPath(import.meta.url));
// The SEA-HELM-style tasks folder, and a rubric-judged task in this example's own small dialect (a plugin).
const CONFIGS = [join(here, "tasks"), join(here, "rubric-tasks", "helpfulness.rubric-task.json")];
const PLUGIN = join(here, "rubric-task-dialect.mjs");
const PRICES = join(here, "prices.yaml");

/** Runs the example; returns the output folder, the dev server's stats per step and the two runs' results. */
export async function runExample({ argv = process.argv.slice(2), write = (s) => process.stdout.write(s) } = {}) {
  const { values } = parseArgs({ args: argv, options: { out: { type: "string" } } });
  const out = values.out ?? join(here, "runs");
  // A second run into the same folders would resume and send nothing: start from empty ones.
  for (const name of ["online", "batch", "cache-online", "cache-batch", "report.html"]) rmSync(join(out, name), { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const say = (line = "") => write(`${line}\n`);
  const sink = new Writable({
    write(chunk, _enc, cb) {
      write(String(chunk));
      cb();
    },
  });
  const cli = async (cacheDir, ...args) => {
    say(`$ yardstick ${args.map((a) => (a.startsWith(out) ? a.replace(out, "$OUT") : a.startsWith(here) ? a.replace(here, "./examples/judged") : a)).join(" ")}`);
    const code = await yardstick(args, { stdout: sink, stderr: sink, env: { ...process.env, YARDSTICK_CACHE_DIR: cacheDir }, cwd: out });
    if (code !== 0) throw new Error(`yardstick ${args[0]} exited with ${code}`);
    say();
  };

  const server = await startDevServer({ port: 0, models: ["gen", "judge"] });
  say(`dev server at ${server.url}: answers as "gen" (echoes the question) and as "judge" (a deterministic judge reply)`);
  say(`output folder ($OUT below): ${out}\n`);
  const stats = async () => (await fetch(`${server.url}/stats`)).json();
  const models = ["--plugin", PLUGIN, "--model", "openai-compatible:gen", "--base-url", `${server.url}/v1`, "--judge-model", "openai-compatible:judge", "--prices", PRICES];
  const steps = {};
  try {
    const step = async (name, cacheDir, ...args) => {
      const before = await stats();
      await cli(cacheDir, ...args);
      steps[name] = sentBetween(before, await stats());
    };
    say("== 1. dry run: what each run would send and cost (nothing is sent) ==");
    await step("dry-run", join(out, "cache-online"), "run", ...CONFIGS, ...models, "--dry-run");
    await step("dry-run --batch", join(out, "cache-batch"), "run", ...CONFIGS, ...models, "--dry-run", "--batch");

    say("== 2. online: one request at a time to /v1/chat/completions ==");
    await step("online", join(out, "cache-online"), "run", ...CONFIGS, ...models, "--max-cost", "0.50", "--out", join(out, "online"), "--no-report");

    say("== 3. batch: the same run through the OpenAI Batch API (/v1/files + /v1/batches), fresh cache ==");
    await step(
      "batch",
      join(out, "cache-batch"),
      "run",
      ...CONFIGS,
      ...models,
      "--max-cost",
      "0.50",
      "--batch",
      "--batch-poll-seconds",
      "0.2",
      "--out",
      join(out, "batch"),
      "--no-report",
    );
  } finally {
    await server.close();
  }

  say("== 4. what the dev server received in each step (from its /stats) ==");
  say(table(["step", "chat completions", "batches created", "requests in batches"], Object.entries(steps).map(([name, s]) => [name, s.chat, s.batches, s.batchRequests])));
  say();

  say("== 5. online and batch agree ==");
  const comparison = compareRuns(join(out, "online"), join(out, "batch"));
  say(table(["task", "score", "online", "batch", "judge errors (online/batch)", "judgements equal"], comparison.rows));
  say(comparison.agree ? "\nThe two runs agree: same scores, same judgements, no judge error." : "\nThe two runs DIFFER (see the table above).");
  say();

  say("== 6. one report of both runs ==");
  await cli(join(out, "cache-online"), "report", join(out, "online"), join(out, "batch"), "--out", join(out, "report.html"));
  say(`open ${join(out, "report.html")}`);
  return { out, steps, comparison };
}

/** What the server received between two /stats snapshots: chat requests, batches and their requests. */
function sentBetween(before, after) {
  const count = (s, path) => s.requests[path] ?? 0;
  return {
    chat: count(after, "/v1/chat/completions") - count(before, "/v1/chat/completions"),
    batches: after.batches.created - before.batches.created,
    batchRequests: after.batches.requests - before.batches.requests,
  };
}

const readLines = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** Each task's main score and judge errors in both runs, and whether every judge call got the same judgement. */
function compareRuns(onlineDir, batchDir) {
  const online = JSON.parse(readFileSync(join(onlineDir, "run.json"), "utf8"));
  const results = { online: JSON.parse(readFileSync(join(onlineDir, "results.json"), "utf8")), batch: JSON.parse(readFileSync(join(batchDir, "results.json"), "utf8")) };
  const judgements = { online: judgementsOf(onlineDir), batch: judgementsOf(batchDir) };
  const rows = [];
  const tasks = [];
  let agree = true;
  for (const task of online.tasks) {
    const scoreOf = (r) => r[task.language]?.[task.competency]?.[task.name];
    const [a, b] = [scoreOf(results.online), scoreOf(results.batch)];
    const metric = task.mainScore;
    const keys = [...judgements.online.keys()].filter((k) => k.startsWith(`${task.key}|`));
    const sameJudgements = keys.length > 0 && keys.length === [...judgements.batch.keys()].filter((k) => k.startsWith(`${task.key}|`)).length && keys.every((k) => judgements.online.get(k) === judgements.batch.get(k));
    const ok = a?.[metric] === b?.[metric] && a?.judge_errors === 0 && b?.judge_errors === 0 && sameJudgements;
    agree &&= ok;
    tasks.push({ task: task.key, metric, online: a?.[metric], batch: b?.[metric], judgeErrors: [a?.judge_errors, b?.judge_errors], judgeCalls: keys.length, sameJudgements });
    rows.push([task.key, metric, fmt(a?.[metric]), fmt(b?.[metric]), `${a?.judge_errors}/${b?.judge_errors}`, `${sameJudgements ? "yes" : "NO"} (${keys.length} calls)`]);
  }
  return { agree, tasks, rows };
}

/** task|sample|turn|call → the judgement's label and score, from a run store's finished judge records. */
function judgementsOf(dir) {
  const map = new Map();
  for (const r of readLines(join(dir, "responses.jsonl"))) {
    if (r.stage !== "judge" || r.status === "pending") continue;
    const j = r.judgement ?? {};
    map.set(`${r.task}|${r.sample}|${r.turn}|${r.call}`, JSON.stringify([r.status, j.label, j.score, j.error ?? null]));
  }
  return map;
}

const fmt = (x) => (typeof x === "number" ? x.toFixed(2) : String(x));

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { comparison } = await runExample();
  if (!comparison.agree) process.exitCode = 1;
}
