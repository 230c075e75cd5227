import { resolve } from "node:path";
import { type CliCommandSpec, ConfigError, defineFlags } from "@yardstick/core";
import { type AgreementItem, type AgreementPair, type AgreementReport, agreementReport, type Rating } from "@yardstick/metrics";
import { UsageError, checkFlag, intFlag, parseFlags } from "./args.js";
import { type HumanRating, type HumanSide, humanSide, humanSideFromRun, type JudgeRating, type JudgeSide, judgeSide, readRunStore } from "./agreement-sources.js";
import type { CliIO } from "./io.js";

const AGREEMENT_FLAGS = defineFlags({
  task: { type: "string", value: "T", default: "every task", description: "only this task of the run (and the default task of a plain Quest results file)" },
  call: { type: "string", value: "ID", default: "each call id apart", description: 'only this judge call id ("" is a sample\'s only call)' },
  field: { type: "string", value: "KEY", description: "the feedback key holding the human answer (when a label has several answers)" },
  top: { type: "string", value: "N", default: "10", description: "how many disagreements to list" },
  json: { type: "boolean", description: "print the report as JSON (NaN, an undefined statistic, as null)" },
});

export const AGREEMENT_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick agreement",
    summary:
      "Judge–human agreement on the samples both rated. Samples are matched by task and sample id (the metadata \"label import\" writes; a plain Quest results file is matched by sample id within --task).",
    positionals: [
      { name: "RUN", description: "a run store with judge-stage records" },
      {
        name: "[LABELS]",
        description:
          'the human labels: a run store with label-stage records (what "label to-run" writes; leave LABELS out when they were written into RUN itself), a labeling data folder (every task\'s results file), or one labeling results JSONL',
      },
    ],
    flags: AGREEMENT_FLAGS,
    notes: [
      'A judge rating is the judgement\'s label and score (a rubric judge\'s choice). A human rating is the rubric choice of a rubric task (label and score), else the answer to --field, else the label\'s only answer; numbers are scores, text is a label. Judge calls that failed or whose reply did not parse are left out and counted (a judge\'s retry, call "<id>#retry", stands in for a failed call <id>). A sample judged by several calls (criteria, both orders) is reported per call id, unless --call picks one. Labels of comparison lines (two answers at once) are counted and left out. When a judge and a label both name a rubric, only the same rubric is compared.',
      "Reported: shared items and (judge, human) pairs; percent agreement, Cohen's kappa and the confusion table over the pairs (several labelers of one sample each make a pair); Krippendorff's alpha with the judge and each labeler as coders (missing ratings allowed); with scores on every rating also the quadratic-weighted kappa (on score ranks) and the interval alpha; the largest disagreements.",
    ],
  },
];

export interface AgreementGroup {
  /** The judge call id these ratings come from. */
  call: string;
  /** Judge ratings of samples no label covers; labels of samples this call did not rate. */
  judgedOnly: number;
  labelledOnly: number;
  /** Labels of judged samples left out because they answer another rubric than the judge's (counted in labelledOnly too). */
  otherRubric: number;
  report?: Omit<AgreementReport, "disagreements"> & { disagreements: (Omit<AgreementPair, "id"> & { task: string; sample: string })[] };
}

const key = (task: string, sample: string) => `${task}\u0000${sample}`;

/** Pairs one judge call's ratings with the labels of the same samples (and the same rubric, when both name one). */
function groupItems(
  judge: readonly JudgeRating[],
  humans: readonly HumanRating[],
): { items: AgreementItem[]; judgedOnly: number; labelledOnly: number; otherRubric: number } {
  const bySample = new Map<string, HumanRating[]>();
  for (const h of humans) {
    const list = bySample.get(key(h.task, h.sample)) ?? [];
    list.push(h);
    bySample.set(key(h.task, h.sample), list);
  }
  const items: AgreementItem[] = [];
  const used = new Set<HumanRating>();
  let judgedOnly = 0;
  let otherRubric = 0;
  for (const j of judge) {
    const all = bySample.get(key(j.task, j.sample)) ?? [];
    const labels = all.filter((h) => j.rubric === undefined || h.rubric === undefined || h.rubric === j.rubric);
    otherRubric += all.length - labels.length;
    if (labels.length === 0) {
      judgedOnly++;
      continue;
    }
    for (const h of labels) used.add(h);
    items.push({ id: `${j.task}\u0000${j.sample}`, judge: j.rating, humans: labels.map((h) => ({ rater: h.rater, rating: h.rating })) });
  }
  return { items, judgedOnly, labelledOnly: humans.length - used.size, otherRubric };
}

export function agreementGroups(judge: JudgeSide, humans: HumanSide, options: { call?: string; top: number }): AgreementGroup[] {
  const calls = [...new Set(judge.ratings.map((r) => r.call))].sort();
  const wanted = options.call === undefined ? calls : calls.filter((c) => c === options.call);
  if (options.call !== undefined && wanted.length === 0) {
    throw new ConfigError(`no judge rating has call id "${options.call}"; the call ids are ${calls.map((c) => JSON.stringify(c)).join(", ") || "none"}`);
  }
  return wanted.map((call) => {
    const { items, judgedOnly, labelledOnly, otherRubric } = groupItems(
      judge.ratings.filter((r) => r.call === call),
      humans.ratings,
    );
    const group: AgreementGroup = { call, judgedOnly, labelledOnly, otherRubric };
    if (items.length > 0) {
      const report = agreementReport(items, { top: options.top });
      // Item ids are "task NUL sample"; the report names both instead.
      const disagreements = report.disagreements.map(({ id, ...p }) => {
        const [task, sample] = id.split("\u0000") as [string, string];
        return { task, sample, ...p };
      });
      group.report = { ...report, disagreements };
    }
    return group;
  });
}

