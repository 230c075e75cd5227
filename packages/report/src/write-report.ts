import { rename, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { chartLibrarySource } from "./chart-library.js";
import { type CompareRuns, compareWithFirst } from "./paired-comparison.js";
import { readRun } from "./read-run.js";
import { buildReportData } from "./report-data.js";
import { renderHtml } from "./render-html.js";
import { makeDirectory } from "@yardstick/core";

/** Samples of each task the report's sample browser holds by default (a page of a million would not open). */
export const REPORT_SAMPLES_PER_TASK = 10_000;

export interface ReportSettings {
  /** Run-store folders; several are shown side by side. */
  runs: string[];
  /**
   * Samples of each task in the sample browser: the first by dataset position (default
   * REPORT_SAMPLES_PER_TASK; Infinity: all). Scores, counts and comparisons cover every sample.
   */
  samplesPerTask?: number;
  /** The paired test of `yardstick compare` (`compareRuns` of @yardstick/metrics): each later run against the first. */
  compare?: CompareRuns;
}

export interface WriteReportSettings extends ReportSettings {
  /** The HTML file to write. */
  out: string;
}

export interface ReportSummary {
  /** Absolute path of the written file. */
  out: string;
  bytes: number;
  samples: number;
  /** What was missing or unreadable, per run folder. */
  problems: { run: string; problems: string[] }[];
}

/** Builds the report's HTML in memory (what `yardstick view` serves). */
export async function buildReport(settings: ReportSettings): Promise<{ html: string; samples: number; problems: ReportSummary["problems"] }> {
  if (settings.runs.length === 0) throw new Error("buildReport: give at least one run folder");
  const runs = [];
  const samplesPerTask = settings.samplesPerTask ?? REPORT_SAMPLES_PER_TASK;
  for (const dir of settings.runs) runs.push(await readRun(dir, { samplesPerTask }));
  const data = buildReportData(runs, settings.compare ? await compareWithFirst(runs, settings.compare) : []);
  return {
    html: renderHtml(data, await chartLibrarySource()),
    samples: data.samples.task.length,
    problems: runs.map((r) => ({ run: r.dir, problems: r.problems })),
  };
}

/** Writes one self-contained HTML report of the given run stores (replaced atomically). */
export async function writeReport(settings: WriteReportSettings): Promise<ReportSummary> {
  const { html, samples, problems } = await buildReport(settings);
  const out = resolve(settings.out);
  await makeDirectory(dirname(out));
  const tmp = `${out}.${process.pid}.tmp`;
  await writeFile(tmp, html, "utf8");
  await rename(tmp, out);
  return { out, bytes: Buffer.byteLength(html), samples, problems };
}
