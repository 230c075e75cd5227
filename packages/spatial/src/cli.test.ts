import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runSpatialCli } from "./run-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "spatial-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const FIXTURES = join(import.meta.dirname, "__fixtures__");

function sink() {
  let text = "";
  const stream = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk);
      cb();
    },
  });
  return { stream, text: () => text };
}

async function run(...argv: string[]) {
  const out = sink();
  const err = sink();
  const code = await runSpatialCli(argv, { stdout: out.stream, stderr: err.stream });
  return { code, stdout: out.text(), stderr: err.text() };
}

describe("yardstick spatial CLI", () => {
  it("generate writes byte-identical original files for the same seed", async () => {
    const a = join(tmp, "a");
    const b = join(tmp, "b");
    expect((await run("generate", "--shapes", "3", "--count", "5", "--seed", "9", "--out", a)).code).toBe(0);
    expect((await run("generate", "--shapes", "3", "--count", "5", "--seed", "9", "--out", b)).code).toBe(0);
    const files = readdirSync(a).filter((f) => f.startsWith("canvas_"));
    expect(files.sort()).toEqual(["canvas_3_0.json", "canvas_3_1.json", "canvas_3_2.json", "canvas_3_3.json", "canvas_3_4.json"]);
    for (const f of files) expect(readFileSync(join(a, f), "utf8")).toBe(readFileSync(join(b, f), "utf8"));
    const doc = JSON.parse(readFileSync(join(a, "canvas_3_0.json"), "utf8"));
    expect(Object.keys(doc)).toEqual(["canvas", "descriptions", "questions"]);
    expect(Object.keys(doc.questions)).toEqual(["existence", "count", "transitivity", "coordinate", "existence_tracking", "shuffle_tracking"]);
  });

  it("describe --mode fixed reproduces what generate wrote in fixed mode", async () => {
    const dir = join(tmp, "fixed-roundtrip");
    expect((await run("generate", "--shapes", "4", "--count", "3", "--seed", "5", "--out", dir, "--tasks", "existence,coordinate")).code).toBe(0);
    for (const f of readdirSync(dir).filter((n) => n.startsWith("canvas_"))) {
      const doc = JSON.parse(readFileSync(join(dir, f), "utf8"));
      const r = await run("describe", "--mode", "fixed", join(dir, f));
      expect(r.code).toBe(0);
      const d = JSON.parse(r.stdout);
      expect([d.full, d.partial, d.coordinates]).toEqual([doc.descriptions.full, doc.descriptions.partial, doc.descriptions.coordinates]);
      const pairs = new Set(d.coordinate.map((qa: string[]) => qa.join("|")));
      for (const qa of doc.questions.coordinate as string[][]) expect(pairs.has(qa.join("|")), qa[0]).toBe(true);
    }
  });

  it("generate --format seahelm --images writes rows, images and a loadable config.yaml", async () => {
    const dir = join(tmp, "sh");
    const r = await run("generate", "--shapes", "4", "--count", "3", "--seed", "1", "--out", dir, "--format", "seahelm", "--images");
    expect(r.code).toBe(0);
    const config = parse(readFileSync(join(dir, "config.yaml"), "utf8"));
    expect(Object.keys(config)).toContain("spatial-existence");
    expect(Object.keys(config)).toContain("spatial-existence-image");
    const task = config["spatial-count"];
    expect(task.competency).toBe("spatial");
    expect(task.aggregation_group).toBe("spatial");
    // Fixed-mode data: the lenient rules score the answer after the tag (see seahelm-config.ts).
    expect(task.yardstick.metrics).toEqual([{ id: "spatial-lenient", options: { useRawResponse: false } }, { id: "spatial-strict" }]);
    expect(task.languages.en.prompt_template.answer_tag).toBe("Answer:");
    const rows = readFileSync(join(dir, task.languages.en.filepath), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows).toHaveLength(9);
    expect(rows[0].metadata).toMatchObject({ task: "count", description_type: "full" });
    expect(new Set(rows.map((x) => x.id)).size).toBe(9);
    const img = JSON.parse(readFileSync(join(dir, "spatial-count-image.jsonl"), "utf8").split("\n")[0]!);
    expect(img.image).toBe("images/canvas_4_0.png");
    expect(readFileSync(join(dir, img.image)).subarray(1, 4).toString()).toBe("PNG");
    expect(readFileSync(join(dir, "images/canvas_4_0.svg"), "utf8")).toMatch(/^<svg /);
  });

  it("generate --format ultraeval writes UltraEval rows", async () => {
    const dir = join(tmp, "ue");
    expect((await run("generate", "--shapes", "3", "--count", "2", "--seed", "1", "--out", dir, "--format", "ultraeval", "--tasks", "existence")).code).toBe(0);
    const row = JSON.parse(readFileSync(join(dir, "spatial-existence.jsonl"), "utf8").split("\n")[0]!);
    expect(Object.keys(row).slice(0, 5)).toEqual(["id", "passage", "question", "target_scores", "answer"]);
    expect(row.target_scores).toEqual({});
  });

  it("describe reproduces the original descriptions and coordinate answers", async () => {
    const files = ["canvas_3_0.json", "canvas_7_999.json"].map((f) => join(FIXTURES, f));
    const r = await run("describe", ...files);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    for (const [k, line] of lines.entries()) {
      const original = JSON.parse(readFileSync(files[k]!, "utf8"));
      expect(line.file).toBe(files[k]);
      expect(line.full).toBe(original.descriptions.full);
      expect(line.partial).toBe(original.descriptions.partial);
      expect(line.coordinates).toBe(original.descriptions.coordinates);
      expect(line.coordinate).toHaveLength((original.canvas.length * (original.canvas.length - 1)) / 2);
    }
  });

  it("audit prints counts per task and description type", async () => {
    const r = await run("audit", join(tmp, "a"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^audit of .*: 210 questions/);
    expect(r.stdout).toContain("transitivity/transitivity");
  });

  it("bad input: clear message, non-zero exit, no stack trace", async () => {
    const cases: [string[], number, RegExp][] = [
      [["generate", "--shapes", "0", "--count", "1", "--out", join(tmp, "x")], 2, /--shapes must be at least 1/],
      [["generate", "--shapes", "3", "--count", "1", "--out", join(tmp, "x"), "--tasks", "existence,bogus"], 2, /unknown task "bogus"/],
      [["generate", "--shapes", "3", "--count", "1", "--out", join(tmp, "x"), "--format", "csv"], 2, /--format must be one of/],
      [["generate", "--shapes", "3", "--count", "1", "--out", join(tmp, "x"), "--frobnicate"], 2, /frobnicate/],
      [["generate", "--shapes", "30", "--count", "1", "--out", join(tmp, "x30")], 2, /--shapes must be at most 24 \(the distinct kind\/colour\/size combinations\), got 30/],
      [["generate", "--shapes", "24", "--count", "2", "--out", join(tmp, "x"), "--tasks", "existence"], 1, /no question has the answer "No"/],
      [["describe", join(tmp, "missing.json")], 1, /cannot read/],
      [["audit", join(tmp, "nowhere")], 1, /cannot read directory/],
      [["frob"], 2, /unknown command "frob"/],
      [["generate", "--shapes", "2", "--count", "1", "--out", join(tmp, "x"), "--tasks", "transitivity"], 2, /task transitivity needs at least 3 shapes, got --shapes 2/],
      [
        ["generate", "--shapes", "2", "--count", "1", "--out", join(tmp, "x"), "--tasks", "shuffle_tracking", "--mode", "compat"],
        2,
        /task shuffle_tracking needs at least 3 shapes in compat mode/,
      ],
    ];
    const bad = join(tmp, "bad.json");
    writeFileSync(bad, JSON.stringify({ canvas: [{ shape: "Hexagon", color: "Red", size: "Small", center: [0, 0] }] }));
    cases.push([["describe", bad], 1, /bad\.json: malformed canvas file at canvas\[0\]\.shape/]);
    const notJson = join(tmp, "bad2.json");
    writeFileSync(notJson, "{");
    cases.push([["describe", notJson], 1, /bad2\.json: not valid JSON/]);
    for (const [argv, code, message] of cases) {
      const r = await run(...argv);
      expect(r.code, argv.join(" ")).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    // Refused before the output folder was made.
    expect(existsSync(join(tmp, "x30"))).toBe(false);
  });
});

describe("worker threads", () => {
  const dist = join(import.meta.dirname, "..", "dist");
  const built = existsSync(join(dist, "cli.js")) && existsSync(join(dist, "write-worker.js"));
  it.skipIf(!built)("the built CLI writes the same bytes with 1 and 3 workers", () => {
    const outs = [1, 3].map((w) => {
      const out = join(tmp, `workers-${w}`);
      execFileSync(process.execPath, [join(dist, "cli.js"), "generate", "--shapes", "3", "--count", "600", "--seed", "w", "--out", out, "--format", "seahelm", "--workers", String(w)]);
      return out;
    });
    for (const f of readdirSync(outs[0]!)) expect(readFileSync(join(outs[1]!, f), "utf8"), f).toBe(readFileSync(join(outs[0]!, f), "utf8"));
    expect(readFileSync(join(outs[0]!, "spatial-count.jsonl"), "utf8").trim().split("\n")).toHaveLength(1800);
  });

  it.skipIf(!built || !existsSync(join(dist, "file-writer-worker.js")))(
    "original layout: the writer thread (1 worker, 500+ canvases) and 2 workers writing their own files write the same files as inline writes",
    () => {
      // Fixed-mode canvas i does not depend on the count: 600 canvases use threads, 100 do not.
      const outs = [
        ["100", "1"],
        ["600", "1"],
        ["600", "2"],
        // Main thread and two workers: the workers take two chunks each before the main thread's first.
        ["1100", "3"],
      ].map(([count, workers]) => {
        const out = join(tmp, `writer-${count}-${workers}`);
        execFileSync(process.execPath, [join(dist, "cli.js"), "generate", "--shapes", "4", "--count", count!, "--seed", "fw", "--out", out, "--workers", workers!]);
        return out;
      });
      expect(readdirSync(outs[1]!).filter((f) => f.startsWith("canvas_"))).toHaveLength(600);
      expect(readdirSync(outs[3]!).filter((f) => f.startsWith("canvas_"))).toHaveLength(1100);
      for (let i = 0; i < 600; i++) {
        const f = `canvas_4_${i}.json`;
        const twoWorkers = readFileSync(join(outs[2]!, f), "utf8");
        expect(twoWorkers, f).toBe(readFileSync(join(outs[1]!, f), "utf8"));
        expect(readFileSync(join(outs[3]!, f), "utf8"), f).toBe(twoWorkers);
        if (i < 100) expect(twoWorkers, f).toBe(readFileSync(join(outs[0]!, f), "utf8"));
      }
    },
  );

  it.skipIf(!built)("rows with images: the main thread's chunks and a worker's come out in canvas order, as inline", () => {
    // 600 canvases are three chunks: the worker takes the first two, the main thread the third.
    const outs = [1, 2].map((w) => {
      const out = join(tmp, `images-${w}`);
      execFileSync(process.execPath, [join(dist, "cli.js"), "generate", "--shapes", "3", "--count", "600", "--seed", "im", "--out", out, "--format", "seahelm", "--images", "--workers", String(w)]);
      return out;
    });
    const files = readdirSync(outs[0]!).filter((f) => f.endsWith(".jsonl") || f.endsWith(".yaml"));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect(readFileSync(join(outs[1]!, f), "utf8"), f).toBe(readFileSync(join(outs[0]!, f), "utf8"));
    for (const i of [0, 249, 250, 499, 500, 599]) {
      for (const ext of ["png", "svg"]) {
        const f = join("images", `canvas_3_${i}.${ext}`);
        expect(readFileSync(join(outs[1]!, f)).equals(readFileSync(join(outs[0]!, f))), f).toBe(true);
      }
    }
  });
});

describe("describe on an impossible canvas", () => {
  it("names the file when two shapes overlap so that no relation exists", async () => {
    const file = join(tmp, "overlap.json");
    writeFileSync(
      file,
      JSON.stringify({
        canvas: [
          { shape: "Square", color: "Red", size: "Small", center: [0, 0] },
          { shape: "Square", color: "Blue", size: "Small", center: [0, 0] },
        ],
      }),
    );
    const r = await run("describe", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/overlap\.json: cannot describe the canvas: shape 1 has no relation/);
  });
});

describe("--few-shot", () => {
  it("appends upstream-style few-shot pairs to each description and marks the ids", async () => {
    const dir = join(tmp, "fs");
    expect((await run("generate", "--shapes", "3", "--count", "2", "--seed", "1", "--out", dir, "--format", "seahelm", "--tasks", "count", "--few-shot")).code).toBe(0);
    const row = JSON.parse(readFileSync(join(dir, "spatial-count.jsonl"), "utf8").split("\n")[0]!);
    expect(row.id).toMatch(/-count-full-fewshot-0$/);
    const [q1, a1] = row.metadata.fewshot[0];
    expect(row.prompts[0].description).toContain(`\nQuestion: ${q1}\nAnswer: ${a1}`);
  });
});

describe("fixes from review", () => {
  it("fixed mode asks existence tracking with 12+ shapes instead of failing when every combination is on the canvas", async () => {
    for (const shapes of ["12", "16", "20"]) {
      const r = await run("generate", "--shapes", shapes, "--count", "60", "--seed", "z", "--tasks", "existence_tracking", "--out", join(tmp, `et-${shapes}`));
      expect(r.code, r.stderr).toBe(0);
    }
  });

  it("a compat dataset's ids depend on its count (its balancing does); fixed ids do not", async () => {
    const ids = async (mode: string, count: string) => {
      const dir = join(tmp, `ids-${mode}-${count}`);
      expect((await run("generate", "--shapes", "3", "--count", count, "--seed", "s", "--mode", mode, "--format", "seahelm", "--tasks", "existence", "--out", dir)).code).toBe(0);
      return readFileSync(join(dir, "spatial-existence.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; prompts: unknown });
    };
    const c10 = await ids("compat", "10");
    const c20 = await ids("compat", "20");
    const c20ids = new Set(c20.map((r) => r.id));
    expect(c10.some((r) => c20ids.has(r.id))).toBe(false);
    const f10 = await ids("fixed", "10");
    const f20 = await ids("fixed", "20");
    for (const r of f10) expect(f20.find((q) => q.id === r.id)?.prompts).toEqual(r.prompts);
  });

  it("compat configs score as upstream (over-1 sums kept); fixed configs score the answer after the tag", async () => {
    for (const mode of ["compat", "fixed"]) {
      const dir = join(tmp, `cfg-${mode}`);
      expect((await run("generate", "--shapes", "3", "--count", "4", "--seed", "c", "--mode", mode, "--format", "seahelm", "--out", dir)).code).toBe(0);
      const config = readFileSync(join(dir, "config.yaml"), "utf8");
      expect(config).toContain(mode === "compat" ? "compat: true" : "useRawResponse: false");
    }
  });
});
