import type { TaskOutcome } from "@yardstick/engine";

/** A plain-text table of task scores, aligned for a terminal. */
export function formatResultsTable(tasks: readonly TaskOutcome[], overall?: number): string {
  const header = ["task", "lang", "metric", "score", "±stderr", "95% CI", "n", "errors"];
  const rows = tasks.map((t) => [
    t.name,
    t.language || "-",
    t.mainScore,
    t.main === undefined ? (t.failure ? "failed" : "-") : fmt(t.main),
    t.summary ? fmt(t.summary.stderr) : "-",
    t.summary?.ci ? `[${fmt(t.summary.ci[0])}, ${fmt(t.summary.ci[1])}]` : "-",
    String(t.samples),
    String(t.errors),
  ]);
  if (overall !== undefined) rows.push(["overall", "", "total", fmt(overall), "", "", "", ""]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i >= 3 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return Math.abs(x) >= 1000 ? x.toFixed(0) : x.toFixed(Math.abs(x) < 1 && x !== 0 ? 4 : 2);
}
