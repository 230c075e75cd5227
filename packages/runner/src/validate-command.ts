import { resolve } from "node:path";
import { findConfigFiles, loadSeaHelmConfigs, toTaskSpecs, validateConfigs } from "@yardstick/config";
import { ConfigError } from "@yardstick/core";
import { parseFlags, requireConfigPaths } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, loadPluginPackages } from "./builtins.js";
import { cacheRoot } from "./cache-paths.js";
import type { CliIO } from "./io.js";
import { findUnrunnable } from "./tasks.js";

export const VALIDATE_USAGE = "usage: yardstick validate <config-file-or-folder>... [--plugin PACKAGE ...] [--schema-only] [--quiet]";

/**
 * `yardstick validate <config...>`: every problem in every file, one per line, without running
 * anything. Beyond the schema it checks what `run` would refuse (unknown plugin ids, data yardstick
 * cannot load), unless `--schema-only`.
 */
export async function validateCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    quiet: { type: "boolean" },
    plugin: { type: "string", multiple: true },
    "schema-only": { type: "boolean" },
  });
  const paths = requireConfigPaths(positionals, "validate").map((p) => resolve(io.cwd, p));
  for (const p of paths) {
    if ((await findConfigFiles(p)).length === 0) throw new ConfigError(`no config.yaml found in ${p}`, { file: p });
  }
  const report = await validateConfigs(paths);
  for (const d of report.diagnostics) io.stderr.write(`${d.message}\n`);
  if (!report.ok) {
    io.stderr.write(`${report.diagnostics.length} problem(s) found\n`);
    return 1;
  }
  const specs = toTaskSpecs(await loadSeaHelmConfigs(paths));
  if (!values["schema-only"]) {
    let registry = createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
    const plugins = [
      ...(values.plugin ?? []),
      ...specs.flatMap((s) => (Array.isArray(s.extra?.plugins) ? (s.extra.plugins as string[]) : [])),
    ];
    if (plugins.length > 0) registry = registry.extend(await loadPluginPackages([...new Set(plugins)], io.cwd));
    const problems = findUnrunnable(specs, registry);
    for (const p of problems) io.stderr.write(`${p.error.message}\n`);
    if (problems.length > 0) {
      io.stderr.write(
        `${report.taskCount} task(s) are valid, but ${problems.length} task-language pair(s) cannot run here (--schema-only checks the schema alone)\n`,
      );
      return 1;
    }
  }
  if (!values.quiet) io.stdout.write(`ok: ${report.taskCount} task(s), ${specs.length} task-language pair(s)\n`);
  return 0;
}
