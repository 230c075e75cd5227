import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDataFolder } from "./data-folder.js";
import { loadTaskFile } from "./load.js";
import { RUBRIC_FEEDBACK_KEY } from "./rubric-feedback.js";
import { datasetFromRuns, labelRecords } from "./run-bridge.js";
import { createLabelingServer, type LabelingServer } from "./server.js";
import { Client, corpusDataDir, FIXTURES } from "./test-helpers.js";

const RUBRIC = readFileSync(join(FIXTURES, "rubric", "helpfulness.yaml"), "utf8");
const servers: LabelingServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** A data folder with a single-answer task `help` whose question is the rubric beside the task file. */
function rubricFolder(task: Record<string, unknown> = {}, rubricText = RUBRIC): string {
  const dir = corpusDataDir();
  const answers = ["1", "2"].map((id) => ({ task: "qa", id, request: { kind: "completion", prompt: `q${id}` }, response: `a${id}` }));
  writeFileSync(join(dir, "datasets", "help.jsonl"), datasetFromRuns([{ fingerprint: "fp", samples: answers }]).jsonl);
  writeFileSync(join(dir, "tasks", "helpfulness.yaml"), rubricText);
  writeFileSync(
    join(dir, "tasks", "help.json"),
    JSON.stringify({
      taskInfo: { name: "Helpfulness", description: "d", instructions: "i" },
      presentation: { type: "single", displayType: "standard" },
      rubric: "helpfulness.yaml",
      dataset: "help.jsonl",
      results: "help_results.jsonl",
      ...task,
    }),
  );
  return dir;
}

describe("rubric-driven labeling tasks", () => {
  it("turns the rubric into a select question whose values are the choice labels", () => {
    const folder = loadDataFolder(rubricFolder({ feedback: { note: { type: "text", description: "why?", required: false } } }));
    expect(folder.problems).toEqual([]);
    const def = folder.tasks.get("help")!.def;
    expect(Object.keys(def.feedback)).toEqual([RUBRIC_FEEDBACK_KEY, "note"]);
    expect(def.feedback[RUBRIC_FEEDBACK_KEY]).toMatchObject({
      type: "select",
      label: "Does the response answer the user's question?",
      description: "Judge only whether the question is answered, not the style.",
      options: [
        { value: "unhelpful", label: "unhelpful: ignores or misreads the question" },
        { value: "partial", label: "partial: answers part of it" },
        { value: "helpful", label: "helpful: answers it fully" },
      ],
      rubric: { id: "helpfulness", scores: { unhelpful: 0, partial: 0.5, helpful: 1 } },
    });
  });

  it("validates answers against the rubric's choices and writes label records with label and score", async () => {
    const dir = rubricFolder();
    const server = createLabelingServer({ dataDir: dir, adminToken: "admin-token-for-tests" });
    servers.push(server);
    const base = await server.listen(0, "127.0.0.1");
    const ann = new Client(base, server.store.addLabeler("ann"));
    const task = (await ann.call("GET", "/api/task/help")).json;
    expect(task.feedback.rubric.options.map((o: { value: string }) => o.value)).toEqual(["unhelpful", "partial", "helpful"]);
    const line = (await ann.call("GET", "/api/task/help/next")).json.item.line;
    const wrong = await ann.call("POST", "/api/results/help", { line, feedback: { rubric: "great" } });
    expect(wrong.status).toBe(422);
    expect((await ann.call("POST", "/api/results/help", { line, feedback: { rubric: "partial" } })).status).toBe(200);
    const byRun = labelRecords(server.folder.tasks.get("help")!, server.store.doneRows("help"));
    expect(byRun.get("fp")).toEqual([
      expect.objectContaining({
        task: "qa",
        sample: "1",
        stage: "label",
        call: "ann",
        judgement: expect.objectContaining({ label: "partial", score: 0.5, rubric: "helpfulness", feedback: { rubric: "partial" } }),
      }),
    ]);
  });

  it("refuses a rubric that leaves the folder, is missing or broken, or whose key is taken, naming the task", () => {
    const outside = loadDataFolder(rubricFolder({ rubric: "../labels.sqlite" }));
    expect(outside.problems[0]).toMatch(/tasks\/help\.json.*rubric.*"\." or "\.\." segments/);
    const missing = loadDataFolder(rubricFolder({ rubric: "nope.yaml" }));
    expect(missing.problems[0]).toMatch(/tasks\/help\.json.*cannot read the task's rubric nope\.yaml/);
    const broken = loadDataFolder(rubricFolder({}, "question: q\nchoices:\n  - label: a\n    score: one\n"));
    expect(broken.problems[0]).toMatch(/helpfulness\.yaml:4:12 choices\[0\]\.score/);
    const taken = loadDataFolder(rubricFolder({ feedback: { rubric: { type: "text", description: "x" } } }));
    expect(taken.problems[0]).toMatch(/feedback key "rubric" is taken/);
    const dir = corpusDataDir();
    mkdirSync(join(dir, "t"));
    writeFileSync(join(dir, "t", "empty.json"), JSON.stringify({ taskInfo: { name: "n", description: "d", instructions: "i" }, presentation: { type: "single", displayType: "standard" }, dataset: "x.jsonl", results: "r.jsonl" }));
    expect(() => loadTaskFile(join(dir, "t", "empty.json"))).toThrow(/needs at least one feedback item \(or a rubric\)/);
  });
});
