import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { auditDirectory } from "./audit.js";
import { buildPromptText } from "./prompts.js";
import { solveQuestion } from "./solver/answer.js";
import { solveSpatialPrompt } from "./solver/prompt.js";
import { writeDataset } from "./write-dataset.js";

const tmp = mkdtempSync(join(tmpdir(), "spatial-solver-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("solver reads only the description text", () => {
  it("answers each question type", () => {
    const full =
      "There are 2 shapes in a canvas. There is a small red square in the canvas. A large blue circle is to the above left of this small red square. There is a large blue circle in the canvas. A small red square is below this large blue circle.";
    expect(solveQuestion(full, "Is there a blue shape?")).toEqual({ status: "entailed", answer: "Yes" });
    expect(solveQuestion(full, "Is there a shape that is green?")).toEqual({ status: "entailed", answer: "No" });
    expect(solveQuestion(full, "How many small shapes are there?")).toEqual({ status: "entailed", answer: "1" });
    expect(solveQuestion(full, "Where is the large blue circle relative to the small red square?").answer).toBe("Above Left");
    const chain = "There are 4 shapes in a canvas. There is a small red square in the canvas. To the left of the small red square is a large blue circle. To the left of the large blue circle is a small green triangle. To the right of the small red square is a large red square.";
    expect(solveQuestion(chain, "Where is the small green triangle relative to the large red square?")).toEqual({ status: "entailed", answer: "Left" });
    const line = "There are 3 shapes in a canvas. From top to bottom, the shapes are a small red square, a large blue circle, and a small green triangle. The small red square and the small green triangle swap positions.";
    expect(solveQuestion(line, "What shape is first from the top?").answer).toBe("small green triangle");
    expect(solveQuestion(line, "What shape is first from the bottom?").answer).toBe("small red square");
    const tracked = `${full} A small green triangle is added to the canvas. The small red square is removed from the canvas.`;
    expect(solveQuestion(tracked, "Is there a small red square in the canvas? ").answer).toBe("No");
    expect(solveQuestion(tracked, "Is there a small green triangle in the canvas?").answer).toBe("Yes");
  });
  it("flags what the text does not settle", () => {
    const partialChain = "There are 4 shapes in a canvas. There is a small red square in the canvas. Above the small red square is a large blue circle.";
    expect(solveQuestion(partialChain, "How many circles are there?").status).toBe("ambiguous");
    expect(solveQuestion(partialChain, "Where is the small green triangle relative to the small red square?").status).toBe("ambiguous");
    const coords = "There are 2 shapes in a canvas. There is a large yellow circle at (0, 10) with radius 4. There is a small blue triangle at (2, 0) with side length 2.";
    // Edge rule says "Above" (x extents nested), centres say "Above Left".
    expect(solveQuestion(coords, "Where is the large yellow circle relative to the small blue triangle?")).toMatchObject({ status: "ambiguous", answer: "Above" });
  });
  it("answers prompts in the SEA-HELM template as the policy", () => {
    const desc = "There are 2 shapes in a canvas. There is a small red square in the canvas. A large blue circle is right of this small red square. There is a large blue circle in the canvas.";
    expect(solveSpatialPrompt(buildPromptText("coordinate", desc, "Where is the large blue circle relative to the small red square?"))).toBe("Answer: Right");
    expect(solveSpatialPrompt(`${desc}\nQuestion: Is there a circle?`)).toBe("Answer: Yes");
    expect(solveSpatialPrompt("What is the capital of France?")).toBeUndefined();
  });
});

describe("audit", () => {
  it("a fixed-mode dataset is clean except coordinate questions where edges and centres disagree", async () => {
    const dir = join(tmp, "fixed");
    await writeDataset(dir, { shapes: 5, count: 40, seed: 11, format: "seahelm" });
    const r = await auditDirectory(dir);
    expect(r.questions).toBe(40 * 14);
    const bad = r.issues.filter((i) => !(i.task === "coordinate" && i.descriptionType === "coordinates"));
    expect(bad).toEqual([]);
  });
  it("finds upstream's transitivity defects in compat data", async () => {
    const dir = join(tmp, "compat");
    await writeDataset(dir, { shapes: 7, count: 150, seed: 5, mode: "compat", tasks: ["transitivity"] });
    const r = await auditDirectory(dir);
    const t = r.counts["transitivity/transitivity"]!;
    expect(t.total).toBe(450);
    expect(t.notEntailed + t.ambiguous).toBeGreaterThan(0);
    expect(r.issues.every((i) => i.task === "transitivity")).toBe(true);
  });
  it("every SEA-HELM text row of a fixed dataset is answered correctly by the policy", async () => {
    const dir = join(tmp, "policy");
    await writeDataset(dir, { shapes: 3, count: 12, seed: 4, format: "seahelm", tasks: ["existence", "count", "transitivity", "existence_tracking", "shuffle_tracking"] });
    for (const file of ["spatial-existence.jsonl", "spatial-count.jsonl", "spatial-transitivity.jsonl", "spatial-existence-tracking.jsonl", "spatial-shuffle-tracking.jsonl"]) {
      for (const line of readFileSync(join(dir, file), "utf8").trim().split("\n")) {
        const row = JSON.parse(line);
        const prompt = buildPromptText(row.metadata.task, row.prompts[0].description, row.prompts[0].question);
        expect(solveSpatialPrompt(prompt)).toBe(`Answer: ${row.label}`);
      }
    }
  });
});