export async function agreementCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, AGREEMENT_FLAGS);
  if (positionals.length < 1 || positionals.length > 2) throw new UsageError("agreement: give a run folder and the labels (a run folder, a labeling data folder or a results JSONL)");
  const top = checkFlag("top", intFlag(0, 10_000), values.top ?? AGREEMENT_FLAGS.top.default);
  const runDir = resolve(io.cwd, positionals[0]!);
  const run = await readRunStore(runDir, "RUN");
  const judge = judgeSide(run, values.task);
  if (judge.ratings.length === 0) {
    throw new ConfigError(
      `${runDir} has no usable judge-stage ratings${values.task ? ` for task ${values.task}` : ""} (${judge.errors} failed, ${judge.unrated} without a label or score)`,
    );
  }
  const tasks = [...new Set(judge.ratings.map((r) => r.task))];
  const defaultTask = values.task ?? (tasks.length === 1 ? tasks[0] : undefined);
  const labels =
    positionals[1] === undefined
      ? humanSideFromRun(run, values.task, values.field)
      : await humanSide(resolve(io.cwd, positionals[1]), { ...(values.task ? { task: values.task } : {}), ...(values.field ? { field: values.field } : {}), ...(defaultTask ? { defaultTask } : {}) });
  const groups = agreementGroups(judge, labels, { ...(values.call !== undefined ? { call: values.call } : {}), top });
  const excluded = { judgeErrors: judge.errors, judgeUnrated: judge.unrated, comparisonLabels: labels.comparisons, unratedLabels: labels.unrated };
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ run: runDir, labels: labels.source, labelCount: labels.ratings.length, excluded, groups }, null, 2)}\n`);
  } else {
    io.stdout.write(formatAgreement(runDir, labels, excluded, groups));
  }
  if (groups.every((g) => g.report === undefined)) {
    io.stderr.write(
      `error: no sample has both a judge rating and a human label (${judge.ratings.length} judge rating(s), ${labels.ratings.length} label(s)); check that the labels come from this run's samples${labels.unrated > 0 ? `, or name the answer with --field` : ""}\n`,
    );
    return 1;
  }
  return 0;
}

function fmt(x: number | undefined): string {
  if (x === undefined) return "n/a";
  return Number.isNaN(x) ? "undefined" : x.toFixed(3);
}

function ratingText(r: Rating): string {
  if (r.label !== undefined && r.score !== undefined) return `${r.label} (${r.score})`;
  return String(r.label ?? r.score);
}

/** Columns padded to their widest cell; the first `textColumns` left-aligned, the others (numbers) right-aligned. */
function table(rows: readonly string[][], textColumns = 1): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((c, i) => (i < textColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd()).join("\n");
}

export function formatAgreement(
  runDir: string,
  labels: HumanSide,
  excluded: { judgeErrors: number; judgeUnrated: number; comparisonLabels: number; unratedLabels: number },
  groups: readonly AgreementGroup[],
): string {
  const out: string[] = [`judge:  ${runDir}`, `labels: ${labels.source} (${labels.ratings.length} label(s))`];
  const left = [
    excluded.judgeErrors && `${excluded.judgeErrors} judge call(s) failed or did not parse`,
    excluded.judgeUnrated && `${excluded.judgeUnrated} judge record(s) without a label or score`,
    excluded.comparisonLabels && `${excluded.comparisonLabels} comparison label(s)`,
    excluded.unratedLabels && `${excluded.unratedLabels} label(s) without a readable answer (try --field)`,
  ].filter(Boolean);
  if (left.length > 0) out.push(`left out: ${left.join("; ")}`);
  for (const g of groups) {
    out.push("", groups.length > 1 || g.call !== "" ? `judge call "${g.call}"` : "judge ratings");
    const r = g.report;
    out.push(
      `shared items ${r?.items ?? 0}, pairs ${r?.pairs ?? 0}, labelers ${r?.raters ?? 0}; judged only ${g.judgedOnly}; labelled only ${g.labelledOnly}${g.otherRubric > 0 ? ` (${g.otherRubric} of them answer another rubric than the judge's)` : ""}`,
    );
    if (!r) continue;
    out.push(
      "",
      table([
        ["statistic", "value"],
        ["compared", r.basis === "label" ? "labels" : r.basis === "score" ? "scores" : "labels, else scores"],
        ["percent agreement", `${(100 * r.percentAgreement).toFixed(1)}%`],
        ["Cohen's kappa", fmt(r.cohensKappa)],
        ["quadratic-weighted kappa", fmt(r.weightedKappa)],
        ["Krippendorff's alpha (nominal)", fmt(r.alpha.nominal)],
        ["Krippendorff's alpha (interval)", fmt(r.alpha.interval)],
      ]),
      "",
      "confusion (rows: judge, columns: human)",
      table([["judge \\ human", ...r.confusion.categories.map(String)], ...r.confusion.counts.map((row, i) => [String(r.confusion.categories[i]), ...row.map(String)])]),
    );
    if (r.disagreements.length > 0) {
      out.push(
        "",
        "largest disagreements",
        table([
          ["task", "sample", "labeler", "judge", "human", "distance"],
          ...r.disagreements.map((p) => [p.task, p.sample, p.rater, ratingText(p.judge), ratingText(p.human), String(+p.distance.toFixed(6))]),
        ], 5),
      );
    }
  }
  return `${out.join("\n")}\n`;
}
