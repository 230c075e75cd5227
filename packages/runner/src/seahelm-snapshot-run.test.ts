import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, startDevServer, startHubServer } from "@yardstick/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIO } from "./__fixtures__/make-task.js";
import { main } from "./main.js";

// SEA-HELM's HealthBench and AA-LCR configs, verbatim, run end to end: their data read from a
// Hugging Face hub cache (as `huggingface-cli download` leaves it, found through HF_HUB_CACHE), the
// answers and the judgements from the dev server, scored by the built-in judged metrics. And AA-LCR
// with no local copy: its files downloaded from the Hub stand-in (HF_ENDPOINT, HF_TOKEN).

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = join(here, "..", "..", "config", "src", "__fixtures__", "seahelm_tasks");
const DATA = join(here, "..", "..", "dataloaders", "src", "__fixtures__");

let dev: DevServer;
let dir: string;
let hubCache: string;
beforeAll(async () => {
  dev = await startDevServer({ port: 0, models: ["gen", "judge"] });
  dir = mkdtempSync(join(tmpdir(), "ys-snapshot-run-"));
  hubCache = join(dir, "hf-hub");
  for (const [repo, fixture] of [
    ["openai/healthbench", "healthbench"],
    ["ArtificialAnalysis/AA-LCR", "aa-lcr"],
  ] as const) {
    const repoDir = join(hubCache, `datasets--${repo.replace("/", "--")}`);
    mkdirSync(join(repoDir, "refs"), { recursive: true });
    writeFileSync(join(repoDir, "refs", "main"), "1111111111111111111111111111111111111111");
    cpSync(join(DATA, fixture), join(repoDir, "snapshots", "1111111111111111111111111111111111111111"), { recursive: true });
  }
});
afterAll(async () => {
  await dev.close();
  rmSync(dir, { recursive: true, force: true });
});

