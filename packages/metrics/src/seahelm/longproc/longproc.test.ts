/**
 * The LongProc metrics on rows in SEA-HELM's data format (__fixtures__/longproc, written by hand)
 * with responses of the shapes models give; every expected score is worked out in the comments.
 */
import { readFileSync } from "node:fs";
import type { MetricInput } from "@yardstick/core";
import { describe, expect, it } from "vitest";
import { input } from "../__fixtures__/inputs.js";
import { COUNTDOWN_ID, countdownSolutionIsCorrect, createSeahelmCountdownMetric } from "./countdown.js";
import { createSeahelmHtmlToTsvMetric, readTsvTable, scoreTsv } from "./html-to-tsv.js";
import { createSeahelmPathTraversalMetric } from "./path-traversal.js";
import { readPythonCsv } from "./python-csv.js";
import { beliefLines, createSeahelmTomTrackingMetric } from "./tom-tracking.js";
import { createSeahelmTravelPlanningMetric, parseTravelPlan } from "./travel-planning.js";

type Row = { label: unknown; prompts: Record<string, unknown>[]; metadata: Record<string, unknown> };
const rows = (name: string): Row[] =>
  readFileSync(new URL(`../__fixtures__/longproc/${name}_en.jsonl`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Row);
/** A scored sample: the raw response is what the metric parses (upstream sets no answer tag). */
/** Element-wise closeness (the hand-computed fractions differ from the metric's in the last bit). */
const expectClose = (actual: readonly (number | undefined)[], expected: readonly number[]) => {
  expect(actual).toHaveLength(expected.length);
  for (const [i, e] of expected.entries()) expect(actual[i]).toBeCloseTo(e, 10);
};
const answer = (id: string, row: Row, response: string): MetricInput => input(id, response.trim(), row.label, { rawResponse: response });

describe("seahelm-countdown", () => {
  const [row] = rows("countdown");
  const gold = (row!.label as { search_procedure: string }).search_procedure;
  const procedure = gold.split("</Search Procedure>")[0]!;

  it("checks the three solution steps: arithmetic, numbers used once, the target reached", () => {
    const nums = [6n, 4n, 3n, 2n];
    expect(countdownSolutionIsCorrect(nums, 14n, "6 + 4 = 10\n10 - 3 = 7\n7 * 2 = 14")).toBe(true);
    expect(countdownSolutionIsCorrect(nums, 14n, "6 + 4 = 11\n11 - 3 = 8\n8 - 2 = 6")).toBe(false); // 6 + 4 is not 11
    expect(countdownSolutionIsCorrect(nums, 14n, "6 + 6 = 12\n12 + 4 = 16\n16 - 2 = 14")).toBe(false); // 6 used twice
    expect(countdownSolutionIsCorrect(nums, 14n, "6 + 4 = 10\n10 - 3 = 7")).toBe(false); // two lines
    expect(countdownSolutionIsCorrect([8n, 2n, 3n, 1n], 13n, "8 / 2 = 4\n4 * 3 = 12\n12 + 1 = 13")).toBe(true);
    expect(countdownSolutionIsCorrect([7n, 2n, 3n, 1n], 11n, "7 / 2 = 3\n3 * 3 = 9\n9 + 2 = 11")).toBe(false); // 7/2 is 3.5
    // Upstream raises (ZeroDivisionError, NameError) on these and stops; here they are wrong steps.
    expect(countdownSolutionIsCorrect([5n, 0n, 3n, 1n], 4n, "5 / 0 = 0\n0 + 3 = 3\n3 + 1 = 4")).toBe(false);
    expect(countdownSolutionIsCorrect(nums, 14n, "x + 4 = 10\n10 - 3 = 7\n7 * 2 = 14")).toBe(false);
    // Python's eval refuses a leading zero; int() accepts "014" on the right-hand side.
    expect(countdownSolutionIsCorrect(nums, 14n, "06 + 4 = 10\n10 - 3 = 7\n7 * 2 = 14")).toBe(false);
    expect(countdownSolutionIsCorrect(nums, 14n, " 6 + 4 = 10 \n10 - 3 = 7\n7 * 2 =  014")).toBe(true);
  });

  it("scores accuracy, partial accuracy of the search procedure and extraction rate", async () => {
    const wrongSolution = "<Solution>\n6 + 4 = 10\n10 + 3 = 13\n13 + 2 = 15\n</Solution>";
    const lines = procedure.split("\n");
    // Step 5 (index 4 after the initial line) keeps the branch the reference drops.
    const diverging = [...lines.slice(0, 6), lines[6]!.replace("drop this branch.", "keep going."), ...lines.slice(7)].join("\n");
    const samples = [
      answer("right", row!, `Let me search.\n${gold}`), // accuracy 1, partial 1
      answer("procedure-ok", row!, `${procedure}</Search Procedure>\n${wrongSolution}`), // all 12 steps match: idx 11 -> 11/12
      answer("diverges", row!, `${diverging}\n</Search Procedure>\nI could not finish.`), // no <Solution>; stops at step index 4 -> 4/12
      answer("other-start", row!, "<Search Procedure>\nInitial number set: [6, 4, 3], target: 14.\n</Search Procedure>"), // first line differs -> 0
    ];
    const r = await createSeahelmCountdownMetric().compute(samples, {});
    expect(r.scores.accuracy).toBe(25);
    expect(r.scores.normalized_accuracy).toBe(25);
    expect(r.scores.extraction_rate).toBe(50);
    expect(r.scores.partial_accuracy).toBeCloseTo((100 * (1 + 11 / 12 + 4 / 12 + 0)) / 4, 10);
    expectClose(r.perSample.map((s) => s.scores.partial_accuracy), [100, (100 * 11) / 12, (100 * 4) / 12, 0]);
    expect(r.perSample.map((s) => s.scores.normalized_accuracy)).toEqual([100, 0, 0, 0]);
    expect((r.details!.errorReports as Record<string, string>)["diverges"]).toMatch(/^line 5 \| gt: .*Try 13 \+ 2 = 15/);
  });

  it("compares procedures of different lengths over the shorter one (upstream's strict zip raises)", async () => {
    const lines = procedure.split("\n");
    const r = await createSeahelmCountdownMetric().compute([answer("short", row!, lines.slice(0, 5).join("\n"))], {});
    // Steps 1-3 match; the loop ends on the third (index 2): 2/12.
    expect(r.scores.partial_accuracy).toBeCloseTo((100 * 2) / 12, 10);
  });

  it("scores the postprocessed prediction when useRawResponse is false, and names a bad label", async () => {
    const m = createSeahelmCountdownMetric();
    const r = await m.compute([{ ...answer("p", row!, "nothing"), prediction: gold }], { useRawResponse: false });
    expect(r.scores.accuracy).toBe(100);
    await expect(async () => m.compute([input("bad", "x", { nums: "6,4", target: 14 })], {})).rejects.toThrow(
      new RegExp(`metric ${COUNTDOWN_ID}.*reference.nums must be a list of integers`),
    );
  });
});

describe("seahelm-path-traversal", () => {
  const [row] = rows("path_traversal");
  const route = row!.label as string;
  const lines = route.split("\n");
  const samples = () => [
    answer("exact", row!, `Following the connections:\n<Route>\n${route}\n</Route>`), // 1
    answer("third-wrong", row!, `<Route>\n${lines[0]}\n${lines[1]}\nFrom Corwen, take a bus to Dunmore.\n${lines[3]}\n</Route>`), // 2 of 4 match
    answer("untagged", row!, route), // no <Route>: 0, not extracted
    answer("prefix", row!, `<Route>\n${lines.slice(0, 3).join("\n")}\n</Route>`), // 3 of 4
  ];

  it("counts the matching lines from the top; upstreamPartialCount also counts the first wrong one", async () => {
    const m = createSeahelmPathTraversalMetric();
    const r = await m.compute(samples(), {});
    expect(r.scores).toEqual({ accuracy: 25, partial_accuracy: (100 * (1 + 0.5 + 0 + 0.75)) / 4, extraction_rate: 75, normalized_accuracy: 25 });
    const upstream = await m.compute(samples(), { upstreamPartialCount: true });
    // The wrong third line counts: 3/4 instead of 2/4.
    expect(upstream.scores.partial_accuracy).toBe((100 * (1 + 0.75 + 0 + 0.75)) / 4);
    expect((r.details!.errorReports as Record<string, string>)["untagged"]).toBe("Parsing error");
  });
});

describe("seahelm-tom-tracking", () => {
  const [row] = rows("tom_tracking");
  const label = row!.label as string;
  const bullets = label.split("\n").filter((l) => l.startsWith("-"));

  it("normalises the belief bullets (case, punctuation, filler words)", () => {
    expect(beliefLines("- Step 0: (initial state) {Kai location: the hall; Kai's belief on key: None}\n  - indented is not a bullet\n-\nFinal")).toEqual([
      // lowercased, punctuation gone (kai's -> kais), step/location/the/belief/on dropped
      "0 initial state kai hall kais key none",
    ]);
  });

  it("scores the tracked steps up to the first difference, and a prefix by its length", async () => {
    const rewritten = bullets[0]!.replace("Kai location: hall", "KAI is at the Hall").replace("(initial state)", "(Initial State.)");
    const samples = [
      answer("same", row!, `Kai's belief on the key:\n${[rewritten, bullets[1], bullets[2]].join("\n")}\nFinal Answer: hall's desk`), // equal after normalisation
      answer("second-wrong", row!, [bullets[0], bullets[1]!.replace("Kai sees key: False", "Kai sees key: True"), bullets[2]].join("\n")), // 1/3
      answer("prefix", row!, [bullets[0], bullets[1]].join("\n")), // 2/3 (upstream's strict zip raises here)
    ];
    const r = await createSeahelmTomTrackingMetric().compute(samples, {});
    expect(r.scores.accuracy).toBeCloseTo(100 / 3, 10);
    expect(r.scores.normalized_accuracy).toBeCloseTo(100 / 3, 10);
    expect(r.scores.partial_accuracy).toBeCloseTo((100 * (1 + 1 / 3 + 2 / 3)) / 3, 10);
    expect(r.scores.extraction_rate).toBeUndefined();
  });
});

describe("seahelm-travel-planning", () => {
  const [row] = rows("travel_planning");
  const gold = (row!.label as { solving_procedure: string }).solving_procedure;

  it("parses the plan into stays from the flights and the last day range", () => {
    const plan = gold.split("<Plan>")[1]!.split("</Plan>")[0]!;
    expect(parseTravelPlan(plan)).toEqual([
      ["Oslo", 4],
      ["Riga", 5],
      ["Bern", 6],
    ]);
    expect(parseTravelPlan("**Day 1-13:** Visit Oslo.")).toEqual([]); // no flight
  });

  it("scores the plan, and the solving procedure line by line when the plan is wrong", async () => {
    const wrongPlan = gold
      .replace("**Day 4-8:** Visit Riga for 5 days.", "**Day 4-7:** Visit Riga for 4 days.")
      .replace("**Day 8:** Fly from Riga to Bern.", "**Day 7:** Fly from Riga to Bern.")
      .replace("**Day 8-13:** Visit Bern for 6 days.", "**Day 7-13:** Visit Bern for 7 days.");
    const goldLines = gold.split("\n");
    const samples = [
      answer("right", row!, gold), // 1
      // 18 reference lines (blank and "Output the plan..." lines dropped); the first difference is
      // the Riga stay, line index 14: 14/18.
      answer("wrong-plan", row!, wrongPlan),
      // No plan; the fourth line differs: 3/18.
      answer("wrong-duration", row!, `Let me plan.\n${goldLines.slice(0, 3).join("\n")}\n* City: Riga, Duration: 3 days.`),
      answer("empty", row!, ""), // empty_output: 0
      // The first six reference lines, all right, then nothing: the loop ends on index 5: 5/18.
      answer("prefix", row!, goldLines.slice(0, 6).join("\n")),
    ];
    const r = await createSeahelmTravelPlanningMetric().compute(samples, {});
    expect(r.scores.accuracy).toBe(20);
    expect(r.scores.extraction_rate).toBe(40);
    expectClose(r.perSample.map((s) => s.scores.partial_accuracy), [100, (100 * 14) / 18, (100 * 3) / 18, 0, (100 * 5) / 18]);
    expect(r.scores.partial_accuracy).toBeCloseTo((100 * (1 + 14 / 18 + 3 / 18 + 0 + 5 / 18)) / 5, 10);
  });
});

describe("seahelm-html-to-tsv", () => {
  const [row] = rows("html_to_tsv");

  it("reads TSV as Python's csv module does", () => {
    expect(readPythonCsv(['a\t"b\tc"\td'], "\t")).toEqual([["a", "b\tc", "d"]]);
    expect(readPythonCsv(['"x""y"'], "\t")).toEqual([['x"y']]);
    expect(readPythonCsv(['"a', 'b"\tc'], "\t")).toEqual([["ab", "c"]]);
    expect(readPythonCsv(["a", "", "b"], "\t")).toEqual([["a"], [], ["b"]]);
    expect(readPythonCsv(['"a"b\tc', '"open'], "\t")).toEqual([
      ["ab", "c"],
      ["open"],
    ]);
    expect(() => readPythonCsv(["a\rb"], "\t")).toThrow(/new-line character/);
    expect(readTsvTable("A\tA\n1\t2")).toBeNull(); // a column named twice: upstream fails
  });

  it("scores row precision, recall and F1 with upstream's cell normalisation", async () => {
    const samples = [
      // Both rows normalise to reference rows (articles, case, punctuation); Hill House missing:
      // precision 1, recall 2/3, F1 0.8.
      answer("two-of-three", row!, "Here is the table:\n```tsv\nName\tYear\tCity\nOak Room\t1998\tnew york\nBlue Café\t2004\tParis.\n```"),
      answer("narrow", row!, "```tsv\nName\tYear\nOak Room\t1998\n```"), // 2 columns against 3: ValueError, 0
      answer("no-block", row!, "Name\tYear\tCity\nHill House\t2010\tOslo"), // AttributeError, 0
      // A short row becomes N/A, the trailing sentence (wrong width, last) is dropped, 1999 is wrong:
      // precision 1/3, recall 1/3, F1 1/3.
      answer("noisy", row!, "```tsv\nName\tYear\tCity\nHill House\t2010\tOslo\nBroken row\nThe Oak Room\t1999\tNew York\nThe above is my table\n```"),
    ];
    const r = await createSeahelmHtmlToTsvMetric().compute(samples, {});
    expect(r.scores.precision).toBeCloseTo((100 * (1 + 1 / 3)) / 4, 10);
    expect(r.scores.recall).toBeCloseTo((100 * (2 / 3 + 1 / 3)) / 4, 10);
    expect(r.scores.f1).toBeCloseTo((100 * (0.8 + 1 / 3)) / 4, 10);
    expect(r.scores.normalized_f1).toBeCloseTo((100 * (0.8 + 1 / 3)) / 4, 10);
    expect(r.details!.parsingErrors).toEqual({ ValueError: 1, AttributeError: 1 });
    expect(scoreTsv("A\tB", "A\tB\n1\t2")).toMatchObject({ f1: 0, error: "AttributeError" }); // header only
  });
});
