/**
 * SEA-HELM TravelPlanningMetric (LongProc Travel Planning, from Natural Plan's trip planning): the
 * `<Plan>` block is parsed into (city, days) stays (flights "Day N ... from A to B" and the last
 * "X-Y" day range) and must visit the reference cities for the reference durations, in order.
 * Partial accuracy compares the solving procedure with the reference one, line by normalised line
 * (a reference line must occur within the response's line), up to the first mismatch.
 *
 * Upstream compares the procedures with `zip(strict=True)`, which raises when the response has
 * fewer or more lines and all compared lines match; here the shorter one bounds the comparison.
 * Cities are single words, as upstream's `\w+` reads them.
 */
import type { MetricV1 } from "@yardstick/core";
import { MetricError, pyRStrip, pyStrip } from "@yardstick/core";
import { z } from "zod";
import { squadNormalize } from "../../text/squad-normalize.js";
import { accuracyMetric, afterFirst, labelString, longprocBaseOptions, taggedBlock } from "./common.js";

export const TRAVEL_PLANNING_ID = "seahelm-travel-planning";

export const seahelmTravelPlanningOptionsSchema = z.strictObject({ ...longprocBaseOptions });

const VISIT = /\d+-\d+/;
// `.` of Python stops only at "\n"; `\w` is Unicode-aware.
const FLIGHT = /^[^\n]*Day (\d+)[^\n]*from ([\p{L}\p{N}_]+) to ([\p{L}\p{N}_]+)/u;
const TOTAL_DAYS = /European cities for (\d+) days/;

/** The plan as (city, days) stays; empty when it has no day range or no flight. */
export function parseTravelPlan(plan: string): [string, number][] {
  const ranges: string[] = [];
  const flights: [number, string, string][] = [];
  let totalDays: number | undefined;
  for (const line of plan.split("\n")) {
    const total = TOTAL_DAYS.exec(line);
    if (total) totalDays = Number(total[1]);
    const visit = VISIT.exec(line);
    if (visit) {
      ranges.push(visit[0]);
      // The end of the trip: later lines would be an alternative plan.
      if (Number(visit[0].split("-")[1]) === totalDays) break;
    }
    const flight = FLIGHT.exec(line);
    if (flight) flights.push([Number(flight[1]), flight[2]!, flight[3]!]);
  }
  if (ranges.length === 0 || flights.length === 0) return [];
  const cities = [flights[0]![1], ...flights.map((f) => f[2])];
  const lastDay = Number(ranges[ranges.length - 1]!.split("-")[1]);
  const bounds = [1, ...flights.map((f) => f[0]), lastDay];
  return cities.map((city, i) => [city, bounds[i + 1]! - bounds[i]! + 1]);
}

/** 1 when the parsed plan starts with the reference stays (cities "A**B", durations "3**5"). */
export function travelPlanIsCorrect(cities: string, durations: string, plan: string): boolean {
  const stays = cities.split("**").filter((c) => c !== "");
  const days = durations
    .split("**")
    .filter((d) => d !== "")
    .map((d) => Number.parseInt(d, 10));
  if (stays.length === 0) return false;
  const parsed = parseTravelPlan(plan);
  const n = Math.min(stays.length, parsed.length);
  let matched = 0;
  for (let i = 0; i < n && stays[i] === parsed[i]![0] && days[i] === parsed[i]![1]; i++) matched++;
  return matched === stays.length;
}

const OPEN = "<Solving Procedure>";
const OUTPUT_LINE = "Output the plan in the required format:";

export function travelProcedureScore(response: string, reference: string): { partial: number; error?: string } {
  const gtText = reference.replaceAll(OUTPUT_LINE, "");
  if (!gtText.includes(OPEN)) throw new Error(`reference.solving_procedure has no ${OPEN} block`);
  let output = response.replaceAll(OUTPUT_LINE, "");
  if (output.includes(OPEN)) output = OPEN + afterFirst(output, OPEN);
  const lines = (text: string) =>
    pyStrip(text)
      .split("\n")
      .filter((l) => pyStrip(l) !== "")
      .map((l) => pyRStrip(l));
  const pred = lines(output);
  const gold = lines(OPEN + afterFirst(gtText, OPEN));
  const n = Math.min(pred.length, gold.length);
  if (n === 0) return { partial: 0, error: "empty_output" };
  let idx = n - 1;
  let error: string | undefined;
  for (let i = 0; i < n; i++) {
    if (!squadNormalize(pred[i]!).includes(squadNormalize(gold[i]!))) {
      idx = i;
      error = `line: ${i} | gt: ${gold[i]} | pr: ${pred[i]}`;
      break;
    }
  }
  // As upstream: the index of the stopping line (the last one when all match) over the reference lines.
  return { partial: idx / gold.length, ...(error ? { error } : {}) };
}

export function createSeahelmTravelPlanningMetric(): MetricV1 {
  return accuracyMetric({
    id: TRAVEL_PLANNING_ID,
    description: "SEA-HELM LongProc Travel Planning: the <Plan> visits the reference cities for the reference days (accuracy; procedure partial accuracy)",
    textPairs: false,
    schema: seahelmTravelPlanningOptionsSchema,
    score(input, response) {
      const cities = labelString(TRAVEL_PLANNING_ID, input, "ground_truth_cities");
      const durations = labelString(TRAVEL_PLANNING_ID, input, "ground_truth_durations");
      const procedure = labelString(TRAVEL_PLANNING_ID, input, "solving_procedure");
      const plan = taggedBlock(response, "<Plan>", "</Plan>");
      if (plan !== null && travelPlanIsCorrect(cities, durations, plan)) return { accuracy: 1, partial: 1, extracted: 1 };
      try {
        return { accuracy: 0, extracted: plan === null ? 0 : 1, ...travelProcedureScore(response, procedure) };
      } catch (e) {
        throw new MetricError((e as Error).message, { metricId: TRAVEL_PLANNING_ID, sampleId: input.sampleId });
      }
    },
  });
}
