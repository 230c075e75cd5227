import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { DataLoadError } from "@yardstick/core";
import { type DescriptionType, TASK_NAMES, type TaskName } from "./constants.js";
import { parseOriginalFile } from "./original-format.js";
import { TASK_DESCRIPTIONS } from "./rows.js";
import { normalizeAnswer } from "./scoring.js";
import { solveQuestion } from "./solver/answer.js";

export interface AuditIssue {
  source: string;
  task: TaskName;
  descriptionType: string;
  question: string;
  gold: string;
  solver: string | undefined;
  kind: "not-entailed" | "ambiguous";
  reason: string;
}

export interface AuditCounts {
  total: number;
  ok: number;
  notEntailed: number;
  ambiguous: number;
}

export interface AuditReport {
  dir: string;
  questions: number;
  /** `task/description_type` -> counts. */
  counts: Record<string, AuditCounts>;
  issues: AuditIssue[];
  /** Image rows cannot be checked from text. */
  skippedImageRows: number;
}

export interface AuditCheck {
  source: string;
  task: TaskName;
  descriptionType: string;
  description: string;
  question: string;
  gold: string;
}

/** Checks one question: is its gold answer the one the description text entails? */
export function auditOne(c: AuditCheck): AuditIssue | undefined {
  const r = solveQuestion(c.description, c.question);
  const base = { source: c.source, task: c.task, descriptionType: c.descriptionType, question: c.question, gold: c.gold, solver: r.answer };
  if (r.status === "unanswerable") return { ...base, kind: "not-entailed", reason: r.reason ?? "unanswerable" };
  if (r.status === "ambiguous") return { ...base, kind: "ambiguous", reason: r.reason ?? "ambiguous" };
  if (normalizeAnswer(r.answer ?? "") !== normalizeAnswer(c.gold)) {
    return { ...base, kind: "not-entailed", reason: `the description entails "${r.answer}"` };
  }
  return undefined;
}

function* checksOfOriginal(file: string, text: string): Generator<AuditCheck> {
  const doc = parseOriginalFile(text, file);
  const descriptions = doc.descriptions ?? {};
  for (const [taskName, qa] of Object.entries(doc.questions ?? {})) {
    if (!(TASK_NAMES as readonly string[]).includes(taskName)) continue;
    const task = taskName as TaskName;
    for (const dtype of TASK_DESCRIPTIONS[task]) {
      let description = descriptions[dtype];
      if (description === undefined) continue;
      if (task === "existence_tracking") {
        const ops = descriptions.existence_tracking ?? "";
        description = description.endsWith(" ") ? description + ops : `${description} ${ops}`;
      }
      for (const [question, gold] of qa) yield { source: file, task, descriptionType: dtype, description, question, gold: String(gold) };
    }
  }
}

function* checksOfRows(file: string, text: string, skipped: { n: number }): Generator<AuditCheck> {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    let row: any;
    try {
      row = JSON.parse(line);
    } catch (err) {
      throw new DataLoadError(`not valid JSON: ${(err as Error).message}`, { file, line: i + 1, cause: err });
    }
    const task = row?.metadata?.task ?? row?.task;
    const dtype: DescriptionType | undefined = row?.metadata?.description_type ?? row?.description_type;
    const description = row?.prompts?.[0]?.description ?? row?.passage;
    const question = row?.prompts?.[0]?.question ?? row?.question;
    const gold = row?.label ?? row?.answer;
    if (!(TASK_NAMES as readonly string[]).includes(task) || typeof description !== "string" || typeof question !== "string" || gold === undefined) {
      throw new DataLoadError("row is not a spatial item (expected metadata.task, prompts[0].description/question and label)", { file, line: i + 1 });
    }
    if (dtype === "image") {
      skipped.n++;
      continue;
    }
    yield { source: `${file}:${i + 1}`, task, descriptionType: dtype ?? "?", description, question, gold: String(gold) };
  }
}

/** Audits a directory of original-format files or SEA-HELM/UltraEval rows written by `generate`. */
export async function auditDirectory(dir: string): Promise<AuditReport> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  } catch (err) {
    throw new DataLoadError(`cannot read directory: ${(err as Error).message}`, { file: dir, cause: err });
  }
  const originals = names.filter((n) => /^canvas_\d+_\d+\.json$/.test(n));
  const rowFiles = names.filter((n) => n.endsWith(".jsonl"));
  if (originals.length === 0 && rowFiles.length === 0) {
    throw new DataLoadError("no canvas_{n}_{i}.json files or .jsonl rows to audit", { file: dir });
  }
  const report: AuditReport = { dir, questions: 0, counts: {}, issues: [], skippedImageRows: 0 };
  const skipped = { n: 0 };
  const consume = (checks: Iterable<AuditCheck>) => {
    for (const c of checks) {
      const key = `${c.task}/${c.descriptionType}`;
      const counts = (report.counts[key] ??= { total: 0, ok: 0, notEntailed: 0, ambiguous: 0 });
      counts.total++;
      report.questions++;
      const issue = auditOne(c);
      if (issue === undefined) counts.ok++;
      else {
        if (issue.kind === "ambiguous") counts.ambiguous++;
        else counts.notEntailed++;
        report.issues.push(issue);
      }
    }
  };
  for (const name of originals) consume(checksOfOriginal(join(dir, name), await readFile(join(dir, name), "utf8")));
  for (const name of rowFiles) consume(checksOfRows(join(dir, name), await readFile(join(dir, name), "utf8"), skipped));
  report.skippedImageRows = skipped.n;
  return report;
}

export function formatAuditReport(r: AuditReport, maxIssues = 50): string {
  const lines = [`audit of ${r.dir}: ${r.questions} questions, ${r.issues.length} issues`];
  lines.push("task/description_type".padEnd(40) + "total".padStart(8) + "ok".padStart(8) + "not-entailed".padStart(14) + "ambiguous".padStart(11));
  for (const [key, c] of Object.entries(r.counts).sort()) {
    lines.push(key.padEnd(40) + String(c.total).padStart(8) + String(c.ok).padStart(8) + String(c.notEntailed).padStart(14) + String(c.ambiguous).padStart(11));
  }
  if (r.skippedImageRows > 0) lines.push(`(${r.skippedImageRows} image rows not audited: the checker reads text only)`);
  for (const issue of r.issues.slice(0, maxIssues)) {
    lines.push(`${issue.kind} ${issue.source} [${issue.task}/${issue.descriptionType}] ${issue.question} gold=${JSON.stringify(issue.gold)} solver=${JSON.stringify(issue.solver)}: ${issue.reason}`);
  }
  if (r.issues.length > maxIssues) lines.push(`... ${r.issues.length - maxIssues} more (use --json for all)`);
  return `${lines.join("\n")}\n`;
}
