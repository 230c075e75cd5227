import { type CliCommandSpec, defineFlags } from "@yardstick/core";
/**
 * `yardstick schema <dialect>`: prints the JSON Schema of a config dialect's files, for editors
 * (`# yaml-language-server: $schema=...`) and other tools. Built-in dialects' schemas come from
 * `@yardstick/config`; a plugin dialect offers its own through `configJsonSchema()`.
 */
import { builtinConfigJsonSchemas, describesConfigSchema } from "@yardstick/config";
import { UsageError, parseFlags } from "./args.js";
import { builtinSettingsFromEnv, createBuiltinRegistry, dialectsOf, loadPluginPackages } from "./builtins.js";
import { cacheRoot } from "./cache-paths.js";
import type { CliIO } from "./io.js";

const SCHEMA_FLAGS = defineFlags({
  plugin: { type: "string", multiple: true, value: "PACKAGE", description: "load a plugin package first (it may bring the dialect)" },
});

export const SCHEMA_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick schema",
    summary: "Prints the JSON Schema (draft 2020-12) of a config dialect's files, generated from the same zod schema the loader checks with.",
    positionals: [{ name: "<dialect>", description: "seahelm, ultraeval, or a plugin dialect with configJsonSchema()" }],
    flags: SCHEMA_FLAGS,
    notes: [
      "For SEA-HELM the file also ships as @yardstick/config/schemas/seahelm-config.schema.json; an editor with the YAML language server checks a config.yaml against it when the file's first line is: # yaml-language-server: $schema=<path to that file>",
    ],
  },
];

export async function schemaCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, SCHEMA_FLAGS);
  let registry = createBuiltinRegistry(builtinSettingsFromEnv(io.env, cacheRoot(io.env)));
  if (values.plugin?.length) registry = registry.extend(await loadPluginPackages(values.plugin, io.cwd));
  const schemas: Record<string, () => Record<string, unknown>> = { ...builtinConfigJsonSchemas };
  for (const dialect of dialectsOf(registry)) {
    if (describesConfigSchema(dialect)) schemas[dialect.id] = () => dialect.configJsonSchema();
  }
  const names = Object.keys(schemas).sort().join(", ");
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0) throw new UsageError(`name one config dialect: ${names}`);
  const make = schemas[id];
  if (!make) throw new UsageError(`no JSON Schema for dialect "${id}"; dialects with one: ${names}`);
  io.stdout.write(`${JSON.stringify(make(), null, 2)}\n`);
  return 0;
}
