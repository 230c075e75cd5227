import { open, readFile } from "node:fs/promises";
import { extname } from "node:path";
import { ConfigError } from "@yardstick/core";
import { parseYamlSource } from "./yaml-source.js";

/**
 * Parses JSON text; a syntax error becomes a ConfigError with the line and column where JSON.parse
 * stopped (the end of the text when it ran out of input).
 */
export function parseJsonText(file: string, text: string, expected: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    const message = (cause as Error).message;
    const at = /position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : text.length;
    const before = text.slice(0, offset).split("\n");
    throw new ConfigError(`invalid JSON: ${message}`, { file, line: before.length, column: before.at(-1)!.length + 1, expected, cause });
  }
}

/** How many leading bytes are checked for NUL when telling text from binary files. */
const SNIFF_BYTES = 8192;

/** Whether the file's first bytes hold a NUL, which no YAML or JSON text has. */
export async function looksBinary(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/**
 * The syntax error of a config file that no dialect claims, when its extension says JSON or YAML and
 * it does not parse as such: a config with a typo then gets the line of the typo, not "no dialect
 * reads it". Undefined for other files and for files that parse.
 */
export async function configSyntaxError(file: string): Promise<ConfigError | undefined> {
  const ext = extname(file).toLowerCase();
  if (ext !== ".json" && ext !== ".yaml" && ext !== ".yml") return undefined;
  let text: string;
  try {
    // A binary file named like a config: its "syntax error" would point into bytes no one wrote.
    if (await looksBinary(file)) return new ConfigError("a binary file, not a config", { file, expected: `${ext === ".json" ? "JSON" : "YAML"} text` });
    text = await readFile(file, "utf8");
  } catch {
    return undefined; // a folder, or unreadable: the caller's own message says what is wrong
  }
  try {
    if (ext === ".json") parseJsonText(file, text, "a JSON config");
    else parseYamlSource(file, text);
  } catch (err) {
    if (ConfigError.isInstance(err)) return err;
    throw err;
  }
  return undefined;
}
