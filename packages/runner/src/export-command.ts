import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError, type CliCommandSpec, defineFlags } from "@yardstick/core";
import { RunStore } from "@yardstick/engine";
import { UsageError, parseFlags } from "./args.js";
import type { CliIO } from "./io.js";
import { requireSomeRun } from "./run-folders.js";
import { writeUltraEvalOutputs } from "./ultraeval-outputs.js";

const EXPORT_FLAGS = defineFlags({
  format: {
    type: "string",
    value: "ultraeval",
    required: true,
    description:
      "ultraeval: UltraEval's files, DIR/<task>/config.json, final_metrics.json and instance.jsonl for each task from an UltraEval config, and DIR/_all_results.json (yardstick run and score-run also write them to RUN/ultraeval/)",
  },
  out: { type: "string", value: "DIR", required: true, description: "the folder to write (created if missing)" },
});

export const EXPORT_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick export",
    summary: "Writes a scored run store in another harness's output layout. No request is sent.",
    positionals: [{ name: "RUN", description: "a scored run store" }],
    flags: EXPORT_FLAGS,
  },
];

export async function exportCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, EXPORT_FLAGS);
  if (positionals.length !== 1) throw new UsageError("export: give exactly one run folder");
  if (values.format !== "ultraeval") throw new UsageError(`export: --format must be ultraeval (got ${values.format === undefined ? "nothing" : JSON.stringify(values.format)})`);
  if (!values.out) throw new UsageError("export: --out DIR is required");
  const dir = resolve(io.cwd, positionals[0]!);
  requireSomeRun([dir], "export");
  const store = new RunStore(dir);
  if (!existsSync(join(dir, "results.json"))) throw new ConfigError("this run store has no results.json: score it first (yardstick score-run RUN)", { file: dir });
  const written = await writeUltraEvalOutputs(store, resolve(io.cwd, values.out));
  if (!written) throw new ConfigError("this run has no task from an UltraEval config: nothing to export in UltraEval's layout", { file: dir });
  io.stderr.write(`wrote ${written.tasks.length} task(s) to ${written.dir}\n`);
  return 0;
}
