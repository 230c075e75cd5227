import type { ComparisonResult, ComparisonRow } from "./compare-runs.js";

function fixed(x: number, digits = 4): string {
  if (Number.isNaN(x)) return "nan";
  const s = x.toFixed(digits);
  // Avoid "-0.0000" for tiny negatives.
  return /^-0\.0+$/.test(s) ? s.slice(1) : s;
}

function signed(x: number): string {
  const s = fixed(x);
  return s.startsWith("-") || s === fixed(0) ? s : `+${s}`;
}

function itemCount(n: number): string {
  return `${n} item${n === 1 ? "" : "s"}`;
}

function pValue(p: number): string {
  if (p < 1e-4) return "<0.0001";
  return p.toFixed(4);
}

const HEADERS = ["task", "n", "only A", "only B", "mean A", "mean B", "diff", "CI", "test", "p", "p adj", "sig"];
/** Columns that are left-aligned; the rest are numbers and right-aligned. */
const LEFT = new Set([0, 8, 11]);

/**
 * Plain-text table for `yardstick compare`: one line per task, columns padded to width,
 * significant rows marked with "*". Accepts the rows or the whole `compareRuns` result (then
 * skipped tasks and the correction used are listed under the table).
 */
export function formatComparisonTable(input: readonly ComparisonRow[] | ComparisonResult): string {
  const rows = Array.isArray(input) ? (input as readonly ComparisonRow[]) : (input as ComparisonResult).rows;
  const cells = rows.map((r) => [
    r.task,
    String(r.n),
    String(r.onlyA),
    String(r.onlyB),
    fixed(r.meanA),
    fixed(r.meanB),
    signed(r.diff),
    `[${signed(r.ci[0])}, ${signed(r.ci[1])}]`,
    r.test,
    pValue(r.pValue),
    pValue(r.pAdjusted),
    r.significant ? "*" : "",
  ]);
  const widths = HEADERS.map((h, c) => Math.max(h.length, ...cells.map((row) => row[c]!.length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, c) => (LEFT.has(c) ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join("  ")
      .trimEnd();
  const out = [line(HEADERS), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)];
  if (rows.length === 0) out.push("(no task with shared items)");
  if (!Array.isArray(input)) {
    const result = input as ComparisonResult;
    const conf = Math.round(result.confidence * 1000) / 10;
    out.push(
      "",
      `diff = A − B; CI = ${conf}% paired bootstrap (${result.resamples} resamples, seed ${result.seed}); ` +
        `p adj = ${result.correction}; * = p adj < ${result.alpha}`,
    );
    for (const s of result.skipped) {
      const why =
        s.reason === "no-shared-items"
          ? `no shared items (A ${s.itemsA}, B ${s.itemsB})`
          : s.reason === "only-in-a"
            ? `only in run A (${itemCount(s.itemsA)})`
            : `only in run B (${itemCount(s.itemsB)})`;
      out.push(`skipped ${s.task}: ${why}`);
    }
  }
  return out.join("\n");
}
