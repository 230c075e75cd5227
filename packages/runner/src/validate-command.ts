import { resolve } from "node:path";
import { toTaskSpecs, validateConfigs, loadSeaHelmConfigs } from "@yardstick/config";
import { parseFlags, requireConfigPaths } from "./args.js";
import type { CliIO } from "./io.js";

/** `yardstick validate <config...>`: every problem in every file, one per line, without running anything. */
export async function validateCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { quiet: { type: "boolean" } });
  const paths = requireConfigPaths(positionals, "validate").map((p) => resolve(io.cwd, p));
  const report = await validateConfigs(paths);
  for (const d of report.diagnostics) io.stderr.write(`${d.message}\n`);
  if (!report.ok) {
    io.stderr.write(`${report.diagnostics.length} problem(s) found\n`);
    return 1;
  }
  const specs = toTaskSpecs(await loadSeaHelmConfigs(paths));
  const missing = specs.filter((s) => s.extra?.dataMissing === true);
  if (!values.quiet) {
    io.stdout.write(`ok: ${report.taskCount} task(s), ${specs.length} task-language pair(s)\n`);
    for (const s of missing) io.stdout.write(`note: ${s.key}: local data file not found (${String(s.extra?.filepath ?? "")})\n`);
  }
  return 0;
}
