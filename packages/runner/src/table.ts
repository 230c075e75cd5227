import type { TaskOutcome } from "@yardstick/engine";

/**
 * A plain-text table of task scores. The uncertainty column is about the per-sample scores the
 * interval was computed from (named, e.g. `correct`), which is not always on the task score's scale
 * (a normalized accuracy is not the mean of per-sample correctness), so it is shown beside it.
 */
export function formatResultsTable(tasks: readonly TaskOutcome[], overall?: number): string {
  const header = ["task", "lang", "metric", "score", "n", "errors", "per-sample mean ± stderr [95% CI]"];
  const rows = tasks.map((t) => [
    t.name,
    t.language || "-",
    t.mainScore,
    t.main === undefined ? (t.failure ? "failed" : "-") : fmt(t.main),
    String(t.samples),
    String(t.errors),
    t.summary
      ? `${t.summary.key ?? "score"} ${fmt(t.summary.mean)} ± ${fmt(t.summary.stderr)}${t.summary.ci ? ` [${fmt(t.summary.ci[0])}, ${fmt(t.summary.ci[1])}]` : ""}`
      : "-",
  ]);
  if (overall !== undefined) rows.push(["overall", "", "total", fmt(overall), "", "", ""]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = new Set([3, 4, 5]);
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1000) return x.toFixed(0);
  return Math.abs(x) <= 1 ? x.toFixed(3) : x.toFixed(2);
}
