import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "@yardstick/core";
import { RunStore } from "@yardstick/engine";
import { UsageError, parseFlags } from "./args.js";
import type { CliIO } from "./io.js";
import { writeUltraEvalOutputs } from "./ultraeval-outputs.js";

export const EXPORT_USAGE = `usage: yardstick export RUN --format ultraeval --out DIR

Writes a scored run store in another harness's output layout. No request is sent.
  --format ultraeval   UltraEval's files: DIR/<task>/config.json, final_metrics.json and
                       instance.jsonl for each task from an UltraEval config, and DIR/_all_results.json
                       (yardstick run and score-run also write them to RUN/ultraeval/)
  --out DIR            the folder to write (created if missing)`;

export async function exportCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { format: { type: "string" }, out: { type: "string" } });
  if (positionals.length !== 1) throw new UsageError("export: give exactly one run folder");
  if (values.format !== "ultraeval") throw new UsageError(`export: --format must be ultraeval (got ${values.format === undefined ? "nothing" : JSON.stringify(values.format)})`);
  if (!values.out) throw new UsageError("export: --out DIR is required");
  const dir = resolve(io.cwd, positionals[0]!);
  const store = new RunStore(dir);
  if (!existsSync(join(dir, "results.json"))) throw new ConfigError("this run store has no results.json: score it first (yardstick score-run RUN)", { file: dir });
  const written = await writeUltraEvalOutputs(store, resolve(io.cwd, values.out));
  if (!written) throw new ConfigError("this run has no task from an UltraEval config: nothing to export in UltraEval's layout", { file: dir });
  io.stderr.write(`wrote ${written.tasks.length} task(s) to ${written.dir}\n`);
  return 0;
}
