import { existsSync } from "node:fs";
import { openRequestCache, type RequestCache, type RequestCacheInfo } from "@yardstick/engine";
import { type CliCommandSpec, defineFlags } from "@yardstick/core";
import { z } from "zod";
import { checkFlag, parseFlags, UsageError } from "./args.js";
import { defaultCachePath } from "./cache-paths.js";
import type { CliIO } from "./io.js";

const CACHE_FLAGS = defineFlags({
  "older-than": { type: "string", value: "DAYS", description: "prune: age in days (fractions allowed, e.g. 0.5)" },
  model: {
    type: "string",
    value: "PREFIX",
    default: "every model",
    description: 'only model identities starting with PREFIX, e.g. "openai-compatible:Qwen/Qwen3-8B" (as "cache info" lists them)',
  },
  yes: { type: "boolean", description: 'confirm "clear"' },
  json: { type: "boolean", description: "print one JSON object instead of text" },
});

export const CACHE_HELP: readonly CliCommandSpec[] = [
  {
    command: "yardstick cache",
    usage: [
      "yardstick cache info [--json]",
      "yardstick cache clear --yes [--model PREFIX] [--json]",
      "yardstick cache prune --older-than DAYS [--model PREFIX] [--json]",
    ],
    summary:
      'Manages the request cache that "yardstick run" answers from: one SQLite file shared by every run, $YARDSTICK_CACHE_DIR/requests.sqlite (default ~/.cache/yardstick/requests.sqlite). Entries are keyed by the request and the model identity: the provider and model, plus what the server reports about the checkpoint it serves (vLLM\'s root, max_model_len) and --model-revision, when there are any.',
    positionals: [
      { name: "info", description: "where the cache is, its size on disk and format version, its entries in all and per model identity (count, oldest and newest)" },
      { name: "clear", description: "remove every entry, or with --model those of matching identities; needs --yes" },
      { name: "prune", description: "remove the entries older than --older-than DAYS (with --model: only those of matching identities)" },
    ],
    flags: CACHE_FLAGS,
    notes: ["Space freed by clear and prune is given back to the file system (VACUUM)."],
  },
];

const SUBCOMMANDS = ["info", "clear", "prune"] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

const daysFlag = z
  .string()
  .trim()
  .min(1, { message: "expected a number of days" })
  .pipe(
    z.coerce
      .number<string>({ message: "expected a number of days" })
      .refine(Number.isFinite, { message: "expected a number of days" })
      .min(0, { message: "expected a number of days >= 0" }),
  );

export async function cacheCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, CACHE_FLAGS);
  const [sub, ...extra] = positionals;
  if (sub === undefined) throw new UsageError(`cache: give a subcommand: ${SUBCOMMANDS.join(", ")}`);
  if (!(SUBCOMMANDS as readonly string[]).includes(sub)) throw new UsageError(`cache: unknown subcommand "${sub}"; expected one of ${SUBCOMMANDS.join(", ")}`);
  if (extra.length > 0) throw new UsageError(`cache ${sub}: unexpected argument "${extra[0]}"`);
  const command = sub as Subcommand;
  const model = values.model;
  if (model !== undefined && model === "") throw new UsageError("--model: expected a model identity prefix (got an empty string)");
  if (command === "info" && (model !== undefined || values["older-than"] !== undefined || values.yes)) {
    throw new UsageError("cache info takes only --json");
  }
  if (command === "clear") {
    if (values["older-than"] !== undefined) throw new UsageError("cache clear removes regardless of age; use cache prune --older-than DAYS");
    if (!values.yes) throw new UsageError(`cache clear removes ${model === undefined ? "every cached answer" : `every cached answer of models "${model}*"`}; add --yes to confirm`);
  }
  const olderThanDays = values["older-than"] === undefined ? undefined : checkFlag("older-than", daysFlag, values["older-than"]);
  if (command === "prune" && olderThanDays === undefined) throw new UsageError("cache prune needs --older-than DAYS (to remove by model alone: cache clear --model PREFIX --yes)");

  const path = defaultCachePath(io.env);
  const print = (json: unknown, text: string): void => {
    io.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
  };
  // Looking must not create a cache: a missing file is an empty cache.
  if (!existsSync(path)) {
    if (command === "info") print({ path, exists: false, entries: 0, models: [] }, `no request cache at ${path} (nothing has been cached yet)`);
    else print({ path, exists: false, removed: 0 }, `nothing to remove: no request cache at ${path}`);
    return 0;
  }
  const cache: RequestCache = openRequestCache({ path, mustExist: true });
  try {
    if (command === "info") {
      const info = cache.info();
      print(infoJson(info), formatInfo(info));
      return 0;
    }
    const removed =
      command === "clear"
        ? cache.clear(model === undefined ? {} : { model })
        : cache.prune({ olderThanDays: olderThanDays!, ...(model === undefined ? {} : { model }) });
    const after = cache.info();
    const what = [
      olderThanDays !== undefined ? `older than ${olderThanDays} day${olderThanDays === 1 ? "" : "s"}` : "",
      model !== undefined ? `of models "${model}*"` : "",
    ]
      .filter((s) => s !== "")
      .join(" ");
    print(
      { path, removed, entries: after.entries, sizeBytes: after.sizeBytes },
      `removed ${removed} entr${removed === 1 ? "y" : "ies"}${what ? ` ${what}` : ""} from ${path}; ${after.entries} left, ${formatBytes(after.sizeBytes)} on disk`,
    );
    return 0;
  } finally {
    cache.close();
  }
}

const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());
/** Minutes are enough for people. */
const when = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

function infoJson(info: RequestCacheInfo): Record<string, unknown> {
  return {
    path: info.path,
    exists: true,
    formatVersion: info.formatVersion,
    sizeBytes: info.sizeBytes,
    entries: info.entries,
    oldest: iso(info.oldest),
    newest: iso(info.newest),
    models: info.models.map((m) => ({ model: m.model, entries: m.entries, oldest: iso(m.oldest), newest: iso(m.newest) })),
  };
}

function formatInfo(info: RequestCacheInfo): string {
  const lines = [
    `request cache: ${info.path} (format ${info.formatVersion})`,
    `size on disk:  ${formatBytes(info.sizeBytes)}`,
    `entries:       ${info.entries}${info.oldest !== undefined && info.newest !== undefined ? ` (oldest ${when(info.oldest)} UTC, newest ${when(info.newest)} UTC)` : ""}`,
  ];
  if (info.models.length === 0) return lines.join("\n");
  const rows = info.models.map((m) => [m.model, String(m.entries), when(m.oldest), when(m.newest)]);
  const header = ["model identity", "entries", "oldest (UTC)", "newest (UTC)"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [...lines, "", line(header), ...rows.map(line)].join("\n");
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}
