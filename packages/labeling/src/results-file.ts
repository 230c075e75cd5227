import { appendFileSync, closeSync, copyFileSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import type { LoadedTask } from "./data-folder.js";
import type { DoneRow } from "./store.js";

/** One results line: Quest's `{sample, feedback, timestamp}` plus labeler, task, sample ids, line, server time. */
export function resultLine(task: LoadedTask, row: DoneRow): string {
  const item = task.itemByLine.get(row.item);
  const samples = item?.samples ?? [];
  return JSON.stringify({
    sample: task.def.presentation.type === "single" ? samples[0] : samples,
    feedback: JSON.parse(row.feedback),
    timestamp: row.clientTime ?? row.serverTime,
    labeler: row.labeler,
    task: task.id,
    sampleIds: samples.map((s) => s.id),
    line: row.item,
    serverTime: row.serverTime,
  });
}

/**
 * Appends labels after the database commit, a commit group's in one write; a crash in between is
 * repaired by `rewriteResults` at start.
 */
export function appendResults(task: LoadedTask, rows: readonly DoneRow[]): void {
  appendFileSync(task.resultsFile, rows.map((r) => `${resultLine(task, r)}\n`).join(""));
}

/**
 * Makes the results file hold exactly the database's labels, written to a temporary file, synced
 * and renamed. A differing file that was there before is kept as `.bak` (e.g. lines Quest wrote).
 */
export function rewriteResults(task: LoadedTask, rows: readonly DoneRow[], keepOld: boolean): void {
  const text = rows.map((r) => `${resultLine(task, r)}\n`).join("");
  if (existsSync(task.resultsFile)) {
    const old = readFileSync(task.resultsFile, "utf8");
    if (old === text) return;
    if (keepOld && old.trim() !== "") copyFileSync(task.resultsFile, `${task.resultsFile}.${Date.now()}.bak`);
  } else if (text === "") return;
  const tmp = `${task.resultsFile}.tmp`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, task.resultsFile);
}

/** A CSV cell; cells a spreadsheet would run as a formula get a leading apostrophe. */
function cell(value: unknown): string {
  let s = value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function resultsCsv(task: LoadedTask, rows: readonly DoneRow[]): string {
  const keys = Object.keys(task.def.feedback);
  const header = ["task", "line", "sample_ids", "labeler", "server_time", "client_time", ...keys];
  const lines = [header.map(cell).join(",")];
  for (const r of rows) {
    const item = task.itemByLine.get(r.item);
    const feedback = JSON.parse(r.feedback) as Record<string, unknown>;
    lines.push(
      [task.id, r.item, (item?.samples ?? []).map((s) => s.id).join(" "), r.labeler, r.serverTime, r.clientTime, ...keys.map((k) => feedback[k])]
        .map(cell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
