import type { TaskOutcome } from "@yardstick/engine";

/**
 * A plain-text table of task scores with the headline's standard error and 95% interval (on the
 * headline's own scale). When no headline interval could be computed, the per-sample scores'
 * interval is shown instead, named by its key. `retries`: the extra attempts of each task's requests
 * (`recordTaskRetries`), "-" when the store keeps no run statistics.
 */
export function formatResultsTable(tasks: readonly TaskOutcome[], overall?: number, retries?: ReadonlyMap<string, number>): string {
  const header = ["task", "lang", "metric", "score", "± stderr", "95% CI", "n", "errors", "retries"];
  const rows = tasks.map((t) => {
    const h = t.headline;
    const p = t.summary;
    const interval = h
      ? [fmt(h.stderr), `[${fmt(h.ci[0])}, ${fmt(h.ci[1])}]`]
      : p?.ci
        ? [`${p.key ?? "per-sample"} ${fmt(p.mean)} ± ${fmt(p.stderr)}`, `[${fmt(p.ci[0])}, ${fmt(p.ci[1])}]`]
        : ["-", "-"];
    return [
      t.name,
      t.language || "-",
      t.mainScore,
      t.main === undefined ? (t.failure ? "failed" : t.notComputed ? "not computed" : "-") : fmt(t.main),
      ...interval,
      String(t.samples),
      String(t.errors),
      retries ? String(retries.get(t.key) ?? 0) : "-",
    ];
  });
  if (overall !== undefined) rows.push(["overall", "", "total", fmt(overall), "", "", "", "", ""]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = new Set([3, 4, 6, 7, 8]);
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** How the run table writes a score (0–1 metrics with 3 decimals, 0–100 scores with 2); `compare` uses it too. */
export function formatScore(x: number): string {
  return fmt(x);
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1000) return x.toFixed(0);
  return Math.abs(x) <= 1 && x !== 0 ? x.toFixed(3) : x.toFixed(2);
}

/** One line per task whose main score was not computed on purpose, saying why (printed under the table). */
export function notComputedLines(tasks: readonly TaskOutcome[]): string[] {
  return tasks.filter((t) => t.notComputed).map((t) => `task ${t.key}: ${t.notComputed}`);
}
