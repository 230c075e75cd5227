import { resolve } from "node:path";
import { ConfigError, type CliCommandSpec, defineFlags } from "@yardstick/core";
import { asText, readRun, type StoredSample } from "@yardstick/report";
import type { SentRequest } from "@yardstick/run-format";
import { UsageError, parseFlags } from "./args.js";
import type { CliIO } from "./io.js";
import { requireSomeRun } from "./run-folders.js";

const SHOW_FLAGS = defineFlags({
  task: { type: "string", value: "TASK", required: true, description: "the task key, e.g. sentiment/id" },
  sample: { type: "string", value: "ID", default: "the task's first sample", description: "the sample id" },
});

export const SHOW_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick show",
    summary:
      "Prints one sample of a run store: the prompt as sent, the response, the extracted answer, the gold answer and the scores (control characters escaped).",
    positionals: [{ name: "RUN", description: "a run store" }],
    flags: SHOW_FLAGS,
  },
];

/**
 * Makes text safe to print: escape sequences, carriage returns, other control characters and
 * bidirectional overrides in data are shown as \\xNN / \\u{NNNN} instead of acting on the terminal.
 * Newlines and tabs are kept so prompts stay readable.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.codePointAt(0) as number;
    if (c === "\r") return "\\r";
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}

export async function showCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, SHOW_FLAGS);
  if (positionals.length !== 1) throw new UsageError("show: give exactly one run folder");
  if (!values.task) throw new UsageError("show: --task is required (the task key, e.g. sentiment/id)");
  const dir = resolve(io.cwd, positionals[0] as string);
  requireSomeRun([dir], "show");
  const run = await readRun(dir, { task: values.task });
  for (const problem of run.problems) io.stderr.write(`warning: ${escapeForTerminal(problem)}\n`);
  const task = run.tasks.find((t) => t.key === values.task);
  if (!task) {
    const known = run.tasks.map((t) => t.key).join(", ") || "none";
    throw new ConfigError(`no task "${values.task}" in this run store; its tasks: ${known}`, { file: dir });
  }
  const samples = run.samples.filter((s) => s.task === task.key);
  const sample = values.sample === undefined ? samples[0] : samples.find((s) => s.id === values.sample);
  if (!sample) {
    const some = samples.slice(0, 10).map((s) => s.id);
    throw new ConfigError(
      values.sample === undefined
        ? `task ${task.key} has no samples in this run store`
        : `no sample "${values.sample}" in task ${task.key}; ${samples.length} samples, e.g. ${some.join(", ")}${samples.length > some.length ? ", ..." : ""}`,
      { file: dir },
    );
  }
  io.stdout.write(escapeForTerminal(formatSample(run.label, sample, samples.length)));
  return 0;
}

function formatSample(runLabel: string, s: StoredSample, count: number): string {
  const lines: string[] = [];
  const section = (title: string, body: string): void => {
    lines.push(`── ${title} ${"─".repeat(Math.max(3, 60 - title.length))}`, body, "");
  };
  lines.push(`run: ${runLabel}`);
  lines.push(`task: ${s.task} · sample ${s.id}${s.index < Number.MAX_SAFE_INTEGER - 1_000_000 ? ` (index ${s.index})` : ""} of ${count}${s.cached ? " · answer from the request cache" : ""}`, "");
  section("prompt", s.request ? formatRequest(s.request) : "(not in the store: an older store, or the sample was never asked)");
  if (s.error) section("error", s.error);
  section("response", s.response ?? "(no response)");
  section("extracted answer", s.scores || s.prediction !== undefined ? asText(s.prediction) : "(not scored)");
  section("gold", s.hasGold ? asText(s.gold) : "(no gold answer in the store)");
  section(
    "scores",
    s.scores
      ? Object.entries(s.scores)
          .map(([k, v]) => `${k}: ${v}`)
          .join("\n")
      : "(not scored)",
  );
  if (s.judgements.length) section("judge and label records", JSON.stringify(s.judgements, null, 2));
  return `${lines.join("\n")}`;
}

function formatRequest(request: SentRequest): string {
  switch (request.kind) {
    case "chat":
      return request.messages
        .map((m) => {
          const content =
            typeof m.content === "string"
              ? m.content
              : m.content.map((p) => (p.type === "text" ? p.text : `[image: ${p.image_url.url.slice(0, 40)}… ${p.image_url.url.length} characters]`)).join("\n");
          return `[${m.role}]\n${content}`;
        })
        .join("\n\n");
    case "completion":
      return request.prompt;
    case "loglikelihood":
      return `${request.context}\n\n[continuations]\n${request.continuations.map((c, i) => `${i + 1}. ${c}`).join("\n")}`;
  }
}
