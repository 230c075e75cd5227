import { describe, expect, it } from "vitest";
import { checklistStats } from "./checklist.js";
import { generateDataset } from "./generate.js";

/**
 * Spec §12: compat-mode generation must match the statistics of the 2,000 shipped upstream files
 * (N=1,000 per shape count). Tolerances are a few binomial standard deviations.
 */
const runs = { 3: checklistStats([...generateDataset({ shapes: 3, count: 1000, seed: "checklist", mode: "compat" })]), 7: checklistStats([...generateDataset({ shapes: 7, count: 1000, seed: "checklist", mode: "compat" })]) };
const frac = (o: Record<string, number>, k: string) => (o[k] ?? 0) / Object.values(o).reduce((a, b) => a + b, 0);

describe.each([3, 7] as const)("statistical equivalence, n=%i", (n) => {
  const s = runs[n];
  it("centre ranges per type and size", () => {
    expect(s.centreRanges["Small Circle"]).toEqual([-31, 31, -31, 31]);
    expect(s.centreRanges["Small Square"]).toEqual([-31, 31, -31, 31]);
    expect(s.centreRanges["Large Circle"]).toEqual([-28, 28, -28, 28]);
    expect(s.centreRanges["Large Square"]).toEqual([-30, 30, -30, 30]);
    expect(s.centreRanges["Small Triangle"]).toEqual([-31, 31, -31, 30]);
    expect(s.centreRanges["Large Triangle"]).toEqual([-30, 30, -30, 29]);
  });
  it("single-axis pairs about 7.3%", () => {
    expect(s.singleAxisPairFraction).toBeGreaterThan(0.06);
    expect(s.singleAxisPairFraction).toBeLessThan(0.086);
  });
  it("balancing blocks", () => {
    expect(s.existenceFirstYes).toEqual({ firstHalf: 500, secondHalf: 0 });
    expect(s.countFirstZero).toEqual({ firstQuarter: 250, rest: 0 });
  });
  it("existence Yes share over all questions (35.5% / 53.1%)", () => {
    expect(Math.abs(s.existenceYesAll - (n === 3 ? 0.355 : 0.531))).toBeLessThan(0.03);
  });
  it("count first-answer distribution", () => {
    const target = n === 3 ? { 1: 600, 2: 136, 3: 14 } : { 1: 462, 2: 185, 3: 71, 4: 26 };
    for (const [k, v] of Object.entries(target)) expect(Math.abs((s.countFirstNonZero[k] ?? 0) - v)).toBeLessThan(45);
  });
  it("coordinate first answers about 93% diagonal, the rest single words with upstream's trailing space", () => {
    expect(Math.abs(s.coordinateDiagonalFraction - 0.93)).toBeLessThan(0.025);
    for (const k of Object.keys(s.coordinateFirst)) expect(["Above Left", "Above Right", "Below Left", "Below Right", "Above ", "Below ", "Left", "Right"]).toContain(k);
  });
  it("existence-tracking add/remove histogram", () => {
    const target: Record<string, number> = n === 3 ? { "2,1": 0.46, "3,0": 0.29, "1,2": 0.25 } : { "5,2": 0.3, "4,3": 0.26, "6,1": 0.22, "3,4": 0.13, "7,0": 0.05, "2,5": 0.035 };
    for (const [k, v] of Object.entries(target)) expect(Math.abs(frac(s.trackingOps, k) - v)).toBeLessThan(0.045);
  });
  it("shuffle direction about 25% each, transitivity axis about 50/50", () => {
    for (const k of ["left to right", "right to left", "top to bottom", "bottom to top"]) expect(Math.abs(frac(s.shuffleDirection, k) - 0.25)).toBeLessThan(0.045);
    expect(Math.abs(frac(s.transitivityAxis, "horizontal") - 0.5)).toBeLessThan(0.05);
  });
  it("transitivity defaulted answers (2.1% / 4.7%) and 2-item lists (2.6% at n=3)", () => {
    expect(s.transitivityDefaultedFraction).toBeGreaterThan(0.005);
    expect(s.transitivityDefaultedFraction).toBeLessThan(0.06);
    if (n === 3) expect(Math.abs(s.transitivityTwoItemFraction - 0.026)).toBeLessThan(0.015);
  });
  it("duplicate existence-tracking few-shot questions (7.7% / 2.3%)", () => {
    expect(Math.abs(s.trackingDuplicateFraction - (n === 3 ? 0.077 : 0.023))).toBeLessThan(n === 3 ? 0.025 : 0.015);
  });
});

describe("fixed mode removes the upstream defects the checklist measures", () => {
  it("no defaulted transitivity answers, no duplicate few-shot questions, interleaved balance", () => {
    const s = checklistStats([...generateDataset({ shapes: 7, count: 400, seed: "checklist" })]);
    expect(s.transitivityDefaultedFraction).toBe(0);
    expect(s.trackingDuplicateFraction).toBe(0);
    expect(s.existenceFirstYes).toEqual({ firstHalf: 100, secondHalf: 100 });
  });
});
