/**
 * SEA-HELM HtmlToTsvMetric (LongProc HTML to TSV): the ```tsv block of the response and the
 * reference TSV are read as tables (first row the header; a last row of the wrong width dropped as
 * trailing chatter; other rows of the wrong width become all "N/A"; every cell lowercased, stripped
 * of punctuation, articles and spaces). Precision: the share of predicted rows found in the
 * reference; recall: the share of reference rows found in the prediction (order ignored); F1.
 *
 * A table that cannot be compared scores 0 with the name of the error upstream hits (recorded in
 * `details.parsingErrors`): no ```tsv block or an unreadable table (AttributeError), a table
 * without data rows (ZeroDivisionError), tables of different widths (ValueError). Upstream also
 * fails on a header that names a column twice (pandas hands the normaliser two columns at once);
 * that is kept.
 */
import type { MetricContext, MetricInput, MetricResult, MetricV1 } from "@yardstick/core";
import { pyStrip } from "@yardstick/core";
import { z } from "zod";
import { schemaOptionsCheck } from "../../options-check.js";
import { squadNormalize } from "../../text/squad-normalize.js";
import { normalizeScore, requireSamples } from "../common.js";
import { parseOptions } from "../options.js";
import { labelString, longprocBaseOptions, responseText, taggedBlock } from "./common.js";
import { PythonCsvError, readPythonCsv } from "./python-csv.js";

export const HTML_TO_TSV_ID = "seahelm-html-to-tsv";

export const seahelmHtmlToTsvOptionsSchema = z.strictObject({ ...longprocBaseOptions });

type Table = { width: number; rows: string[][] };

/** A cell as upstream compares it: SQuAD normalisation, then no spaces at all. */
export function normalizeCell(cell: string): string {
  return squadNormalize(cell).replaceAll(" ", "");
}

/** The table upstream's `_string_to_pd` builds, or null where it gives up. */
export function readTsvTable(text: string): Table | null {
  let data: string[][];
  try {
    data = readPythonCsv(pyStrip(text).split("\n"), "\t");
  } catch (e) {
    if (e instanceof PythonCsvError) return null;
    throw e;
  }
  const header = data[0];
  let rows = data.slice(1);
  if (header === undefined || rows.length === 0) return null;
  if (new Set(header).size !== header.length) return null;
  if (rows[rows.length - 1]!.length !== header.length) rows = rows.slice(0, -1);
  const width = header.length;
  return {
    width,
    rows: rows.map((row) => (row.length === width ? row : Array<string>(width).fill("N/A")).map(normalizeCell)),
  };
}

export interface TsvScore {
  precision: number;
  recall: number;
  f1: number;
  error?: string;
}

const sameRow = (a: readonly string[], b: readonly string[]) => a.every((cell, i) => cell === b[i]);

/** Upstream's evaluate_html_to_csv_compute_metrics. */
export function scoreTsv(prediction: string | null, reference: string): TsvScore {
  const fail = (error: string): TsvScore => ({ precision: 0, recall: 0, f1: 0, error });
  if (prediction === null) return fail("AttributeError");
  const gold = readTsvTable(reference);
  const pred = readTsvTable(prediction);
  if (pred === null) return fail("AttributeError");
  if (pred.rows.length > 0 && gold === null) return fail("AttributeError");
  if (pred.rows.length > 0 && gold!.width !== pred.width) return fail("ValueError");
  if (pred.rows.length === 0) return fail("ZeroDivisionError");
  const g = gold!;
  if (g.rows.length === 0) return fail("ZeroDivisionError");
  const precision = pred.rows.filter((row) => g.rows.some((other) => sameRow(other, row))).length / pred.rows.length;
  const recall = g.rows.filter((row) => pred.rows.some((other) => sameRow(other, row))).length / g.rows.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export function createSeahelmHtmlToTsvMetric(): MetricV1 {
  return {
    specVersion: "v1",
    id: HTML_TO_TSV_ID,
    description: "SEA-HELM LongProc HTML to TSV: row-level precision/recall/F1 of the ```tsv block against the reference table",
    textPairs: true,
    checkOptions: schemaOptionsCheck(HTML_TO_TSV_ID, seahelmHtmlToTsvOptionsSchema),
    compute(inputs: readonly MetricInput[], options: Record<string, unknown>, _ctx?: MetricContext): MetricResult {
      requireSamples(HTML_TO_TSV_ID, inputs);
      const opts = parseOptions(HTML_TO_TSV_ID, seahelmHtmlToTsvOptionsSchema, options);
      const results = inputs.map((input) => {
        const block = taggedBlock(responseText(HTML_TO_TSV_ID, input, opts.useRawResponse), "```tsv", "```");
        return scoreTsv(block, labelString(HTML_TO_TSV_ID, input));
      });
      const parsingErrors: Record<string, number> = {};
      for (const r of results) if (r.error) parsingErrors[r.error] = (parsingErrors[r.error] ?? 0) + 1;
      const f1 = mean(results.map((r) => r.f1));
      return {
        scores: {
          precision: 100 * mean(results.map((r) => r.precision)),
          recall: 100 * mean(results.map((r) => r.recall)),
          f1: 100 * f1,
          normalized_f1: 100 * normalizeScore(f1, 0, 1),
        },
        perSample: inputs.map((input, i) => {
          const r = results[i]!;
          return {
            sampleId: input.sampleId,
            scores: { normalized_f1: 100 * normalizeScore(r.f1, 0, 1), f1: 100 * r.f1, precision: 100 * r.precision, recall: 100 * r.recall },
          };
        }),
        details: { parsingErrors },
      };
    },
  };
}
