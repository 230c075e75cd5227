import { describe, expect, it } from "vitest";
import { type RunsTaskScores, leaderboardBootstrap } from "./leaderboard-bootstrap.js";

// Three runs of a small SEA-HELM-shaped result set. The expected numbers were computed once with
// numpy 2.4.6 (default_rng(94370244), the notebook's steps re-stated in Python) and are kept here.
const CASE: RunsTaskScores[] = [
  { name: "sentiment", language: "id", competency: "nlu", runs: [[1, 0, 1, 1, 0, 1], [1, 1, 0, 1, 0, 0], [0, 1, 1, 1, 1, 1]], labels: ["Positive", "Negative", "Neutral", "Positive", "Negative", "Positive"] },
  { name: "sentiment", language: "vi", competency: "nlu", runs: [[1, 1, 0, 0, 1], [], [1, 0, 0, 1, 1]], labels: ["Positive", "Negative", "Positive", "Negative", "Neutral"] },
  { name: "translation-en-xx", language: "id", competency: "nlg", aggregationGroup: "translations", runs: [[0.5, 0.25, 0.75], [0.625, 0.5, 0.125], [0.875, 0.375, 0.25]], labels: ["a", "b", "c"] },
  { name: "translation-xx-en", language: "id", competency: "nlg", aggregationGroup: "translations", runs: [[0.5, 1, 0.25], [0.25, 0.75, 0.5], [1, 0.5, 0.75]], labels: ["d", "e", "f"] },
  { name: "abssum", language: "vi", competency: "nlg", runs: [[12.5, 40, 33], [20, 35.5, 30], [18, 42, 31]], labels: ["x", "y", "z"] },
  { name: "kalahi-mc", language: "tl", competency: "cultural", maxNRuns: 1, runs: [[0.9, 0.2, 0.6, 0.4], [], []], labels: ["A", "B", "A", "B"] },
];

type Level = { mean: number; stderr: number; mean_list: number[] };

function expectLevel(node: unknown, mean: number, stderr: number): void {
  const level = node as Level;
  expect(level.mean).toBeCloseTo(mean, 10);
  expect(level.stderr).toBeCloseTo(stderr, 10);
  expect(level.mean_list).toHaveLength(30);
}

describe("SEA-HELM leaderboard bootstrap over runs", () => {
  const { scores, incomplete } = leaderboardBootstrap(CASE);
  const at = (...path: string[]): unknown => path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], scores);

  it("scores each task from per-question picks of numpy's default_rng(94370244)", () => {
    expect((at("id", "nlu", "tasks", "sentiment") as Level).mean_list.slice(0, 6)).toEqual([25.0, 74.99999999999999, 74.99999999999999, 58.33333333333333, 8.333333333333327, 33.33333333333332]);
    expect((at("vi", "nlg", "tasks", "abssum") as Level).mean_list.slice(0, 3).map((x) => Number(x.toFixed(10)))).toEqual([30, 28.5, 27]);
    expectLevel(at("id", "nlu", "tasks", "sentiment"), 48.88888888888888, 4.790191482622308);
    expectLevel(at("vi", "nlu", "tasks", "sentiment"), 53.33333333333333, 3.1103584201689207);
    expectLevel(at("id", "nlg", "tasks", "translation-en-xx"), 49.44444444444444, 2.139877613939503);
    expectLevel(at("id", "nlg", "tasks", "translation-xx-en"), 59.166666666666664, 2.600164549267887);
    expectLevel(at("vi", "nlg", "tasks", "abssum"), 28.905555555555555, 0.2787358955114555);
  });

  it("samples a max_n_runs: 1 task as Bernoulli draws against its scores", () => {
    expectLevel(at("tl", "cultural", "tasks", "kalahi-mc"), 10.0, 3.713906763541037);
  });

  it("averages the bootstrap lists up group → competency → language → overall and over SEA languages", () => {
    expect(at("id", "nlg", "tasks", "translation-en-xx", "ignore")).toBe(true);
    expect(at("id", "nlg", "tasks", "translation-en-xx", "aggregation_group")).toBe("translations");
    expectLevel(at("id", "nlg", "aggregation_groups", "translations"), 54.30555555555556, 1.8443734695295038);
    expectLevel(at("id", "nlg"), 54.30555555555556, 1.8443734695295038);
    expectLevel(at("id", "nlu"), 48.88888888888888, 4.790191482622308);
    expectLevel(at("id"), 51.597222222222214, 2.6549095264140394);
    expectLevel(at("vi"), 41.11944444444444, 1.5768757370988904);
    expectLevel(at("tl"), 10.0, 3.713906763541037);
    expectLevel(scores, 34.23888888888889, 1.5578605949112514);
    expect(scores.sea_mean).toBeCloseTo(34.23888888888889, 10);
    expect(scores.sea_stderr).toBeCloseTo(1.5578605949112514, 10);
  });

  it("flags a task some run lacks", () => {
    expect(incomplete).toEqual(["sentiment/vi"]);
    expect(at("vi", "nlu", "tasks", "sentiment", "is_incomplete")).toBe(true);
    expect(scores.is_incomplete).toBe(true);
  });

  it("refuses runs that scored different rows", () => {
    const task: RunsTaskScores = { name: "nli", language: "th", competency: "nlr", runs: [[1, 0, 1], [1, 0]], labels: ["a", "b", "a"] };
    expect(() => leaderboardBootstrap([task])).toThrow(/task nli\/th: one run scored 3 questions and another 2; every run must score the same rows/);
  });

  it("one run repeated gives the plain score with no spread (checked by hand)", () => {
    // accuracy 3/4 on two classes: balanced accuracy (1 + 1/2) / 2 = 0.75, normalized (0.75 - 0.5) / 0.5 = 50
    const { scores: one } = leaderboardBootstrap([{ name: "nli", language: "th", competency: "nlr", runs: [[1, 1, 0, 1], [1, 1, 0, 1]], labels: ["yes", "no", "no", "yes"] }]);
    expect((one.th as Record<string, unknown>).mean).toBeCloseTo(50, 12);
    expect(one.stderr).toBe(0);
    expect(one.sea_mean).toBeCloseTo(50, 12);
  });
});