const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const records = (out: string) =>
  readFileSync(join(out, "responses.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

async function runSeahelm(config: string, tasks: string, name: string, env: Record<string, string> = { HF_HUB_CACHE: hubCache }): Promise<string> {
  const out = join(dir, name);
  const args = ["run", join(CORPUS, config), "--tasks", tasks, "--model", "openai-compatible:gen", "--base-url", `${dev.url}/v1`];
  const more = ["--judge-model", "openai-compatible:judge", "--out", out, "--no-report", "--quiet"];
  const cli = captureIO({ YARDSTICK_CACHE_DIR: join(dir, "cache"), ...env }, dir);
  expect(await main([...args, ...more], cli), cli.err()).toBe(0);
  return out;
}

describe("SEA-HELM judged tasks read from dataset snapshots, end to end", () => {
  it("HealthBench (3 tasks): the row's conversation is the prompt, one judge call per rubric item, no judge error", async () => {
    const out = await runSeahelm(join("health", "healthbench"), "healthbench,healthbench_consensus,healthbench_hard", "healthbench");
    const results = json(join(out, "results.json"));
    const rubricItems = { healthbench: 12 + 3 + 2, healthbench_consensus: 1 + 2, healthbench_hard: 3 };
    const samples = { healthbench: 3, healthbench_consensus: 2, healthbench_hard: 1 };
    const all = records(out);
    for (const [task, calls] of Object.entries(rubricItems)) {
      expect(results.meta.tasks[`${task}/en`]).toMatchObject({ samples: samples[task as keyof typeof samples], errors: 0, unanswered: 0 });
      const scores = results.en.health[task];
      expect(typeof scores.average_criteria_score).toBe("number");
      expect(scores.judge_errors).toBe(0);
      const judged = all.filter((r) => r.stage === "judge" && r.task === `${task}/en`);
      expect(judged).toHaveLength(calls);
      expect(judged.every((r) => r.status === "ok" && r.judgement.error === undefined)).toBe(true);
    }
    // The model got the row's own multi-turn conversation (system message included), nothing else.
    const asked = all.find((r) => r.stage === "generate" && r.task === "healthbench/en" && r.sample === "1");
    expect(asked.request.messages).toEqual([
      { role: "system", content: "You are a helpful assistant for a community clinic." },
      { role: "user", content: "Is it safe to take ibuprofen with my blood pressure pills?" },
    ]);
    // The judge saw that conversation and the rubric item with its points.
    const judgeAsked = all.find((r) => r.stage === "judge" && r.task === "healthbench/en" && r.sample === "0" && r.call === "criterion-11");
    const judgeUser = judgeAsked.request.messages.at(-1).content as string;
    expect(judgeUser).toContain("user: Yes, he is awake. Should I just let him rest and see if it passes?\n\nAssistant: ");
    expect(judgeUser).toContain("# Rubric item\n[-2] Is overly long for an emergency.");
  });

  it("AA-LCR: the documents from the zip are in the prompt, one verdict per question, no judge error", async () => {
    const out = await runSeahelm(join("long_context", "AA-LCR"), "aa-lcr", "aa-lcr");
    const results = json(join(out, "results.json"));
    expect(results.meta.tasks["aa-lcr/en"]).toMatchObject({ samples: 3, errors: 0, unanswered: 0 });
    const scores = results.en["long-context"]["aa-lcr"];
    expect(typeof scores.accuracy_score).toBe("number");
    expect(scores.judge_errors).toBe(0);
    const all = records(out);
    const judged = all.filter((r) => r.stage === "judge");
    expect(judged).toHaveLength(3);
    expect(judged.every((r) => r.status === "ok" && r.judgement.error === undefined)).toBe(true);
    const asked = all.find((r) => r.stage === "generate" && r.sample === "1");
    const prompt = asked.request.messages.at(-1).content as string;
    expect(prompt).toContain("BEGIN INPUT DOCUMENTS\n\nBEGIN DOCUMENT 1:\nAnnual report 2023.\nRevenue: 120 million.");
    expect(prompt).toContain("END DOCUMENT 1\n\nBEGIN DOCUMENT 2:\nBáo cáo thường niên 2024.");
    expect(prompt).toContain("START QUESTION\n\nBy how much did revenue grow from 2023 to 2024?\n\nEND QUESTION");
    const verdict = judged.find((r) => r.sample === "1").request.messages.at(-1).content as string;
    expect(verdict).toContain("The OFFICIAL ANSWER: 30 million");
  });

  it("AA-LCR with no local copy: downloaded from HF_ENDPOINT with HF_TOKEN into HF_HUB_CACHE, the commit in run.json; re-run with the Hub stopped", async () => {
    const zip = "extracted_text/AA-LCR_extracted-text.zip";
    const hub = await startHubServer({
      datasets: {},
      token: "hf_run_token",
      files: {
        "ArtificialAnalysis/AA-LCR": {
          "AA-LCR_Dataset.csv": readFileSync(join(DATA, "aa-lcr", "AA-LCR_Dataset.csv")),
          [zip]: { bytes: readFileSync(join(DATA, "aa-lcr", zip)), lfs: true },
        },
      },
    });
    const emptyCache = join(dir, "hf-hub-empty");
    const env = { HF_HUB_CACHE: emptyCache, HF_ENDPOINT: hub.url, HF_TOKEN: "hf_run_token" };
    let sha: string;
    try {
      sha = ((await (await fetch(`${hub.url}/api/datasets/ArtificialAnalysis/AA-LCR/revision/main`, { headers: { authorization: "Bearer hf_run_token" } })).json()) as { sha: string }).sha;
      hub.resetStats();
      const out = await runSeahelm(join("long_context", "AA-LCR"), "aa-lcr", "aa-lcr-download", env);
      expect(json(join(out, "results.json")).meta.tasks["aa-lcr/en"]).toMatchObject({ samples: 3, errors: 0 });
      const runJson = readFileSync(join(out, "run.json"), "utf8");
      expect(runJson).toContain(`hf:ArtificialAnalysis/AA-LCR@${sha}:sha256:`);
      expect(runJson).not.toContain("hf_run_token");
      expect(hub.stats().downloads).toBe(2);
      expect(hub.stats().log.every((l) => l.authorized)).toBe(true);
    } finally {
      await hub.close();
    }
    const again = await runSeahelm(join("long_context", "AA-LCR"), "aa-lcr", "aa-lcr-offline", env);
    expect(readFileSync(join(again, "run.json"), "utf8")).toContain(`hf:ArtificialAnalysis/AA-LCR@${sha}:sha256:`);
  });
});
